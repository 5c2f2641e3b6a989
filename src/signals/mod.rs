//! What each line of a tool output says, for the line plan to rank.
//!
//! A keyword scan ([`prefilter`]) picks the lines worth reading; each is
//! read through its [view](view) and given a verdict by the [`rules`]
//! ([`classify`]): a pass first (a line reporting success is never a
//! failure line), then failure (strong or weak), summary and chatter. From
//! every strong failure line the [`traces`] that follow are read: the block
//! that explains it (its *cause* lines, with the non-blank lines just above
//! it) and its stack frames, each marked as the project's or a library's.
//! Failure and summary lines get a [template](templates) so that lines of
//! one template count once where the plan ranks lines.
//!
//! The result is sparse: only lines that carry a signal have a record, so
//! a text of millions of plain lines costs what its few signal lines cost,
//! and every step after the keyword scan visits signal lines only.

pub mod classify;
mod prefilter;
pub mod rules;
pub mod templates;
pub mod traces;
mod view;

use std::ops::Range;

use crate::text::TextLines;
use classify::{Classifier, Verdict};
use templates::Templates;
pub use traces::{Frame, Traces};
use view::content_start;
pub use view::view;

/// How strongly a line signals a failure, weakest first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Failure {
    /// No failure signal.
    #[default]
    None,
    /// A failure word in prose (`the request failed`).
    Weak,
    /// A failure verdict or diagnostic (`FAILED`, `error[E0308]:`, a traceback).
    Strong,
}

/// What a line carries, in eight bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineSignal {
    /// Failure signal, if any.
    pub failure: Failure,
    /// Part of a stack trace, and whose code the frame is.
    pub frame: Frame,
    flags: u16,
    /// Template of a failure or summary line (0 for other lines).
    pub template: u32,
}

const PASS: u16 = 1;
const SUMMARY: u16 = 2;
const FAILING_SUMMARY: u16 = 4;
const FRAME_HEAD: u16 = 8;
const CAUSE: u16 = 16;
const STATES_VALUE: u16 = 32;
const JOB_VERDICT: u16 = 64;
const TRACEBACK: u16 = 128;
const PANIC: u16 = 256;

macro_rules! flag {
    ($get:ident, $set:ident, $bit:ident, $doc:literal) => {
        #[doc = $doc]
        #[inline]
        pub fn $get(&self) -> bool {
            self.flags & $bit != 0
        }
        #[doc = concat!("Sets [`Self::", stringify!($get), "`].")]
        #[inline]
        pub fn $set(&mut self, on: bool) {
            if on { self.flags |= $bit } else { self.flags &= !$bit }
        }
    };
}

impl LineSignal {
    flag!(pass, set_pass, PASS, "The line reports a pass (and so is never a failure line).");
    flag!(summary, set_summary, SUMMARY, "A test, build or lint summary, or a closing status.");
    flag!(failing_summary, set_failing_summary, FAILING_SUMMARY, "A summary that counts failures (`17 failed`).");
    flag!(frame_head, set_frame_head, FRAME_HEAD, "The first line of a frame (a trace's frames start at these).");
    flag!(cause, set_cause, CAUSE, "Explains a strong failure: the block under it, or the lines just above.");
    flag!(
        states_value,
        set_states_value,
        STATES_VALUE,
        "A cause line that states a value the failure compared (`Expected: 3`)."
    );
    flag!(
        job_verdict,
        set_job_verdict,
        JOB_VERDICT,
        "A CI runner's verdict on a step or job (`##[error]`); what follows is cleanup."
    );
    flag!(traceback, set_traceback, TRACEBACK, "A strong failure that opens a Python traceback.");
    flag!(panic, set_panic, PANIC, "A strong failure that reports a Rust panic (its message is the next line).");

    /// Whether the line carries anything at all.
    pub fn is_signal(&self) -> bool {
        *self != LineSignal::default()
    }
}

