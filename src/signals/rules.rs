//! The rules that decide what a line says: a failure, a pass, a summary,
//! or chatter. This is the file to read for "is this a failure line?".
//!
//! Each rule is a row of [`RULES`]: what the line is, the lowercase
//! keywords (*anchors*) the prefilter looks for, the pattern over the line's
//! view, and examples. The prefilter's keyword list is the union of the
//! anchors, and a test runs every example through the prefilter and the
//! rules, so the pre-check cannot drift from the rules. A line's verdict
//! comes before its words: a line that reports a pass is never a failure
//! line, whatever it says (`✔ rejects bad input with an error`).

use regex::bytes::{Regex, RegexBuilder};

/// What a rule says about a line it matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Says {
    /// A failure verdict or diagnostic.
    Failure,
    /// A test, step or build reported as passing.
    Pass,
    /// A count of results or a closing status.
    Summary,
    /// Debug, info or trace logging: never a failure, whatever its words.
    Chatter,
}

/// One rule: what it says, its anchors, its pattern, and lines it matches.
pub struct Rule {
    /// What a matching line is.
    pub says: Says,
    /// Lowercase keywords one of which every matching line contains (a `0`
    /// stands for any ASCII digit). The anchors of failure and summary
    /// rules are the keyword scan's triggers (a line without one is never
    /// read); those of pass, summary and chatter rules gate their DFA on a
    /// line the scan flagged.
    pub anchors: &'static [&'static str],
    /// The pattern over the line's view (byte regex, ASCII classes).
    pub pattern: &'static str,
    /// Lines the rule matches (checked by the tests).
    pub examples: &'static [&'static str],
}

