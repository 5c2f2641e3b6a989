//! What each line of a tool output says, for the line plan to rank.
//!
//! A prefilter keyword scan ([`prefilter`]) picks the lines worth reading;
//! each is read through its [view](view) and classified by the [`rules`]:
//! a pass verdict first (a line reporting success is never a failure line),
//! then failure (strong or weak), summary and chatter. From every strong
//! failure line the [`traces`] that follow are read: the block that
//! explains it (its *cause* lines, with the non-blank lines just above it)
//! and its stack frames, each marked as the project's or a library's.
//! Failure and summary lines get a [template](shape) so that lines of one
//! template count once where the plan ranks lines.

mod prefilter;
pub mod rules;
mod shape;
pub mod traces;
mod view;

use std::ops::Range;

use prefilter::{flag_lines, starts_pytest_detail};
use rules::{compiled, weak_failure, without_quoted};
use shape::Templates;
pub use traces::Frame;
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
    /// The line reports a pass (and so is never a failure line).
    pub pass: bool,
    /// A test, build or lint summary, or a closing status.
    pub summary: bool,
    /// A summary that counts failures (`17 failed`, `Found 279 errors`).
    pub failing_summary: bool,
    /// Part of a stack trace, and whose code the frame is.
    pub frame: Frame,
    /// The first line of a frame (a trace's frames start at these).
    pub frame_head: bool,
    /// Explains a strong failure: the block under it, or the lines just above.
    pub cause: bool,
    /// A cause line that states a value the failure compared (`Expected: 3`).
    pub states_value: bool,
    /// Template of a failure or summary line (0 for other lines).
    pub template: u32,
    /// A CI runner's verdict on a step or job (`##[error]…`, `::error`):
    /// what follows it is the runner's cleanup.
    pub job_verdict: bool,
}

/// Lines of the block under a failure line that are read at most.
const CAUSE_BELOW: usize = 16;
/// Non-blank lines just above a failure line that explain it (a command, a test's title).
const CAUSE_ABOVE: usize = 2;
/// Lines of compiler context above a diagnostic read at most.
const CONTEXT_ABOVE: usize = 32;
/// Lines between a failure line and the first frame of its trace.
const TRACE_GAP: usize = 3;

/// Whether `line` holds nothing but white space once a CI timestamp and
/// ANSI escapes are taken off.
pub fn is_blank(line: &[u16]) -> bool {
    line[content_start(line)..].iter().all(|&u| matches!(u, 0x20 | 0x09 | 0x0D | 0x0A))
}

/// Classifies every line of `text`.
pub fn scan(text: &[u16], lines: &[Range<usize>]) -> Vec<LineSignal> {
    let mut out = vec![LineSignal::default(); lines.len()];
    if lines.is_empty() {
        return out;
    }
    let flagged = flag_lines(text, lines);
    let rules = compiled();
    let mut buf = String::new();
    let mut templates = Templates::default();
    let mut strong = Vec::new();
    for i in 0..lines.len() {
        let line = &text[lines[i].clone()];
        let pytest_detail = starts_pytest_detail(&line[content_start(line)..]);
        if !flagged[i] && !pytest_detail {
            continue;
        }
        view(line, &mut buf);
        let bytes = buf.as_bytes();
        let signal = &mut out[i];
        let unquoted = without_quoted(&buf);
        let failure_at = rules.failure.find(unquoted.as_bytes()).map(|m| m.start());
        let pass_at = rules.pass.find(bytes).map(|m| m.start());
        // The verdict that comes first in the line is the line's verdict.
        signal.pass = pass_at.is_some_and(|p| failure_at.is_none_or(|f| p <= f));
        // A line that passes one test is not a count of many (`ok 675 test case`).
        signal.summary = !signal.pass && rules.summary.is_match(bytes);
        let chatter = rules.chatter.is_match(bytes);
        signal.failure = if signal.pass || chatter {
            Failure::None
        } else if pytest_detail || failure_at.is_some() {
            Failure::Strong
        } else if !signal.summary && weak_failure(&unquoted) {
            Failure::Weak
        } else {
            Failure::None
        };
        signal.failing_summary = signal.summary && !signal.pass && weak_failure(&unquoted);
        if signal.failure > Failure::None || signal.summary {
            signal.template = templates.id(&buf);
        }
        if signal.failure == Failure::Strong {
            strong.push(i);
            signal.job_verdict = buf.contains("##[error]") || buf.trim_start().starts_with("::error");
        }
    }
    let mut next = 0;
    for &i in &strong {
        if i < next {
            continue;
        }
        mark_context_above(text, lines, i, &mut out, &mut buf);
        mark_cause_above(text, lines, i, &mut out, &mut buf);
        next = follow(text, lines, i, &mut out, &mut buf, &mut templates);
    }
    out
}