/// Work the scan did, counted (for the tests that hold it linear).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScanCost {
    /// Lines the keyword scan flagged.
    pub flagged: usize,
    /// Rule passes over line views (DFA searches and regex matches).
    pub evaluations: usize,
    /// Template comparisons.
    pub comparisons: usize,
    /// Lines read while following traces and causes.
    pub followed: usize,
}

/// The signals of a result's lines: a record for each line that carries
/// one, by ascending line index (in the index space the caller gave).
#[derive(Clone, Debug, Default)]
pub struct Signals {
    lines: Vec<u32>,
    signals: Vec<LineSignal>,
    /// What the scans cost.
    pub cost: ScanCost,
    /// The last template id given out.
    last_template: u32,
}

impl Signals {
    /// The signal of line `k` (the default for a line without one).
    pub fn get(&self, k: usize) -> LineSignal {
        match u32::try_from(k).map(|k| self.lines.binary_search(&k)) {
            Ok(Ok(i)) => self.signals[i],
            _ => LineSignal::default(),
        }
    }

    /// Template ids run from 1 to this (0 is no template).
    pub fn templates(&self) -> u32 {
        self.last_template
    }

    /// Number of lines with a signal.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether no line has a signal.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Position of the first record at or after line `k`.
    pub fn position(&self, k: usize) -> usize {
        self.lines.partition_point(|&l| (l as usize) < k)
    }

    /// The records of lines in `range`, ascending: (line, signal).
    pub fn within(&self, range: Range<usize>) -> impl DoubleEndedIterator<Item = (usize, LineSignal)> + '_ {
        let (a, b) = (self.position(range.start), self.position(range.end));
        self.lines[a..b].iter().zip(&self.signals[a..b]).map(|(&l, &s)| (l as usize, s))
    }

    /// Every record, ascending: (line, signal).
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (usize, LineSignal)> + '_ {
        self.within(0..usize::MAX)
    }

    /// Reads the lines of one text into these signals; its line `k` is
    /// line `base + k` here, after every line already read.
    pub fn scan(&mut self, lines: TextLines<'_>, base: usize) {
        if lines.is_empty() {
            return;
        }
        let windows = prefilter::windows(lines);
        let mut reading = Reading::new(self, base);
        Classifier::with(|c| {
            let mut templates = Templates::new(lines.text.len(), reading.signals.last_template);
            // Each window's verdicts, taken in line order: templates, records.
            let mut take = |chunk: Chunk, templates: &mut Templates| {
                reading.cost.flagged += chunk.verdicts.len();
                for (k, verdict, words) in chunk.iter() {
                    let mut s = LineSignal { failure: verdict.failure, ..LineSignal::default() };
                    s.set_pass(verdict.pass);
                    s.set_summary(verdict.summary);
                    s.set_failing_summary(verdict.failing_summary);
                    s.set_job_verdict(verdict.job_verdict);
                    s.set_traceback(verdict.opens.traceback);
                    s.set_panic(verdict.opens.panic);
                    if verdict.templated() {
                        s.template = templates.id_of_words(words);
                    }
                    if s.is_signal() {
                        reading.push(k, s);
                    }
                }
            };
            // One pass over the windows, the keyword scan and the verdicts of
            // each; on two threads for a large text, taken in order here.
            let read = |c: &mut Classifier, w: usize| Chunk::read(c, lines, windows[w].clone());
            if lines.text.len() < PARALLEL_FROM {
                for w in 0..windows.len() {
                    let chunk = read(c, w);
                    take(chunk, &mut templates);
                }
            } else {
                let evaluations = std::sync::atomic::AtomicUsize::new(0);
                crate::parallel::ordered(
                    windows.len(),
                    CHUNK_DEPTH,
                    c,
                    Classifier::spare,
                    |c, w| {
                        let before = c.evaluations;
                        let chunk = read(c, w);
                        evaluations.fetch_add(c.evaluations - before, std::sync::atomic::Ordering::Relaxed);
                        chunk
                    },
                    |_, chunk| take(chunk, &mut templates),
                );
                c.evaluations = evaluations.into_inner();
            }
            // The strong failures the keyword scan found, in order: what
            // follows each (the trace reading adds only lines of its own, or
            // changes these records in place).
            let records = reading.first..reading.signals.lines.len();
            let mut follower = traces::Follower::new(lines, &mut reading, c, &mut templates);
            let mut next = 0;
            for r in records {
                let (line, s) = follower.record_at(r);
                let i = line - base;
                if s.failure != Failure::Strong || i < next {
                    continue;
                }
                next = follower.follow(i, s);
            }
            reading.cost.evaluations += c.evaluations;
            reading.cost.comparisons += templates.comparisons;
            reading.signals.last_template = templates.last_id();
        });
        reading.finish();
    }

    /// The signals of one text on its own (line `k` is the text's line `k`).
    pub fn of_text(lines: TextLines<'_>) -> Signals {
        let mut out = Signals::default();
        out.scan(lines, 0);
        out
    }
}