/// The rules, grouped by what they say. docs/lines-mode.md lists them, with an
/// example of each that a test matches against its rule.
#[rustfmt::skip]
pub const RULES: &[Rule] = &[
    // ---- failures ----
    Rule { says: Says::Failure, anchors: &["traceback"], pattern: r"Traceback \(most recent call last\)",
        examples: &["Traceback (most recent call last):"] },
    Rule { says: Says::Failure, anchors: &["panic", "fatal"], pattern: r"\bpanicked at\b|^\s*panic:\s|\bfatal runtime error\b",
        examples: &["thread 'main' panicked at src/lib.rs:3:5:", "panic: runtime error: invalid memory address or nil pointer dereference"] },
    Rule { says: Says::Failure, anchors: &["segmentation", "core dumped", "sigsegv", "sigabrt", "sigbus", "sigill", "sigfpe", "sigkill"],
        pattern: r"\bSegmentation fault\b|\bcore dumped\b|\bSIG(?:SEGV|ABRT|BUS|ILL|FPE|KILL)\b",
        examples: &["Segmentation fault (core dumped)", "Process terminated by SIGFPE", "[signal SIGSEGV: segmentation violation code=0x1]"] },
    Rule { says: Says::Failure, anchors: &["error", "fatal"],
        pattern: r"^\s*(?:\[[^\]]*\]\s*)?(?:error|ERROR|Error|fatal|FATAL|Fatal)(?:\[[\w-]+\])?\s*[:!]|\b(?:error|Error|ERROR):\s|^npm error\b",
        examples: &["error[E0308]: mismatched types", "fatal: not a git repository", "ERROR: Could not build wheels for pycairo",
                    "  error: subprocess-exited-with-error", "npm error code EUSAGE"] },
    Rule { says: Says::Failure, anchors: &["error"],
        pattern: r":\d+(?::\d+)?(?::|\s+-)\s*(?:fatal )?(?:error|Error|ERROR)\b|\berror (?:TS|CS|C|LNK)\d+\b|\(\d+,\d+\):\s*error\b",
        examples: &["src/main.c:12:5: error: expected ';'", "yaml/visit.js:38:5 - error TS7006: Parameter 'x' implicitly has an 'any' type.",
                    "src/bad.ts(3,47): error TS2322: Type 'number' is not assignable to type 'string'."] },
    Rule { says: Says::Failure, anchors: &["error"], pattern: r"^\s*\d+:\d+\s+error\s{2,}\S",
        examples: &["  69:13  error  'console' is not defined  no-undef"] },
    Rule { says: Says::Failure, anchors: &["error"], pattern: r"##\[error\]|^\s*::error\b",
        examples: &["##[error]Process completed with exit code 1.", "::error file=app.js,line=1::Missing semicolon"] },
    Rule { says: Says::Failure, anchors: &["fail", "error", "fatal"], pattern: r"\bFAILED\b|\bFAILURES?\b|\bFAIL\b|\bFailed\b|\bERROR\b|\bFATAL\b",
        examples: &["FAILED tests/test_x.py::test_y - AssertionError", "--- FAIL: TestParse (0.00s)", " FAIL  src/app.test.js",
                    "mypy.....................................................................Failed", "ERROR tests/test_io.py - ImportError"] },
    Rule { says: Says::Failure, anchors: &["not ok"], pattern: r"^\s*not ok\b",
        examples: &["not ok 12 - rejects a missing token", "    not ok 3 - parses two sorts"] },
    Rule { says: Says::Failure, anchors: &["\u{25CF}", "\u{2715}", "\u{2716}", "\u{2717}", "\u{00D7}", "\u{2718}"], pattern: "^\\s*(?:\u{25CF}|\u{2715}|\u{2716}|\u{2717}|\u{00D7}|\u{2718})\\s",
        examples: &["  \u{25CF} config get \u{203A} reads npm options", "    \u{2715} parses two sorts (3 ms)", "  \u{2716} rgb.ansi256 (1.39428ms)"] },
    Rule { says: Says::Failure, anchors: &["error", "exception"], pattern: r"\b[A-Z][\w.$]*(?:Error|Exception)\b(?:\s*\[[\w_]+\])?(?::|\s*$)",
        examples: &["java.lang.IllegalStateException: boom", "TypeError: parsed.sort.split is not a function",
                    "AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:", "tests/test_more.py:741: AssertionError"] },
    Rule { says: Says::Failure, anchors: &["caused by"], pattern: r"^\s*Caused by:",
        examples: &["Caused by: java.io.IOException: disk full"] },
    Rule { says: Says::Failure, anchors: &["exit"],
        pattern: r"(?i:\bexit(?:ed|ing)?\s+(?:with\s+)?(?:exit\s+)?(?:code|status)\s*[:=]?\s*-?[1-9])|(?i:\bnon-zero exit\b)|(?i:\bexit status [1-9])|\breturned [1-9]\d* exit status|\bexited with [1-9]\d*\b",
        examples: &["Process completed with exit code 2.", "error: script \"lint\" exited with code 127", "collect2: error: ld returned 1 exit status",
                    "[pid 4211] +++ exited with 1 +++"] },
    Rule { says: Says::Failure, anchors: &["error"], pattern: r"\*\*\* .*\bError \d+",
        examples: &["make: *** [Makefile:13: build/pack] Error 1"] },
    Rule { says: Says::Failure, anchors: &["err!", "err_", "command failed"], pattern: r"npm ERR!|\bERR_PNPM_\w+|^\s*error\s+Command failed",
        examples: &["npm ERR! code ELIFECYCLE", " ERR_PNPM_NO_MATCHING_VERSION  No matching version found", "error Command failed with exit code 1."] },
    Rule { says: Says::Failure, anchors: &["undefined reference", "command not found", "no such file or directory", "permission denied", "cannot find"],
        pattern: r"\bundefined reference to\b|\bcommand not found\b|\bNo such file or directory\b|\bPermission denied\b|\bcannot find (?:symbol|module|name|package)\b",
        examples: &["pack.c:60: undefined reference to `frame_checksum'", "bash: line 1: yarn: command not found",
                    "cp: cannot stat 'dist/app.js': No such file or directory", "error: cannot find symbol"] },
    Rule { says: Says::Failure, anchors: &["____"], pattern: r"^_{3,} \S.* _{3,}$",
        examples: &["____________________ test_split_conserves_total[amount59-3] ____________________"] },
    Rule { says: Says::Failure, anchors: &["timed out", "timeout"], pattern: r"(?i:\btimed out\b|\btimeout of \d+\s*ms exceeded\b|\bexceeded timeout\b)",
        examples: &["Error: Timeout of 2000ms exceeded. For async tests and hooks, ensure \"done()\" is called", "the job timed out after 30 minutes"] },
    Rule { says: Says::Failure, anchors: &["sanitizer:"],
        pattern: r"^\s*SUMMARY: \w*Sanitizer:",
        examples: &["SUMMARY: AddressSanitizer: heap-buffer-overflow (/tmp/a.out+0x1234) in main"] },
    Rule { says: Says::Failure, anchors: &["error near line"], pattern: r"(?:Parse|Runtime) error near line \d+:",
        examples: &["Parse error near line 49: near \"Ivoire\": syntax error", "Runtime error near line 7: UNIQUE constraint failed: zones.name"] },
    Rule { says: Says::Failure, anchors: &["0== "],
        pattern: r"^\s?(?:Invalid (?:read|write) of size \d|Invalid free\(\)|Mismatched free\(\)|Conditional jump or move depends on uninitialised|Use of uninitialised value|Syscall param \S+ (?:points to|contains) uninitialised|Source and destination overlap|Process terminating with default action|\S.* are definitely lost in loss record)",
        examples: &["==14506== Invalid read of size 8", "==13349== Conditional jump or move depends on uninitialised value(s)",
                    "==13349== 2,628 bytes in 249 blocks are definitely lost in loss record 1 of 2"] },
    // ---- passes: a line that says a test or step passed is never a failure line ----
    Rule { says: Says::Pass, anchors: &["ok", "pass", "subtest"], pattern: r"^\s*ok\s+\d+\b|\.\.\.\s+ok\b|\bPASS(?:ED)?\b|--- PASS:|\[\s*(?:OK|PASSED)\s*\]|^\s*#\s*Subtest:",
        examples: &["ok 3 - reports an error for a bad port", "test parser::errors::unclosed_brace ... ok", "test_raises_error PASSED",
                    "--- PASS: TestFail (0.00s)", "# Subtest: rejects bad input then reports error", "[       OK ] ErrorTest.Throws (0 ms)"] },
    Rule { says: Says::Pass, anchors: &["\u{2713}", "\u{2714}", "\u{221A}", "success"], pattern: "^\\s*(?:\u{2713}|\u{2714}|\u{221A})\\s|\u{2714} SUCCESSFUL|\\bSUCCESS(?:FUL)?\\b",
        examples: &["  \u{2713} fails when the token is missing (4 ms)", "    \u{2714} should throw an error on bad input",
                    "status: \u{2714} SUCCESSFUL"] },
    // ---- summaries ----
    Rule { says: Says::Summary, anchors: &["0 pass", "0 fail", "0 error", "0 warning", "0 skipped", "0 pending", "0 test", "0 suite", "0 xfail",
                                          "0 deselected", "0 todo", "0 snapshot", "0 example", "0 spec", "0 check", "0 problem", "0 total"],
        pattern: r"(?i)(?:^|[\s(\[,;|=])\d+ (?:passed|passing|failed|failing|errors?|warnings?|skipped|pending|tests?|suites?|xfailed|deselected|todos?|snapshots?|examples?|specs?|checks?|problems?|total)\b",
        examples: &["Tests:       1 failed, 484 passed, 485 total", "= 2 failed, 244 passed in 0.17s =", "Found 279 errors in 9 files (checked 1458 source files)",
                    "12 tests completed", "\u{2716} 554 problems (474 errors, 80 warnings)", "  212 passing (29ms)", "Snapshots:   0 total",
                    "Test Suites: 2 failed, 2 total", "      Tests  5 passed (5)", "Ran 1690 tests in 14.222s"] },
    Rule { says: Says::Summary, anchors: &["time:", "duration"],
        pattern: r"(?i)^\s*(?:time:|duration(?:\s*:|\s{2,}\d))",
        examples: &["Time:  2.514 s", "Duration  452ms (transform 30ms)"] },
    Rule { says: Says::Summary, anchors: &["0 pass", "finished", "successful", "succeeded", "build fail", "# test", "# pass", "# fail", "# suites", "0% test", "\u{2139} tests 0"],
        pattern: r"(?i)\btest result: \w+\. \d+ passed|^\s*finished\b|^\s*successfully (?:installed|built|compiled|created|deployed|uninstalled)\b|^\s*(?:#|ℹ) (?:tests|pass|fail|suites)\s+\d+|\b\d+% tests passed\b|\bbuild (?:finished|succeeded|failed|successful)\b",
        examples: &["test result: FAILED. 133 passed; 1 failed", "    Finished `release` profile [optimized] target(s) in 19.62s",
                    "Successfully installed lxml-5.3.0", "# fail  17", "# tests 12", "ℹ tests 1200", "89% tests passed, 4 tests failed out of 36",
                    "build finished with problems, 63 warnings (with warnings treated as errors).", "Build succeeded."] },
    // ---- chatter: code that handles or raises an error is code, not a report of one ----
    Rule { says: Says::Chatter, anchors: &["except", "catch", "raise", "throw"],
        pattern: r"^\s*(?:except\b|(?:\}\s*)?catch\s*[({]|raise\s+[\w.]+\s*\(|throw\s+new\b)",
        examples: &["    except KeyError:", "} catch (err) {", "        raise ValueError(msg)", "      throw new TypeError('bad')"] },
    // ---- chatter: logged at a level below warning ----
    Rule { says: Says::Chatter, anchors: &["level", "debug", "info", "trace", "npm verbose", "npm http", "npm silly", "npm timing"],
        pattern: r#"(?i:\blevel=(?:debug|info|trace)\b)|(?i:"level"\s*:\s*"(?:debug|info|trace)")|(?i:\[(?:debug|info|trace)\])|^\s*(?:DEBUG|INFO|TRACE)\b|\s(?:DEBUG|INFO|TRACE)\s|^npm (?:verbose|http|silly|timing)\b"#,
        examples: &["time=\"x\" level=debug msg=\"fetch failed\"", "[INFO] Exception counts: none", "npm http fetch GET 200 https://registry.npmjs.org/error-ex"] },
];

