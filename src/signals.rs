//! Failure signal in lines: what a line plan must not lose.
//!
//! A line is read through a *view*: ANSI escapes removed, a leading CI
//! timestamp (`2026-04-22T16:11:57.0127816Z `) removed, line ending removed.
//! Views are built only for lines a fast case-insensitive keyword scan flags
//! (and for the lines right after a failure, to follow stack traces), so the
//! cost stays linear and small on large logs.
//!
//! Rules (documented in the README as the final list):
//!
//! - **strong failure**: `Traceback (most recent call last)`; `panicked at`,
//!   `panic:`, `Segmentation fault`, `core dumped`, `SIGSEGV`/`SIGABRT`/…;
//!   a line starting `error:`/`ERROR:`/`Error:`/`fatal:`/`FATAL:` (also
//!   `error[E0308]:`); compiler diagnostics `path:line[:col]: error` and
//!   `path:line:col - error`; `error TS1234`; `##[error]`, `::error`;
//!   `FAILED`, `FAILURE(S)`, `FAIL` (as a word), `Failed`; `--- FAIL`;
//!   `not ok`; jest's `●` and `✕`/`✗`; `SomethingError:`/`SomethingException`;
//!   `Caused by:`; a non-zero `exit code`/`exit status`/`exited with code`;
//!   `npm ERR!`, `ERR_PNPM_…`, yarn's `error Command failed`; pytest's
//!   `E   ` detail lines; jest's `Expected:`/`Received:`; the message line of
//!   a Python traceback and of a Rust panic.
//! - **weak failure**: the words error(s), failed, failure(s), fail(ing),
//!   fatal, panic(ked), exception(s), traceback, abort(ed), crash(ed),
//!   outside path-like tokens and not negated (`0 errors`, `no errors`,
//!   `errors: 0`).
//! - **summary**: a count followed by passed/failed/errors/warnings/skipped/
//!   tests/suites/…, `Tests:`/`Test Suites:`/`Time:` lines, `test result`,
//!   `summary`, `Ran N tests`.
//! - **frame**: the body of a stack trace following a failure line:
//!   indented lines of a Python traceback, `at …` (Node, Java), `File "…"`,
//!   Rust backtrace `N: symbol`, Go `goroutine N [` and `file.go:N` lines.
//!
//! Lines of one *shape* (equal after numbers, hex ids, quoted strings and
//! path-like tokens are blanked) count once where the plan ranks lines.

use std::hash::Hasher;
use std::ops::Range;
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use regex::bytes::{Regex, RegexBuilder};

/// What a line carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineSignal {
    /// 0: none, 1: weak, 3: strong failure signal.
    pub failure: u8,
    /// A test or build summary line.
    pub summary: bool,
    /// A stack-trace body line following a failure.
    pub frame: bool,
    /// Shape hash for failure and summary lines (0 otherwise); 32 bits keep
    /// a signal per line small on logs of millions of lines.
    pub shape: u32,
}

impl LineSignal {
    /// Failure signal of any strength, or part of a stack trace.
    pub fn is_mandatory(&self) -> bool {
        self.failure > 0 || self.frame
    }
}

/// Strong failure signal.
pub const STRONG: u8 = 3;
/// Weak failure signal.
pub const WEAK: u8 = 1;

/// Keywords (lowercase ASCII, matched against the lowercased narrowed text)
/// that make a line worth a closer look. All are at least four bytes, so a
/// SIMD multi-literal searcher takes them.
#[rustfmt::skip]
const TRIGGERS: &[&str] = &[
    "error", "err!", "err_", "fail", "fatal", "panic", "exception", "traceback", "exit", "abort",
    "segmentation", "core dumped", "sigsegv", "sigabrt", "sigbus", "crash",
    "passed", "skipped", "pending", "warnings", "test result", "ran ", "found ", "total", "xfailed", "deselected",
    "expected", "received", "caused by", "not ok",
];