/// Texts at least this long (code units) are read on two threads.
const PARALLEL_FROM: usize = 1 << 18;
/// Windows read ahead of the one being taken, at most.
const CHUNK_DEPTH: usize = 4;

/// The verdicts of the flagged lines of a window, and the words of the
/// templated ones, ready to be taken in order.
struct Chunk {
    verdicts: Vec<(u32, Verdict, u32, u8)>,
    words: Vec<templates::Word>,
}

impl Chunk {
    /// Reads window `window` of `lines` with `c`: the keyword scan, then the
    /// verdict of each flagged line.
    fn read(c: &mut Classifier, lines: TextLines<'_>, window: Range<usize>) -> Chunk {
        let mut flagged = std::mem::take(&mut c.flagged);
        flagged.clear();
        prefilter::flag_window(lines, window, &mut c.buffers, &mut flagged);
        let mut chunk = Chunk { verdicts: Vec::with_capacity(flagged.len()), words: Vec::new() };
        let mut words = [0; templates::MAX_WORDS];
        for f in &flagged {
            let verdict = c.classify(lines.line(f.line as usize), f.gate);
            let len = if verdict.templated() { templates::words_of(&c.view, &mut words) } else { 0 };
            chunk.verdicts.push((f.line, verdict, chunk.words.len() as u32, len as u8));
            chunk.words.extend_from_slice(&words[..len]);
        }
        c.flagged = flagged;
        chunk
    }

    /// (line, verdict, words) in line order.
    fn iter(&self) -> impl Iterator<Item = (usize, Verdict, &[templates::Word])> + '_ {
        self.verdicts
            .iter()
            .map(|&(k, v, at, len)| (k as usize, v, &self.words[at as usize..at as usize + len as usize]))
    }
}

/// The signals of one text while it is read: the keyword scan's records,
/// in order, and the lines the trace reading marks beside them.
pub(crate) struct Reading<'s> {
    signals: &'s mut Signals,
    /// Where this text's records begin in `signals`.
    first: usize,
    base: usize,
    /// Lines only the trace reading marked (text-local, ascending).
    marks: Vec<(u32, LineSignal)>,
    cost: ScanCost,
    /// Where the last record lookup landed.
    hint: std::cell::Cell<usize>,
}

impl<'s> Reading<'s> {
    fn new(signals: &'s mut Signals, base: usize) -> Self {
        let first = signals.lines.len();
        Reading { signals, first, base, marks: Vec::new(), cost: ScanCost::default(), hint: std::cell::Cell::new(0) }
    }

    fn push(&mut self, k: usize, s: LineSignal) {
        self.signals.lines.push((self.base + k) as u32);
        self.signals.signals.push(s);
    }