/// The weak failure words: a failure in prose, counted only outside paths
/// and identifiers and when not negated (`0 errors`, `errors: 0`, `no errors`).
pub const WEAK_WORDS: &[&str] = &[
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

/// A byte regex over views, ASCII classes (`\b`, `\w`, `\s`): fast on any
/// input. Every pattern of the crate is built with it.
pub(crate) fn ascii_regex(pattern: &str) -> Regex {
    RegexBuilder::new(pattern).unicode(false).build().expect("static pattern")
}

/// The anchors of the failure and summary rules, and the weak words: the
/// prefilter's triggers (the failure glyphs are found apart). An anchor
/// that holds another one is left out, since a line with it is flagged by
/// the shorter one anyway. All are at least four bytes, so a SIMD
/// multi-literal searcher takes them.
pub(crate) fn anchors() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = RULES
        .iter()
        .filter(|r| matches!(r.says, Says::Failure | Says::Summary))
        .flat_map(|r| r.anchors.iter().copied())
        .filter(|a| a.is_ascii())
        .collect();
    all.extend(WEAK_WORDS.iter().copied());
    all.retain(|a| !SEARCHED_ALONE.contains(a));
    all.sort_unstable();
    all.dedup();
    let minimal: Vec<&'static str> =
        all.iter().copied().filter(|a| !all.iter().any(|b| b != a && a.contains(b))).collect();
    debug_assert!(minimal.iter().all(|a| a.len() >= 4), "anchors are at least four bytes");
    minimal
}