/// Non-ASCII characters the rules look for (`✕`, `✗`, `●`), and the bytes
/// that stand for them in the narrowed text, where they are found apart.
const GLYPHS: [(u16, u8); 3] = [(0x2715, 1), (0x2717, 2), (0x25CF, 3)];

/// The keyword scan, over the text narrowed to one byte per code unit: a
/// SIMD multi-literal searcher where the CPU has one, else an automaton;
/// then the glyph bytes, by `memchr`.
enum Triggers {
    Packed(aho_corasick::packed::Searcher),
    Automaton(AhoCorasick),
}

impl Triggers {
    /// Start offsets of keyword matches in `haystack`, in order.
    fn starts(&self, haystack: &[u8], mut f: impl FnMut(usize)) {
        match self {
            Triggers::Packed(s) => s.find_iter(haystack).for_each(|m| f(m.start())),
            Triggers::Automaton(a) => a.find_iter(haystack).for_each(|m| f(m.start())),
        }
    }
}

fn triggers() -> &'static Triggers {
    static TRIGGER_SCAN: OnceLock<Triggers> = OnceLock::new();
    TRIGGER_SCAN.get_or_init(|| {
        let packed = aho_corasick::packed::Config::new()
            .match_kind(aho_corasick::packed::MatchKind::LeftmostFirst)
            .builder()
            .extend(TRIGGERS)
            .build();
        match packed {
            Some(searcher) => Triggers::Packed(searcher),
            None => Triggers::Automaton(
                AhoCorasickBuilder::new()
                    .match_kind(MatchKind::LeftmostFirst)
                    .build(TRIGGERS)
                    .expect("static trigger patterns"),
            ),
        }
    })
}

struct Rules {
    strong: Regex,
    quiet: Regex,
    summary: Regex,
    frame: Regex,
    python_traceback: Regex,
    rust_panic: Regex,
}

/// A byte regex over views, ASCII classes (`\\b`, `\\w`, `\\s`): fast on any input.
fn ascii_regex(pattern: &str) -> Regex {
    RegexBuilder::new(pattern).unicode(false).build().expect("static rule")
}

fn rules() -> &'static Rules {
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

/// Code-unit offset where a line's content starts: after a CI timestamp
/// prefix and any ANSI escapes in front of the text.
fn content_start(line: &[u16]) -> usize {
    let mut at = timestamp_len(line);
    while let Some(len) = escape_len(&line[at..]) {
        at += len;
    }
    at
}

/// Length of a leading `YYYY-MM-DDTHH:MM:SS[.frac]Z ` timestamp, or 0.
fn timestamp_len(line: &[u16]) -> usize {
    const SHAPE: &[u8] = b"dddd-dd-ddTdd:dd:dd";
    if line.len() < SHAPE.len() + 1 {
        return 0;
    }
    for (i, &want) in SHAPE.iter().enumerate() {
        let u = line[i];
        let ok = if want == b'd' { (u16::from(b'0')..=u16::from(b'9')).contains(&u) } else { u == u16::from(want) };
        if !ok {
            return 0;
        }
    }
    let mut at = SHAPE.len();
    if line.get(at) == Some(&u16::from(b'.')) {
        at += 1;
        while line.get(at).is_some_and(|u| (u16::from(b'0')..=u16::from(b'9')).contains(u)) {
            at += 1;
        }
    }
    if line.get(at) != Some(&u16::from(b'Z')) {
        return 0;
    }
    at += 1;
    if line.get(at) == Some(&u16::from(b' ')) {
        at += 1;
    }
    at
}

/// Length of an ANSI escape sequence at the start of `s`, if there is one.
fn escape_len(s: &[u16]) -> Option<usize> {
    const ESC: u16 = 0x1B;
    if s.first() != Some(&ESC) {
        return None;
    }
    match s.get(1).copied() {
        Some(0x5B) => {
            // CSI: parameters and intermediates, then one final byte.
            let end = s[2..].iter().position(|&u| (0x40..=0x7E).contains(&u))?;
            Some(2 + end + 1)
        }
        Some(0x5D) => {
            // OSC: up to BEL or ESC '\'.
            let mut i = 2;
            while i < s.len() {
                if s[i] == 0x07 {
                    return Some(i + 1);
                }
                if s[i] == ESC && s.get(i + 1) == Some(&0x5C) {
                    return Some(i + 2);
                }
                i += 1;
            }
            Some(s.len())
        }
        Some(_) => Some(2),
        None => Some(1),
    }
}