/// Marks the compiler context right above failure line `i` (includes,
/// the function or template instantiation, what required it) as a trace
/// whose frames are one line each: the project's line in it names where
/// the error comes from.
fn mark_context_above(text: &[u16], lines: &[Range<usize>], i: usize, out: &mut [LineSignal], buf: &mut String) {
    let patterns = traces::patterns();
    let mut j = i;
    while j > 0 && i - j < CONTEXT_ABOVE {
        let s = out[j - 1];
        if s.failure > Failure::None || s.summary || s.frame != Frame::None {
            break;
        }
        view(&text[lines[j - 1].clone()], buf);
        if !patterns.context_above.is_match(buf.as_bytes()) {
            break;
        }
        let lower = buf.to_ascii_lowercase();
        out[j - 1].frame = if traces::library_text(&lower) { Frame::Library } else { Frame::Project };
        out[j - 1].frame_head = true;
        j -= 1;
    }
}

/// Marks up to [`CAUSE_ABOVE`] non-blank lines above failure line `i` (one
/// blank line between is allowed) as its cause, stopping at a verdict.
fn mark_cause_above(text: &[u16], lines: &[Range<usize>], i: usize, out: &mut [LineSignal], buf: &mut String) {
    let mut marked = 0;
    let mut blanks = 0;
    let mut j = i;
    while j > 0 && marked < CAUSE_ABOVE {
        j -= 1;
        let s = out[j];
        if s.pass || s.failure > Failure::None || s.summary || s.frame != Frame::None {
            break;
        }
        view(&text[lines[j].clone()], buf);
        // A pass line the prefilter did not flag is a verdict all the same.
        if compiled().pass.is_match(buf.as_bytes()) {
            break;
        }
        if buf.trim().is_empty() {
            blanks += 1;
            if blanks > 1 || marked > 0 {
                break;
            }
            continue;
        }
        out[j].cause = true;
        marked += 1;
    }
}

/// Reads what follows failure line `i`: a Python traceback's frames and
/// message, a panic's message, the block that explains the failure and the
/// stack trace. Returns the first line not consumed.
fn follow(
    text: &[u16],
    lines: &[Range<usize>],
    i: usize,
    out: &mut [LineSignal],
    buf: &mut String,
    templates: &mut Templates,
) -> usize {
    let patterns = traces::patterns();
    view(&text[lines[i].clone()], buf);
    if buf.contains("Traceback (most recent call last)") {
        return follow_python(text, lines, i, out, buf, templates);
    }
    let panic = buf.contains("panicked at");
    let base_indent = indent_of(buf);
    let mut j = i + 1;
    // The explaining block, then (after at most a few lines) the trace.
    let mut gap = 0;
    while j < lines.len() && j < i + 1 + CAUSE_BELOW {
        view(&text[lines[j].clone()], buf);
        let bytes = buf.as_bytes();
        if panic && j == i + 1 && !buf.trim().is_empty() {
            // A panic's message line is the failure's text.
            out[j].cause = true;
            if out[j].failure < Failure::Strong {
                out[j].failure = Failure::Strong;
                out[j].template = templates.id(buf);
            }
            j += 1;
            continue;
        }
        if out[j].pass || out[j].summary {
            break;
        }
        if out[j].failure != Failure::Strong && (patterns.frame.is_match(bytes) || patterns.trace_start.is_match(bytes))
        {
            return follow_trace(text, lines, j, out, buf);
        }
        if out[j].failure == Failure::Strong && !panic {
            break;
        }
        if buf.trim().is_empty() {
            // One blank line inside a block (a diff, YAML) is allowed.
            gap += 1;
            if gap > 1 {
                break;
            }
            j += 1;
            continue;
        }
        let structured = patterns.explains.is_match(bytes) || indent_of(buf) > base_indent;
        if !structured {
            // Not part of the block; a trace may still start just after.
            if j - i > TRACE_GAP {
                break;
            }
        } else {
            out[j].cause = true;
            out[j].states_value = patterns.states_value.is_match(bytes);
        }
        gap = 0;
        j += 1;
    }
    j.max(i + 1)
}