/// Anchors of rare lines, searched on their own (`memmem`) rather than
/// among the [`anchors`]: one more literal in the multi-literal searcher
/// shares its buckets with the others and costs every text a few percent
/// of its scan (measured: 2.5% of a prune of 1 MiB of source; `tests 0`
/// there cost a flood of `tests/test_x.py` lines 5% of its prune), where
/// one `memmem` pass costs a fraction of that. Searched as narrowed.
pub(crate) const SEARCHED_ALONE: &[&str] = &["sanitizer:", "0== ", "\u{2139} tests 0"];

/// An anchor as the narrowed text spells it (see the prefilter): ASCII
/// lowercase with every digit `0` (and a count's space as its byte), a
/// glyph as its byte.
pub(crate) fn narrowed_anchor(anchor: &str) -> Vec<u8> {
    let mut out = Vec::new();
    crate::kernels::narrow(&crate::text::utf16(anchor), 0, &mut out);
    out
}

/// Whether `view` quotes source in a gutter, as rustc, ruff, jest and
/// babel print the code under a finding (`  12 |     raise TypeError`,
/// `   |`, `  > 7 |   throw new Error(x)`): blanks or a line number, an
/// optional `>` mark, then `|` and a blank. Such a line shows code, so its
/// failure words are no verdict. A table row (`| FAILED | a |`) starts at
/// its `|` and is not one.
pub(crate) fn quotes_source(view: &str) -> bool {
    let b = view.as_bytes();
    let blanks = |at: usize| b[at..].iter().take_while(|&&c| c == b' ' || c == b'\t').count();
    let mut at = blanks(0);
    let indented = at > 0;
    if b.get(at) == Some(&b'>') {
        at += 1;
        at += blanks(at);
    }
    let digits = b[at..].iter().take_while(|c| c.is_ascii_digit()).count();
    at += digits;
    at += blanks(at);
    (indented || digits > 0) && b.get(at) == Some(&b'|') && b.get(at + 1).is_none_or(|&c| c == b' ' || c == b'\t')
}