    /// This text's record of line `k`, if the keyword scan made one. The
    /// trace reading asks about lines near the last one it asked about, so
    /// the records around the last answer are tried before a search.
    fn record(&self, k: usize) -> Option<usize> {
        let global = (self.base + k) as u32;
        let lines = &self.signals.lines[self.first..];
        let hint = self.hint.get();
        // The record asked about last, and its neighbours, first.
        for at in [hint, hint + 1, hint.wrapping_sub(1), hint + 2] {
            if lines.get(at) == Some(&global) {
                self.hint.set(at);
                return Some(self.first + at);
            }
        }
        match lines.binary_search(&global) {
            Ok(at) => {
                self.hint.set(at);
                Some(self.first + at)
            }
            Err(at) => {
                self.hint.set(at);
                None
            }
        }
    }

    /// The signal of text line `k` so far.
    pub(crate) fn get(&self, k: usize) -> LineSignal {
        if let Some(i) = self.record(k) {
            return self.signals.signals[i];
        }
        match self.marks.binary_search_by_key(&(k as u32), |m| m.0) {
            Ok(i) => self.marks[i].1,
            Err(_) => LineSignal::default(),
        }
    }

    /// Changes the signal of text line `k`.
    pub(crate) fn update(&mut self, k: usize, f: impl FnOnce(&mut LineSignal)) {
        if let Some(i) = self.record(k) {
            return f(&mut self.signals.signals[i]);
        }
        match self.marks.binary_search_by_key(&(k as u32), |m| m.0) {
            Ok(i) => f(&mut self.marks[i].1),
            Err(i) => {
                // Marks come in order but for the few lines above a failure.
                let mut s = LineSignal::default();
                f(&mut s);
                self.marks.insert(i, (k as u32, s));
            }
        }
    }

    /// Counts a line read while following.
    pub(crate) fn followed(&mut self) {
        self.cost.followed += 1;
    }