/// Marks lines `start..end` as one frame, `start` its head: the project's
/// unless its text (lowercased) names a library.
fn finish_frame(frame: Option<(usize, String)>, end: usize, out: &mut [LineSignal]) {
    if let Some((start, text)) = frame {
        let kind = if traces::library_text(&text) { Frame::Library } else { Frame::Project };
        for s in &mut out[start..end] {
            s.frame = kind;
        }
        out[start].frame_head = true;
    }
}

/// Marks the trace starting at line `j` (frames, their details, a
/// `stack backtrace:` or `goroutine` header); returns the line after it.
fn follow_trace(text: &[u16], lines: &[Range<usize>], mut j: usize, out: &mut [LineSignal], buf: &mut String) -> usize {
    let patterns = traces::patterns();
    // The frame the next detail lines belong to: (first line, lowercased text so far).
    let mut current: Option<(usize, String)> = None;
    while j < lines.len() {
        view(&text[lines[j].clone()], buf);
        let bytes = buf.as_bytes();
        // A blank line ends a trace; so does a failure line (a diagnostic
        // that looks like a frame is a diagnostic).
        if buf.trim().is_empty() || out[j].failure == Failure::Strong {
            break;
        }
        if patterns.trace_start.is_match(bytes) {
            finish_frame(current.take(), j, out);
            out[j].frame = Frame::Library;
            out[j].frame_head = true;
            j += 1;
            continue;
        }
        let in_frame = current.is_some();
        let detail = in_frame && patterns.frame_detail.is_match(bytes) && !patterns.frame.is_match(bytes);
        // A Rust frame's `at path` line is a detail, though it looks like a frame.
        let rust_at = in_frame && buf.trim_start().starts_with("at ") && out[j - 1].frame_head && {
            let prev = &text[lines[j - 1].clone()];
            let mut p = String::new();
            view(prev, &mut p);
            p.trim_start().split(':').next().is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()))
        };
        if detail || rust_at {
            if let Some((_, t)) = current.as_mut() {
                t.push_str(&buf.to_ascii_lowercase());
            }
            j += 1;
            continue;
        }
        if patterns.frame.is_match(bytes) {
            finish_frame(current.take(), j, out);
            current = Some((j, buf.to_ascii_lowercase()));
            j += 1;
            continue;
        }
        break;
    }
    finish_frame(current, j, out);
    j
}

/// Marks a Python traceback whose header is line `header`: its frames (each
/// `File "…"` line and the source under it) and, as a strong failure, the
/// exception line that ends it. Returns the line after the traceback.
fn follow_python(
    text: &[u16],
    lines: &[Range<usize>],
    header: usize,
    out: &mut [LineSignal],
    buf: &mut String,
    templates: &mut Templates,
) -> usize {
    let mut j = header + 1;
    let mut frame: Option<(usize, String)> = None;
    while j < lines.len() {
        view(&text[lines[j].clone()], buf);
        if buf.trim().is_empty() {
            break;
        }
        if indented(buf) {
            if buf.trim_start().starts_with("File \"") {
                finish_frame(frame.take(), j, out);
                frame = Some((j, buf.to_ascii_lowercase()));
            } else if frame.is_none() {
                frame = Some((j, buf.to_ascii_lowercase()));
            }
            j += 1;
            continue;
        }
        finish_frame(frame.take(), j, out);
        // The first unindented line: the exception message.
        out[j].failure = Failure::Strong;
        out[j].pass = false;
        out[j].template = templates.id(buf);
        return j + 1;
    }
    finish_frame(frame, j, out);
    j
}