/// Writes the matching view of `line` into `out` (cleared first): no CI
/// timestamp, no ANSI escapes, no `\r`/`\n`; lone surrogates become U+FFFD.
pub fn view(line: &[u16], out: &mut String) {
    out.clear();
    let mut at = content_start(line);
    while at < line.len() {
        let u = line[at];
        match u {
            0x1B => at += escape_len(&line[at..]).unwrap_or(1),
            0x0D | 0x0A => at += 1,
            0x00..=0x7F => {
                // An ASCII run: copied byte for byte.
                let run = line[at..].iter().take_while(|&&u| u < 0x80 && u != 0x1B && u != 0x0D && u != 0x0A).count();
                out.extend(line[at..at + run].iter().map(|&u| char::from(u as u8)));
                at += run;
            }
            _ => {
                let width = crate::text::step_forward(line, at);
                let c = char::decode_utf16(line[at..at + width].iter().copied())
                    .next()
                    .map_or('\u{FFFD}', |c| c.unwrap_or('\u{FFFD}'));
                out.push(c);
                at += width;
            }
        }
    }
}

/// The view with the insides of quoted strings removed, so a keyword
/// quoted in code (`includes("FAIL")`) is not read as a verdict. A `'`
/// right after a letter is an apostrophe, not a quote.
fn without_quoted(view: &str) -> String {
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

/// True when the view starts with whitespace (an indented line).
fn indented(view: &str) -> bool {
    view.starts_with([' ', '\t'])
}

/// Weak failure words: whole words (not part of an identifier such as
/// `error-chain` or `test_error`), outside path-like tokens, not negated.
fn weak_failure(view: &str) -> bool {
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

/// Hash of the line's shape: quoted strings, path-like tokens, numbers and
/// long hex ids blanked, whitespace runs folded.
pub fn shape_hash(view: &str) -> u32 {
    // The shape is spelled out, then hashed once.
    let mut shape = String::with_capacity(view.len());
    let mut token = String::new();
    let mut chars = view.trim().chars();
    while let Some(c) = chars.next() {
        match c {
            '"' | '\'' | '`' => {
                let quote = c;
                let rest = chars.as_str();
                match rest.find(quote) {
                    Some(end) => {
                        token.push('\u{1}');
                        chars = rest[end + quote.len_utf8()..].chars();
                    }
                    None => token.push(quote),
                }
            }
            c if c.is_whitespace() => push_token_shape(&mut token, &mut shape),
            c => token.push(c),
        }
    }
    push_token_shape(&mut token, &mut shape);
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    hasher.write(shape.as_bytes());
    let h = hasher.finish();
    (h ^ (h >> 32)) as u32
}

/// Appends one whitespace-delimited token's shape, then a space, to
/// `shape`, and clears the token.
fn push_token_shape(token: &mut String, shape: &mut String) {
    if token.is_empty() {
        return;
    }
    if token.contains(['/', '\\']) {
        shape.push('/');
    } else {
        let mut rest = token.as_str();
        while let Some(c) = rest.chars().next() {
            let run_len = rest.find(|d: char| !d.is_ascii_alphanumeric()).unwrap_or(rest.len());
            if run_len > 0 {
                let run = &rest[..run_len];
                let has_digit = run.bytes().any(|b| b.is_ascii_digit());
                if has_digit && run.len() >= 7 && run.bytes().all(|b| b.is_ascii_hexdigit()) {
                    shape.push('#');
                } else {
                    let mut last_digit = false;
                    for d in run.chars() {
                        let digit = d.is_ascii_digit();
                        if !(digit && last_digit) {
                            shape.push(if digit { '0' } else { d });
                        }
                        last_digit = digit;
                    }
                }
                rest = &rest[run_len..];
            } else {
                shape.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    shape.push(' ');
    token.clear();
}

/// Classifies every line of `text`.
pub fn scan(text: &[u16], lines: &[Range<usize>]) -> Vec<LineSignal> {
    let mut out = vec![LineSignal::default(); lines.len()];
    if lines.is_empty() {
        return out;
    }
    let flagged = flag_lines(text, lines);
    let rules = rules();
    let mut buf = String::new();
    let mut i = 0;
    while i < lines.len() {
        let line = &text[lines[i].clone()];
        let pytest_detail = starts_pytest_detail(&line[content_start(line)..]);
        if !flagged[i] && !pytest_detail {
            i += 1;
            continue;
        }
        view(line, &mut buf);
        // Debug/info/trace log lines are chatter, whatever words they hold.
        let quiet = !pytest_detail && rules.quiet.is_match(buf.as_bytes());
        let unquoted = without_quoted(&buf);
        let strong = !quiet && (pytest_detail || rules.strong.is_match(unquoted.as_bytes()));
        let signal = &mut out[i];
        // A line may already be marked (a panic's message): never downgrade.
        signal.failure = signal.failure.max(if strong {
            STRONG
        } else if !quiet && weak_failure(&unquoted) {
            WEAK
        } else {
            0
        });
        signal.summary = rules.summary.is_match(buf.as_bytes());
        if signal.failure > 0 || signal.summary {
            signal.shape = shape_hash(&buf);
        }
        if strong && rules.python_traceback.is_match(buf.as_bytes()) {
            i = follow_python_traceback(text, lines, i, &mut out, &mut buf);
            continue;
        }
        if strong && rules.rust_panic.is_match(buf.as_bytes()) {
            mark_message(text, lines, i + 1, &mut out, &mut buf);
        }
        if out[i].failure > 0 {
            i = follow_frames(text, lines, i, &mut out, &mut buf);
            continue;
        }
        i += 1;
    }
    out
}

/// Indices of the lines that must survive whatever else is decided: every
/// failure line (strong or weak) and every stack-trace body line, ascending.
pub fn mandatory_lines(text: &[u16], lines: &[Range<usize>]) -> Vec<usize> {
    scan(text, lines).iter().enumerate().filter_map(|(i, s)| s.is_mandatory().then_some(i)).collect()
}

/// `E   ` at the start of a line's content (pytest's assertion details).
fn starts_pytest_detail(content: &[u16]) -> bool {
    content.len() >= 3
        && content[0] == u16::from(b'E')
        && content[1] == u16::from(b' ')
        && content[2] == u16::from(b' ')
}

/// Lines containing a trigger keyword outside a path-like token (a match
/// inside `dist/lib/error-once.js` is not a reason to look closer).
fn flag_lines(text: &[u16], lines: &[Range<usize>]) -> Vec<bool> {
    let mut flagged = vec![false; lines.len()];
    if text.len() < PARALLEL_FROM {
        flag_range(text, lines, &mut flagged);
        return flagged;
    }
    // Large texts: the second half of the lines on another core.
    let split = lines.len() / 2;
    let (first_lines, second_lines) = lines.split_at(split);
    let (second, ()) = crate::parallel::join(
        || {
            let mut flags = vec![false; second_lines.len()];
            flag_range(text, second_lines, &mut flags);
            flags
        },
        || flag_range(text, first_lines, &mut flagged[..split]),
    );
    flagged[split..].copy_from_slice(&second);
    flagged
}

/// Texts at least this long (code units) have their keyword scan split
/// over two threads.
const PARALLEL_FROM: usize = 1 << 18;

/// Code units narrowed and scanned at a time, to keep memory flat.
const SCAN_WINDOW: usize = 1 << 16;
/// Longer than any trigger: how far windows inside one long line overlap.
const TRIGGER_OVERLAP: usize = 16;

/// Flags `lines` (contiguous, in order) of `text` into `flagged`, a window
/// of about `SCAN_WINDOW` code units at a time.
fn flag_range(text: &[u16], lines: &[Range<usize>], flagged: &mut [bool]) {
    let mut narrowed = Vec::with_capacity(SCAN_WINDOW + TRIGGER_OVERLAP);
    let mut first = 0;
    while first < lines.len() {
        // Whole lines up to the window, or one line on its own.
        let start = lines[first].start;
        let mut last = first;
        while last + 1 < lines.len() && lines[last + 1].end - start <= SCAN_WINDOW {
            last += 1;
        }
        let end = lines[last].end;
        let mut from = start;
        while from < end {
            let to = (from + SCAN_WINDOW).min(end);
            let window_end = (to + TRIGGER_OVERLAP).min(end);
            narrow_into(&text[from..window_end], &mut narrowed);
            // Offsets come in order within each search; `line` follows them.
            let mut mark = |offset: usize, line: &mut usize| {
                let unit = from + offset;
                while lines[*line].end <= unit {
                    *line += 1;
                }
                if !flagged[*line] && !in_path_token(text, lines[*line].clone(), unit) {
                    flagged[*line] = true;
                }
            };
            let mut line = first;
            triggers().starts(&narrowed, |offset| mark(offset, &mut line));
            let mut line = first;
            memchr::memchr3_iter(GLYPHS[0].1, GLYPHS[1].1, GLYPHS[2].1, &narrowed)
                .for_each(|offset| mark(offset, &mut line));
            from = to;
        }
        first = last + 1;
    }
}

/// One byte per code unit: ASCII lowercased, the rule glyphs as
/// `\x01`..`\x03`, anything else `0x80`. Offsets equal code-unit offsets.
fn narrow_into(text: &[u16], out: &mut Vec<u8>) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { narrow_avx2(text, out) };
    }
    narrow(text, out);
}

/// [`narrow`] compiled for AVX2 (twice the lanes of the baseline).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn narrow_avx2(text: &[u16], out: &mut Vec<u8>) {
    narrow(text, out);
}

#[inline(always)]
fn narrow(text: &[u16], out: &mut Vec<u8>) {
    out.clear();
    // Selects only, no branches: the compiler vectorises this.
    out.extend(text.iter().map(|&u| {
        let byte = if u < 0x80 { (u as u8).to_ascii_lowercase() } else { 0x80 };
        let byte = if u == GLYPHS[0].0 { GLYPHS[0].1 } else { byte };
        let byte = if u == GLYPHS[1].0 { GLYPHS[1].1 } else { byte };
        if u == GLYPHS[2].0 { GLYPHS[2].1 } else { byte }
    }));
}

/// True when the whitespace-delimited token around `at` (within `line`)
/// holds a `/` or `\\`. Looks at most a few hundred units each way.
fn in_path_token(text: &[u16], line: Range<usize>, at: usize) -> bool {
    const REACH: usize = 256;
    let is_space = |u: u16| u == u16::from(b' ') || u == u16::from(b'\t');
    let is_slash = |u: u16| u == u16::from(b'/') || u == u16::from(b'\\');
    let from = line.start.max(at.saturating_sub(REACH));
    let to = line.end.min(at + REACH);
    let left = text[from..at].iter().rev().take_while(|&&u| !is_space(u));
    let right = text[at..to].iter().take_while(|&&u| !is_space(u));
    left.chain(right).any(|&u| is_slash(u))
}

/// Marks the frames and the message of a Python traceback whose header is
/// line `header`; returns the line after the traceback.
fn follow_python_traceback(
    text: &[u16],
    lines: &[Range<usize>],
    header: usize,
    out: &mut [LineSignal],
    buf: &mut String,
) -> usize {
    let mut j = header + 1;
    while j < lines.len() {
        view(&text[lines[j].clone()], buf);
        if buf.trim().is_empty() {
            break;
        }
        if indented(buf) {
            out[j].frame = true;
            j += 1;
            continue;
        }
        // The first unindented line: the exception message.
        out[j].failure = STRONG;
        out[j].shape = shape_hash(buf);
        return j + 1;
    }
    j
}

/// Marks line `j` (if it exists and is not blank) as a strong failure: the
/// message that follows a panic header.
fn mark_message(text: &[u16], lines: &[Range<usize>], j: usize, out: &mut [LineSignal], buf: &mut String) {
    if j >= lines.len() {
        return;
    }
    view(&text[lines[j].clone()], buf);
    if !buf.trim().is_empty() && out[j].failure < STRONG {
        out[j].failure = STRONG;
        out[j].shape = shape_hash(buf);
    }
}

/// Marks the stack-trace lines right after failure line `i`; returns the
/// next line to classify.
fn follow_frames(text: &[u16], lines: &[Range<usize>], i: usize, out: &mut [LineSignal], buf: &mut String) -> usize {
    let rules = rules();
    let mut j = i + 1;
    // A message line may sit between a failure and its frames.
    while j < lines.len() {
        view(&text[lines[j].clone()], buf);
        if rules.frame.is_match(buf.as_bytes()) || (out[j - 1].frame && indented(buf) && !buf.trim().is_empty()) {
            out[j].frame = true;
            j += 1;
        } else {
            break;
        }
    }
    j.max(i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lines::split_lines;
    use crate::text::utf16;

    fn classify(text: &str) -> Vec<LineSignal> {
        let t = utf16(text);
        scan(&t, &split_lines(&t))
    }

    fn failures(text: &str) -> Vec<u8> {
        classify(text).iter().map(|s| s.failure).collect()
    }

    #[test]
    fn views_drop_timestamps_escapes_and_endings() {
        let mut out = String::new();
        view(&utf16("2026-04-22T16:11:57.0127816Z \u{1b}[31merror\u{1b}[39m: x\r\n"), &mut out);
        assert_eq!(out, "error: x");
        view(&[0x61, 0xD800, 0x62], &mut out);
        assert_eq!(out, "a\u{FFFD}b");
    }

    #[test]
    fn strong_rules_across_ecosystems() {
        for line in [
            "error[E0308]: mismatched types",
            "src/main.c:12:5: error: expected ';'",
            "  pandas/io/parquet.py:239:33 - error: Argument of type",
            "pandas/compat/pyarrow.py:76: error: Module has no attribute \"is_null\"  [attr-defined]",
            "##[error]Process completed with exit code 1.",
            "FAILED tests/test_x.py::test_y - AssertionError",
            "--- FAIL: TestParse (0.00s)",
            "thread 'main' panicked at src/lib.rs:3:5:",
            "npm ERR! code ELIFECYCLE",
            "fatal: detected dubious ownership in repository at '/work'",
            "E       assert 1 == 2",
            "java.lang.IllegalStateException: boom",
            "Caused by: java.io.IOException",
            "No tests found, exiting with code 1",
            "Segmentation fault (core dumped)",
            "  ● config get › reads npm options",
            "    Expected: \"https://x\"",
            "mypy.....................................................................Failed",
            "error TS2322: Type 'string' is not assignable",
        ] {
            assert_eq!(failures(line), [STRONG], "{line}");
        }
    }

    #[test]
    fn quoted_keywords_and_debug_chatter_are_not_verdicts() {
        assert_eq!(failures("      if (!test.output.includes(\"FAIL\")) {"), [0]);
        assert_eq!(failures("time=\"x\" level=debug msg=\"fetch failed\" digest=1"), [0]);
        assert_eq!(failures("[INFO] Exception counts: none"), [0]);
        assert_eq!(failures("ERROR: process \"/bin/sh -c make\" did not complete"), [STRONG]);
        assert_eq!(failures("#72 0.149 wget: server returned error: HTTP/1.1 502 Bad Gateway"), [STRONG]);
        assert_eq!(failures("it's FAILED, don't retry"), [STRONG]);
    }

    #[test]
    fn weak_words_and_what_is_not_a_failure() {
        assert_eq!(failures("the request failed after retries"), [WEAK]);
        for line in [
            "Compiling error-chain v0.12.4",
            "next:pack: dist/shared/lib/errors/usage-error.js",
            "69 passed, 0 failed",
            "No errors found",
            "errors: 0",
            "-Werror enabled",
            "Process completed with exit code 0.",
        ] {
            assert_eq!(failures(line), [0], "{line}");
        }
    }

    #[test]
    fn python_tracebacks_are_kept_whole() {
        let log = "ok\nTraceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n    main()\nValueError: bad\nafter\n";
        let s = classify(log);
        let frames: Vec<bool> = s.iter().map(|x| x.frame).collect();
        assert_eq!(frames, [false, false, true, true, false, false]);
        assert_eq!(s[1].failure, STRONG);
        assert_eq!(s[4].failure, STRONG);
        assert_eq!(s[5].failure, 0);
    }

    #[test]
    fn stack_frames_follow_their_failure() {
        let log = "TypeError: x is undefined\n    at f (a.js:1:2)\n    at g (b.js:3:4)\nnext line\n";
        let s = classify(log);
        assert_eq!(s.iter().map(|x| x.frame).collect::<Vec<_>>(), [false, true, true, false]);
        let rust = "thread 'main' panicked at src/lib.rs:1:1:\n1 of 10 tests failed\nstack backtrace:\n   0: rust_begin_unwind\n             at /rustc/x/panicking.rs:1:1\n";
        let s = classify(rust);
        assert_eq!(s[1].failure, STRONG);
        assert!(s[2].frame && s[3].frame && s[4].frame);
    }

    #[test]
    fn keywords_straddling_scan_windows_are_found() {
        for at in [SCAN_WINDOW - 3, SCAN_WINDOW - 1, SCAN_WINDOW, 3 * SCAN_WINDOW + 2] {
            let mut line = "x".repeat(at);
            line.push_str(" FAILED here ");
            line.push_str(&"y".repeat(1000));
            let text = format!("first\n{line}\nlast\n");
            assert_eq!(failures(&text), [0, STRONG, 0], "keyword at {at}");
        }
        // Many short lines across windows and both threads: each is flagged on its own.
        let text: String =
            (0..60_000).map(|i| if i % 997 == 0 { "ERROR: boom\n".to_owned() } else { format!("ok {i}\n") }).collect();
        let s = failures(&text);
        assert_eq!(s.iter().filter(|&&f| f == STRONG).count(), 61);
        assert!(s.iter().enumerate().all(|(i, &f)| (f == STRONG) == (i % 997 == 0)));
    }

    #[test]
    fn summaries() {
        let s = classify(
            "Tests:       1 failed, 484 passed, 485 total\n= 2 failed, 244 passed in 0.17s =\nFound 279 errors in 9 files (checked 1458 source files)\nplain\n",
        );
        assert_eq!(s.iter().map(|x| x.summary).collect::<Vec<_>>(), [true, true, true, false]);
    }

    #[test]
    fn shapes_ignore_numbers_paths_and_quoted_names() {
        let mut a = String::new();
        let mut b = String::new();
        view(&utf16("pandas/compat/pyarrow.py:76: error: Module has no attribute \"is_null\"  [attr-defined]"), &mut a);
        view(&utf16("pandas/core/x.py:110: error: Module has no attribute \"utf8_length\"  [attr-defined]"), &mut b);
        assert_eq!(shape_hash(&a), shape_hash(&b));
        view(&utf16("pandas/core/x.py:110: error: Call to untyped function \"f\"  [no-untyped-call]"), &mut b);
        assert_ne!(shape_hash(&a), shape_hash(&b));
        assert_eq!(shape_hash("FAILED test_split[amount59-3]"), shape_hash("FAILED test_split[amount7-2]"));
    }
}