/// Writes `view` with the insides of quoted strings removed to `out`, so a
/// keyword quoted in code (`includes("FAIL")`) is not read as a verdict;
/// returns whether anything was removed (when not, `out` is to be ignored:
/// the view stands as it is). A `'` right after a letter is an apostrophe,
/// not a quote, and an unclosed quote was not a quotation after all. The
/// quotes are ASCII, so the view is copied in runs between them.
pub(crate) fn without_quoted(view: &str, out: &mut String) -> bool {
    out.clear();
    let b = view.as_bytes();
    if b.len() < 2 {
        return false;
    }
    let mut kept_from = 0;
    let mut removed = false;
    let mut at = 0;
    while let Some(offset) = memchr::memchr3(b'"', b'`', b'\'', &b[at..]) {
        let i = at + offset;
        let q = b[i];
        // An apostrophe: the character before it is a letter or a digit.
        let apostrophe = q == b'\'' && view[..i].chars().next_back().is_some_and(char::is_alphanumeric);
        if apostrophe {
            at = i + 1;
            continue;
        }
        // A quotation opens at `i`: its closing quote, if there is one.
        let Some(close) = memchr::memchr(q, &b[i + 1..]).map(|o| i + 1 + o) else {
            return false;
        };
        out.push_str(&view[kept_from..=i]);
        removed |= close > i + 1;
        kept_from = close;
        at = close + 1;
    }
    if !removed {
        return false;
    }
    out.push_str(&view[kept_from..]);
    true
}

/// Weak failure words: whole words (not part of an identifier such as
/// `error-chain` or `test_error`), outside path-like tokens, not negated
/// (`0 errors`, `errors: 0`, `no errors`).
pub(crate) fn weak_failure(view: &str) -> bool {
    let mut previous = "";
    for token in view.split_whitespace() {
        if token.contains(['/', '\\']) {
            previous = "";
            continue;
        }
        for word in token.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))) {
            // Byte offset just past this word in the view, to look after it.
            let word_end = word.as_ptr() as usize - view.as_ptr() as usize + word.len();
            let trimmed = word.trim_matches(|c| matches!(c, '-' | '_' | '.'));
            if trimmed.is_empty() {
                continue;
            }
            if WEAK_WORDS.iter().any(|w| w.eq_ignore_ascii_case(trimmed)) {
                let after = &view[word_end..];
                let zero_after = after.trim_start_matches([':', '=', ' ']).starts_with('0');
                let negated = ["0", "no", "without", "zero"].iter().any(|n| n.eq_ignore_ascii_case(previous));
                if !negated && !zero_after {
                    return true;
                }
            }
            previous = trimmed;
        }
    }
    false
}

#[cfg(test)]
mod tests;
