//! The rules that decide whether a line is a failure line, a summary or a
//! stack frame: the rule data and the matching over one line's view.
//! The README lists these rules; `signals/mod.rs` applies them line by line.

use std::sync::OnceLock;

use regex::bytes::{Regex, RegexBuilder};

pub(crate) struct Rules {
    pub strong: Regex,
    pub quiet: Regex,
    pub summary: Regex,
    pub frame: Regex,
    pub python_traceback: Regex,
    pub rust_panic: Regex,
}

/// A byte regex over views, ASCII classes (`\\b`, `\\w`, `\\s`): fast on any input.
fn ascii_regex(pattern: &str) -> Regex {
    RegexBuilder::new(pattern).unicode(false).build().expect("static rule")
}

pub(crate) fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    // The weak words are matched by `weak_failure`, word by word.
    RULES.get_or_init(|| Rules {
        strong: ascii_regex(
            r#"(?x)
              Traceback\ \(most\ recent\ call\ last\)
            | \bpanicked\ at\b | ^\s*panic:\s | \bSegmentation\ fault\b | \bcore\ dumped\b
            | \bSIG(?:SEGV|ABRT|BUS|ILL|FPE)\b | \bfatal\ runtime\ error\b
            | ^\s*(?:\[[^\]]*\]\s*)?(?:error|ERROR|Error|fatal|FATAL|Fatal)(?:\[[\w-]+\])?\s*[:!]
            | \b(?:error|Error|ERROR):\s
            | :\d+(?::\d+)?(?::|\s+-)\s*(?:fatal\ )?(?:error|Error|ERROR)\b
            | \berror\ (?:TS|CS|C|LNK)\d+\b
            | \#\#\[error\] | ^\s*::error\b
            | \bFAILED\b | \bFAILURES?\b | \bFAIL\b | \bFailed\b | \bERROR\b | \bFATAL\b
            | ^\s*not\ ok\b
            | ^\s*(?:\xE2\x97\x8F|\xE2\x9C\x95|\xE2\x9C\x97)\s
            | \b[A-Z][\w.$]*(?:Error|Exception)\b(?::|\s*$)
            | ^\s*Caused\ by:
            | (?i:\bexit(?:ed|ing)?\s+(?:with\s+)?(?:exit\s+)?(?:code|status)\s*[:=]?\s*-?[1-9])
            | (?i:\bnon-zero\ exit\b)
            | npm\ ERR! | \bERR_PNPM_\w+ | ^\s*error\s+Command\ failed
            | ^\s*(?:Expected|Received)(?:\ value)?:\s
            "#,
        ),
        quiet: ascii_regex(
            r#"(?x)
              (?i:\blevel=(?:debug|info|trace)\b) | (?i:"level"\s*:\s*"(?:debug|info|trace)")
            | (?i:\[(?:debug|info|trace)\]) | ^\s*(?:DEBUG|INFO|TRACE)\b | \s(?:DEBUG|INFO|TRACE)\s
            "#,
        ),
        summary: ascii_regex(
            r"(?xi)
              \b\d+\s+(?:passed|failed|failing|errors?|warnings?|skipped|pending|tests?|suites?|xfailed|xpassed|deselected|todos?|snapshots?|examples?|specs?|checks?|problems?)\b
            | ^\s*(?:tests?|test\ suites|test\ files|suites|snapshots|time|duration)\s*:
            | \btest\ result\b | ^\s*ran\ \d+\ tests?\b
            ",
        ),
        frame: ascii_regex(
            r#"(?x)
              ^\s+at\s+\S
            | ^\s+File\ "
            | ^\s+\d+:\s+\S
            | ^\s*goroutine\ \d+\ \[
            | ^\s+\S+\.(?:go|rs|py|js|mjs|cjs|ts|tsx|java|kt|scala|rb|c|cc|cpp|h|hpp|cs|swift):\d+
            | ^\s*stack\ backtrace:
            | ^\s+\.\.\.\ \d+\ more
            "#,
        ),
        python_traceback: ascii_regex(r"Traceback \(most recent call last\)"),
        rust_panic: ascii_regex(r"\bpanicked at\b"),
    })
}

/// The view with the insides of quoted strings removed, so a keyword
/// quoted in code (`includes("FAIL")`) is not read as a verdict. A `'`
/// right after a letter is an apostrophe, not a quote.
pub(crate) fn without_quoted(view: &str) -> String {
    let mut out = String::with_capacity(view.len());
    let mut quote = None;
    let mut previous = ' ';
    for c in view.chars() {
        match quote {
            Some(q) if c == q => {
                quote = None;
                out.push(c);
            }
            Some(_) => {}
            None => {
                out.push(c);
                let opens = matches!(c, '"' | '`') || (c == '\'' && !previous.is_alphanumeric());
                if opens && view.len() > 1 {
                    quote = Some(c);
                }
            }
        }
        previous = c;
    }
    if quote.is_some() {
        // Unclosed: it was not a quotation after all.
        return view.to_owned();
    }
    out
}

/// Weak failure words: whole words (not part of an identifier such as
/// `error-chain` or `test_error`), outside path-like tokens, not negated.
pub(crate) fn weak_failure(view: &str) -> bool {
    const WORDS: &[&str] = &[
        "error",
        "errors",
        "failed",
        "failure",
        "failures",
        "fail",
        "failing",
        "fatal",
        "panic",
        "panicked",
        "exception",
        "exceptions",
        "traceback",
        "abort",
        "aborted",
        "crash",
        "crashed",
    ];
    let mut previous = String::new();
    for token in view.split_whitespace() {
        if token.contains(['/', '\\']) {
            previous.clear();
            continue;
        }
        for word in token.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))) {
            // Byte offset just past this word in the view, to look after it.
            let word_end = word.as_ptr() as usize - view.as_ptr() as usize + word.len();
            let trimmed = word.trim_matches(|c| matches!(c, '-' | '_' | '.'));
            if trimmed.is_empty() {
                continue;
            }
            let lower = trimmed.to_ascii_lowercase();
            if WORDS.contains(&lower.as_str()) {
                let after = &view[word_end..];
                let zero_after = after.trim_start_matches([':', '=', ' ']).starts_with('0');
                let negated = matches!(previous.as_str(), "0" | "no" | "without" | "zero");
                if !negated && !zero_after {
                    return true;
                }
            }
            previous = lower;
        }
    }
    false
}
