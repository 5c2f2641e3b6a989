//! Failure signal in lines: what a line plan must not lose.
//!
//! Each line is classified from its [view](view): a prefilter keyword scan
//! picks the lines worth a look, the [rules] classify them, stack traces
//! and panic messages are followed from the failure line that opens them,
//! and failure and summary lines get a [shape] hash so lines of one shape
//! count once where the plan ranks lines.

mod prefilter;
mod rules;
mod shape;
mod view;

use std::ops::Range;

use prefilter::{flag_lines, starts_pytest_detail};
use rules::{rules, weak_failure, without_quoted};
pub use shape::shape_hash;
pub use view::view;
use view::{content_start, indented};

/// How strongly a line signals a failure, weakest first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Failure {
    /// No failure signal.
    #[default]
    None,
    /// A failure word in prose (`the request failed`).
    Weak,
    /// A failure verdict or diagnostic (`FAILED`, `error[E0308]:`, a traceback).
    Strong,
}

/// What a line carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineSignal {
    /// Failure signal, if any.
    pub failure: Failure,
    /// A test or build summary line.
    pub summary: bool,
    /// A stack-trace body line following a failure.
    pub frame: bool,
    /// Shape hash for failure and summary lines (0 otherwise); 32 bits keep
    /// a signal per line small on logs of millions of lines.
    pub shape: u32,
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
            Failure::Strong
        } else if !quiet && weak_failure(&unquoted) {
            Failure::Weak
        } else {
            Failure::None
        });
        signal.summary = rules.summary.is_match(buf.as_bytes());
        if signal.failure > Failure::None || signal.summary {
            signal.shape = shape_hash(&buf);
        }
        if strong && rules.python_traceback.is_match(buf.as_bytes()) {
            i = follow_python_traceback(text, lines, i, &mut out, &mut buf);
            continue;
        }
        if strong && rules.rust_panic.is_match(buf.as_bytes()) {
            mark_message(text, lines, i + 1, &mut out, &mut buf);
        }
        if out[i].failure > Failure::None {
            i = follow_frames(text, lines, i, &mut out, &mut buf);
            continue;
        }
        i += 1;
    }
    out
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
        out[j].failure = Failure::Strong;
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
    if !buf.trim().is_empty() && out[j].failure < Failure::Strong {
        out[j].failure = Failure::Strong;
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
    use crate::text::{split_lines, utf16};

    fn classify(text: &str) -> Vec<LineSignal> {
        let t = utf16(text);
        scan(&t, &split_lines(&t))
    }

    fn failures(text: &str) -> Vec<Failure> {
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
            assert_eq!(failures(line), [Failure::Strong], "{line}");
        }
    }

    #[test]
    fn quoted_keywords_and_debug_chatter_are_not_verdicts() {
        assert_eq!(failures("      if (!test.output.includes(\"FAIL\")) {"), [Failure::None]);
        assert_eq!(failures("time=\"x\" level=debug msg=\"fetch failed\" digest=1"), [Failure::None]);
        assert_eq!(failures("[INFO] Exception counts: none"), [Failure::None]);
        assert_eq!(failures("ERROR: process \"/bin/sh -c make\" did not complete"), [Failure::Strong]);
        assert_eq!(failures("#72 0.149 wget: server returned error: HTTP/1.1 502 Bad Gateway"), [Failure::Strong]);
        assert_eq!(failures("it's FAILED, don't retry"), [Failure::Strong]);
    }

    #[test]
    fn weak_words_and_what_is_not_a_failure() {
        assert_eq!(failures("the request failed after retries"), [Failure::Weak]);
        for line in [
            "Compiling error-chain v0.12.4",
            "next:pack: dist/shared/lib/errors/usage-error.js",
            "69 passed, 0 failed",
            "No errors found",
            "errors: 0",
            "-Werror enabled",
            "Process completed with exit code 0.",
        ] {
            assert_eq!(failures(line), [Failure::None], "{line}");
        }
    }

    #[test]
    fn python_tracebacks_are_kept_whole() {
        let log = "ok\nTraceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n    main()\nValueError: bad\nafter\n";
        let s = classify(log);
        let frames: Vec<bool> = s.iter().map(|x| x.frame).collect();
        assert_eq!(frames, [false, false, true, true, false, false]);
        assert_eq!(s[1].failure, Failure::Strong);
        assert_eq!(s[4].failure, Failure::Strong);
        assert_eq!(s[5].failure, Failure::None);
    }

    #[test]
    fn stack_frames_follow_their_failure() {
        let log = "TypeError: x is undefined\n    at f (a.js:1:2)\n    at g (b.js:3:4)\nnext line\n";
        let s = classify(log);
        assert_eq!(s.iter().map(|x| x.frame).collect::<Vec<_>>(), [false, true, true, false]);
        let rust = "thread 'main' panicked at src/lib.rs:1:1:\n1 of 10 tests failed\nstack backtrace:\n   0: rust_begin_unwind\n             at /rustc/x/panicking.rs:1:1\n";
        let s = classify(rust);
        assert_eq!(s[1].failure, Failure::Strong);
        assert!(s[2].frame && s[3].frame && s[4].frame);
    }

    #[test]
    fn keywords_straddling_scan_windows_are_found() {
        const W: usize = prefilter::SCAN_WINDOW;
        for at in [W - 3, W - 1, W, 3 * W + 2] {
            let mut line = "x".repeat(at);
            line.push_str(" FAILED here ");
            line.push_str(&"y".repeat(1000));
            let text = format!("first\n{line}\nlast\n");
            assert_eq!(failures(&text), [Failure::None, Failure::Strong, Failure::None], "keyword at {at}");
        }
        // Many short lines across windows and both threads: each is flagged on its own.
        let text: String =
            (0..60_000).map(|i| if i % 997 == 0 { "ERROR: boom\n".to_owned() } else { format!("ok {i}\n") }).collect();
        let s = failures(&text);
        assert_eq!(s.iter().filter(|&&f| f == Failure::Strong).count(), 61);
        assert!(s.iter().enumerate().all(|(i, &f)| (f == Failure::Strong) == (i % 997 == 0)));
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