    /// Merges the marks into the records, in order.
    fn finish(self) {
        let Reading { signals, first, base, marks, cost, .. } = self;
        signals.cost.flagged += cost.flagged;
        signals.cost.evaluations += cost.evaluations;
        signals.cost.comparisons += cost.comparisons;
        signals.cost.followed += cost.followed;
        let marks: Vec<(u32, LineSignal)> =
            marks.into_iter().filter(|(_, s)| s.is_signal()).map(|(k, s)| ((base + k as usize) as u32, s)).collect();
        if marks.is_empty() {
            return;
        }
        let lines = signals.lines.split_off(first);
        let sigs = signals.signals.split_off(first);
        let (mut a, mut b) = (lines.into_iter().zip(sigs).peekable(), marks.into_iter().peekable());
        loop {
            let take_a = match (a.peek(), b.peek()) {
                (Some(x), Some(y)) => x.0 < y.0,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            let (l, s) = if take_a { a.next() } else { b.next() }.expect("peeked");
            signals.lines.push(l);
            signals.signals.push(s);
        }
    }
}

/// Whether `line` holds nothing but white space once a CI timestamp and
/// ANSI escapes are taken off.
pub fn is_blank(line: &[u16]) -> bool {
    line[content_start(line)..].iter().all(|&u| matches!(u, 0x20 | 0x09 | 0x0D | 0x0A))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::utf16;

    fn starts(t: &[u16]) -> Vec<u32> {
        crate::text::split_lines(t).iter().map(|r| r.start as u32).collect()
    }

    fn classify(text: &str) -> Vec<LineSignal> {
        let t = utf16(text);
        let s = starts(&t);
        let signals = Signals::of_text(TextLines { text: &t, starts: &s });
        (0..s.len()).map(|k| signals.get(k)).collect()
    }

    fn failures(text: &str) -> Vec<Failure> {
        classify(text).iter().map(|s| s.failure).collect()
    }

    #[test]
    fn signals_are_eight_bytes() {
        assert_eq!(std::mem::size_of::<LineSignal>(), 8);
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
        view(&utf16("plain ascii line\n"), &mut out);
        assert_eq!(out, "plain ascii line");
    }

    #[test]
    fn every_rule_example_passes_the_prefilter_and_its_rule() {
        let triggers = rules::anchors();
        for rule in rules::RULES {
            let pattern = rules::ascii_regex(rule.pattern);
            assert!(!rule.anchors.is_empty(), "{:?} has no anchors", rule.pattern);
            for example in rule.examples {
                let mut v = String::new();
                view(&utf16(example), &mut v);
                assert!(pattern.is_match(v.as_bytes()), "{example:?} is not matched by its own rule");
                let s = classify(example)[0];
                match rule.says {
                    rules::Says::Failure => {
                        assert_eq!(s.failure, Failure::Strong, "{example:?} is not a strong failure line")
                    }
                    rules::Says::Pass => assert!(s.pass() || s.failure == Failure::None, "{example:?}"),
                    rules::Says::Summary => assert!(s.summary(), "{example:?} is not a summary"),
                    rules::Says::Chatter => {
                        assert!(rules::ascii_regex(&classify::union(rules::Says::Chatter)).is_match(v.as_bytes()));
                        assert_eq!(s.failure, Failure::None, "{example:?}")
                    }
                }
                // As the prefilter reads it: every digit a `0`, glyphs as their bytes.
                let narrowed = rules::narrowed_anchor(example);
                let holds = |a: &str| {
                    let a = rules::narrowed_anchor(a);
                    narrowed.windows(a.len()).any(|w| w == a.as_slice())
                };
                assert!(rule.anchors.iter().any(|a| holds(a)), "{example:?} holds none of its rule's anchors");
                if matches!(rule.says, rules::Says::Failure | rules::Says::Summary) && example.is_ascii() {
                    assert!(triggers.iter().any(|a| holds(a)), "{example:?} holds none of the prefilter's keywords");
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
        assert!(!classify("#48 99.25 warning: GOCOVERDIR not set, no coverage data emitted")[0].summary());
        assert!(!classify("12:30 errors in the morning")[0].summary());
        assert!(classify("[3 warnings] build done")[0].summary());
        assert!(!classify("ok 675 test case: []=a&[]=b, repeat")[0].summary());
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
            assert!(s.pass(), "{line}");
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
        assert!(s.summary() && s.failure == Failure::None);
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
        assert!(s[2].frame_head() && !s[3].frame_head() && s[4].frame_head());
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
        assert!(s[5].frame_head() && s[5].frame == Frame::Project && s[6].frame == Frame::Project);
    }

    #[test]
    fn the_block_under_a_failure_and_the_lines_above_are_its_cause() {
        let tap = "ok 1 - parses\n# limits array indices\nnot ok 2 - should be deeply equivalent\n  ---\n    expected: 1\n    actual: 2\n  ...\nok 3 - next\n";
        let s = classify(tap);
        assert_eq!(
            s.iter().map(|x| x.cause()).collect::<Vec<_>>(),
            [false, true, false, true, true, true, true, false]
        );
        let mocha =
            "  1) parseAdminQuery\n       parses two sorts:\n     TypeError: parsed.sort.split is not a function\n";
        let s = classify(mocha);
        assert!(s[0].cause() && s[1].cause() && s[2].failure == Failure::Strong);
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
        assert_eq!(s.iter().map(|x| x.summary()).collect::<Vec<_>>(), [true, true, true, false, true]);
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

    #[test]
    fn glyphs_flag_a_line_only_where_its_text_starts() {
        // A status line with a dingbat inside is not read by the rules at all.
        let t = utf16("[3] \u{2705} batch 3 done \u{1F600} records 128\n  \u{25CF} suite \u{203A} fails\n");
        let s = starts(&t);
        let signals = Signals::of_text(TextLines { text: &t, starts: &s });
        assert_eq!(signals.cost.flagged, 1);
        assert_eq!(signals.get(1).failure, Failure::Strong);
    }
}