/// Leading whitespace of a view, tabs counting four.
fn indent_of(view: &str) -> usize {
    view.chars().take_while(|c| c.is_whitespace()).map(|c| if c == '\t' { 4 } else { 1 }).sum()
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
        view(&utf16("^[[31m[FAIL]^[[0m test_x ^ caret kept"), &mut out);
        assert_eq!(out, "[FAIL] test_x ^ caret kept");
        view(&[0x61, 0xD800, 0x62], &mut out);
        assert_eq!(out, "a\u{FFFD}b");
        // A tree's drawing is indentation; inside the text it stays.
        view(&utf16("\u{2502}  \u{251C}\u{2500} \u{1b}[31m\tat com.acme.Money.parse(Money.java:11)"), &mut out);
        assert_eq!(out, "      \tat com.acme.Money.parse(Money.java:11)");
        view(&utf16("a \u{2502} b"), &mut out);
        assert_eq!(out, "a \u{2502} b");
    }

    #[test]
    fn every_rule_example_passes_the_prefilter_and_its_rule() {
        let rules = compiled();
        for rule in rules::RULES {
            let pattern = rules::ascii_regex(rule.pattern);
            for example in rule.examples {
                let mut v = String::new();
                view(&utf16(example), &mut v);
                assert!(pattern.is_match(v.as_bytes()), "{example:?} is not matched by its own rule");
                let s = classify(example)[0];
                match rule.says {
                    rules::Says::Failure => {
                        assert_eq!(s.failure, Failure::Strong, "{example:?} is not a strong failure line")
                    }
                    rules::Says::Pass => assert!(s.pass || s.failure == Failure::None, "{example:?}"),
                    rules::Says::Summary => assert!(s.summary, "{example:?} is not a summary"),
                    rules::Says::Chatter => {
                        assert!(rules.chatter.is_match(v.as_bytes()));
                        assert_eq!(s.failure, Failure::None, "{example:?}")
                    }
                }
                if !rule.anchors.is_empty() {
                    // As the prefilter reads it: lowercase, every digit a `0`.
                    let narrowed = v.to_ascii_lowercase().replace(|c: char| c.is_ascii_digit(), "0");
                    assert!(
                        rules::anchors().iter().any(|a| narrowed.contains(a)),
                        "{example:?} holds none of the prefilter's keywords"
                    );
                }
            }
        }
    }

    #[test]
    fn the_docs_show_each_rule_an_example_it_matches() {
        let doc = include_str!("../../docs/lines-mode.md");
        let spans: Vec<&str> = doc.split('`').skip(1).step_by(2).collect();
        for rule in rules::RULES {
            let pattern = rules::ascii_regex(rule.pattern);
            assert!(
                spans.iter().any(|s| pattern.is_match(s.as_bytes())),
                "docs/lines-mode.md shows no example of {:?}",
                rule.pattern
            );
        }
    }

    #[test]
    fn a_count_is_a_whole_number() {
        // A build step's elapsed seconds are not a count of warnings.
        assert!(!classify("#48 99.25 warning: GOCOVERDIR not set, no coverage data emitted")[0].summary);
        assert!(!classify("12:30 errors in the morning")[0].summary);
        assert!(classify("[3 warnings] build done")[0].summary);
        assert!(!classify("ok 675 test case: []=a&[]=b, repeat")[0].summary);
    }

    #[test]
    fn a_pass_verdict_is_never_a_failure() {
        for line in [
            "  \u{2714} should fail when the token is missing",
            "test parser::errors::unclosed_brace ... ok",
            "# Subtest: rejects bad input then reports error",
            "test_raises_error PASSED    [ 12%]",
            "ok 7 - fails loudly on NaN instead of printing NaN B",
            "--- PASS: TestFailover (0.01s)",
        ] {
            let s = classify(line)[0];
            assert!(s.pass, "{line}");
            assert_eq!(s.failure, Failure::None, "{line}");
        }
        assert_eq!(failures("FAILED tests/x.py::test_passes - AssertionError"), [Failure::Strong]);
        assert_eq!(failures("not ok 3 - passes the token through"), [Failure::Strong]);
    }

    #[test]
    fn quoted_keywords_and_debug_chatter_are_not_verdicts() {
        assert_eq!(failures("      if (!test.output.includes(\"FAIL\")) {"), [Failure::None]);
        assert_eq!(failures("time=\"x\" level=debug msg=\"fetch failed\" digest=1"), [Failure::None]);
        assert_eq!(failures("[INFO] Exception counts: none"), [Failure::None]);
        assert_eq!(failures("ERROR: process \"/bin/sh -c make\" did not complete"), [Failure::Strong]);
        assert_eq!(failures("it's FAILED, don't retry"), [Failure::Strong]);
    }

    #[test]
    fn weak_words_and_what_is_not_a_failure() {
        assert_eq!(failures("the request failed after retries"), [Failure::Weak]);
        for line in [
            "Compiling error-chain v0.12.4",
            "next:pack: dist/shared/lib/errors/usage-error.js",
            "No errors found",
            "errors: 0",
            "-Werror enabled",
            "Process completed with exit code 0.",
        ] {
            assert_eq!(failures(line), [Failure::None], "{line}");
        }
        // A summary with failures is a summary, not a weak failure line.
        let s = classify("69 passed, 2 failed")[0];
        assert!(s.summary && s.failure == Failure::None);
    }

    #[test]
    fn python_tracebacks_are_kept_whole_with_project_frames_marked() {
        let log = "ok\nTraceback (most recent call last):\n  File \"/app/a.py\", line 1, in <module>\n    main()\n  File \"/usr/lib/python3.11/json/__init__.py\", line 3, in loads\n    return x\nValueError: bad\nafter\n";
        let s = classify(log);
        let frames: Vec<Frame> = s.iter().map(|x| x.frame).collect();
        assert_eq!(
            frames,
            [
                Frame::None,
                Frame::None,
                Frame::Project,
                Frame::Project,
                Frame::Library,
                Frame::Library,
                Frame::None,
                Frame::None
            ]
        );
        assert!(s[2].frame_head && !s[3].frame_head && s[4].frame_head);
        assert_eq!(s[1].failure, Failure::Strong);
        assert_eq!(s[6].failure, Failure::Strong);
        assert_eq!(s[7].failure, Failure::None);
    }

    #[test]
    fn traces_after_a_failure_and_their_project_frames() {
        let log = "TypeError: x is undefined\n    at f (/app/src/a.js:1:2)\n    at g (/app/node_modules/lib/b.js:3:4)\nnext line\n";
        let s = classify(log);
        assert_eq!(
            s.iter().map(|x| x.frame).collect::<Vec<_>>(),
            [Frame::None, Frame::Project, Frame::Library, Frame::None]
        );
        let rust = "thread 'main' panicked at src/lib.rs:1:1:\n1 of 10 tests failed\nstack backtrace:\n   0: rust_begin_unwind\n             at /rustc/x/panicking.rs:1:1\n   1: app::parse\n             at ./src/parse.rs:7:9\n";
        let s = classify(rust);
        assert_eq!(s[1].failure, Failure::Strong);
        assert_eq!(s[3].frame, Frame::Library);
        assert_eq!(s[4].frame, Frame::Library);
        assert!(s[5].frame_head && s[5].frame == Frame::Project && s[6].frame == Frame::Project);
    }

    #[test]
    fn the_block_under_a_failure_and_the_lines_above_are_its_cause() {
        let tap = "ok 1 - parses\n# limits array indices\nnot ok 2 - should be deeply equivalent\n  ---\n    expected: 1\n    actual: 2\n  ...\nok 3 - next\n";
        let s = classify(tap);
        assert_eq!(s.iter().map(|x| x.cause).collect::<Vec<_>>(), [false, true, false, true, true, true, true, false]);
        let mocha =
            "  1) parseAdminQuery\n       parses two sorts:\n     TypeError: parsed.sort.split is not a function\n";
        let s = classify(mocha);
        assert!(s[0].cause && s[1].cause && s[2].failure == Failure::Strong);
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
            "Tests:       1 failed, 484 passed, 485 total\n= 2 failed, 244 passed in 0.17s =\nFound 279 errors in 9 files (checked 1458 source files)\nplain\nTime:  2.514 s\n",
        );
        assert_eq!(s.iter().map(|x| x.summary).collect::<Vec<_>>(), [true, true, true, false, true]);
    }

    #[test]
    fn floods_share_a_template() {
        let log: String = (0..50)
            .map(|i| format!("src/m{i}.py:{i}: error: Function is missing a type annotation  [no-untyped-def]\n"))
            .collect();
        let s = classify(&format!("{log}src/z.py:9: error: Module has no attribute \"x\"  [attr-defined]\n"));
        assert!(s[..50].iter().all(|x| x.template == s[0].template && x.template != 0));
        assert_ne!(s[50].template, s[0].template);
    }
}
