//! Following what explains a failure: its block, its trace, the lines above.
//!
//! After a failure line come the lines that explain it: the structured block
//! under it (an assertion's expected and actual values, a diff, TAP's YAML
//! block, a code frame, pytest's `E` lines) and, often, a stack trace of
//! [frames](super::frames).
//!
//! [`Follower`] reads them during the scan, each line at most once from
//! below (a failure inside a trace or block already read starts nothing),
//! plus a bounded look above each failure. The scan gives its result to the
//! planner as [`Traces`]: the runs of frame lines and their heads, so a
//! failure's trace and the frames that matter in it are found by binary
//! search, whatever the trace's length.

use super::classify::Classifier;
use super::frames::{Frame, indent_of, library_text, line_indent, patterns, starts_with_pass_glyph};
use super::templates::Templates;
use super::view::{indented, view};
use super::{Failure, LineSignal, Reading};
use crate::text::TextLines;

/// Lines of the block under a failure line that are read at most.
pub const CAUSE_BELOW: usize = 16;
/// Non-blank lines just above a failure line that explain it (a command, a test's title).
const CAUSE_ABOVE: usize = 2;
/// Lines above a TAP failure searched for its test's `# name`.
const TAP_TITLE_REACH: usize = 32;
/// Lines of compiler context above a diagnostic read at most.
const CONTEXT_ABOVE: usize = 32;
/// Lines between a failure line and the first frame of its trace.
const TRACE_GAP: usize = 3;
/// Lines of one frame the planner keeps at most (its head and details).
pub const FRAME_LINES: usize = 8;

/// Reads what follows (and just precedes) each strong failure line of a
/// text during the scan.
pub(crate) struct Follower<'r, 's, 't> {
    lines: TextLines<'t>,
    reading: &'r mut Reading<'s>,
    classifier: &'r mut Classifier,
    templates: &'r mut Templates,
    buf: String,
}

impl<'r, 's, 't> Follower<'r, 's, 't> {
    pub(crate) fn new(
        lines: TextLines<'t>,
        reading: &'r mut Reading<'s>,
        classifier: &'r mut Classifier,
        templates: &'r mut Templates,
    ) -> Self {
        Follower { lines, reading, classifier, templates, buf: String::new() }
    }

    /// Builds the view of line `j` into `self.buf`.
    fn read(&mut self, j: usize) {
        self.reading.followed();
        view(self.lines.line(j), &mut self.buf);
    }

    fn get(&self, j: usize) -> LineSignal {
        self.reading.get(j)
    }

    /// Whether line `j` is a pass verdict: its record says so, or (not
    /// flagged) it starts with a pass glyph.
    fn passes(&self, j: usize) -> bool {
        let s = self.get(j);
        s.pass() || (!s.is_signal() && starts_with_pass_glyph(self.lines.line(j)))
    }

    /// Reads around strong failure line `i`: the compiler context and the
    /// cause lines above it, then what follows. Returns the first line not
    /// consumed.
    pub(crate) fn follow(&mut self, i: usize, signal: LineSignal) -> usize {
        self.mark_context_above(i);
        self.mark_cause_above(i);
        self.mark_raising_line(i);
        self.follow_below(i, signal)
    }

    /// The keyword scan's record at position `r` of the records: (line, signal).
    pub(crate) fn record_at(&self, r: usize) -> (usize, LineSignal) {
        self.reading.record_at(r)
    }

    /// Marks the compiler context right above failure line `i` (includes,
    /// the function or template instantiation, what required it) as a trace
    /// whose frames are one line each: the project's line in it names where
    /// the error comes from.
    fn mark_context_above(&mut self, i: usize) {
        let patterns = patterns();
        let mut j = i;
        while j > 0 && i - j < CONTEXT_ABOVE {
            let s = self.get(j - 1);
            if s.failure > Failure::None || s.summary() || s.frame != Frame::None {
                break;
            }
            self.read(j - 1);
            if !patterns.context_above.is_match(self.buf.as_bytes()) {
                break;
            }
            let kind = if library_text(&self.buf) { Frame::Library } else { Frame::Project };
            self.reading.update(j - 1, |s| {
                s.frame = kind;
                s.set_frame_head(true);
            });
            j -= 1;
        }
    }

    /// Marks up to [`CAUSE_ABOVE`] non-blank lines above failure line `i` (one
    /// blank line between is allowed) as its cause, stopping at a verdict.
    fn mark_cause_above(&mut self, i: usize) {
        if super::text_starts_with(self.lines.line(i), "not ok") {
            self.mark_tap_title(i);
        }
        let mut marked = 0;
        let mut blanks = 0;
        let mut j = i;
        while j > 0 && marked < CAUSE_ABOVE {
            j -= 1;
            let s = self.get(j);
            if s.pass() || s.failure > Failure::None || s.summary() || s.frame != Frame::None {
                break;
            }
            self.read(j);
            // A pass line the prefilter did not flag is a verdict all the same.
            if self.classifier.passes(&self.buf) {
                break;
            }
            if self.buf.trim().is_empty() {
                blanks += 1;
                if blanks > 1 || marked > 0 {
                    break;
                }
                continue;
            }
            self.reading.update(j, |s| s.set_cause(true));
            marked += 1;
        }
        // Python's location of a syntax error (`  File "m.py", line 228`)
        // above the source line and caret it quotes: where it failed.
        if marked == CAUSE_ABOVE && j > 0 && !self.get(j - 1).is_signal() {
            self.read(j - 1);
            if is_python_location(&self.buf) {
                self.reading.update(j - 1, |s| s.set_cause(true));
            }
        }
    }

    /// Marks the lines from pytest's `>` line (the source line that raised)
    /// down to its `E` failure line `i` as `i`'s cause: the source pytest
    /// prints around the `>` stands between them, so the two lines right
    /// above `i` are context, not the line that failed. Looks at most
    /// [`CAUSE_BELOW`] lines up, stopping at a verdict, a frame or a blank line.
    fn mark_raising_line(&mut self, i: usize) {
        if !super::prefilter::pytest_detail_line(self.lines.line(i)) {
            return;
        }
        for j in (i.saturating_sub(CAUSE_BELOW)..i).rev() {
            let s = self.get(j);
            if s.pass() || s.failure > Failure::None || s.summary() || s.frame != Frame::None {
                return;
            }
            let line = self.lines.line(j);
            if super::text_starts_with(line, ">") {
                for c in j..i {
                    self.reading.update(c, |s| s.set_cause(true));
                }
                return;
            }
            if super::is_blank(line) {
                return;
            }
        }
    }

    /// Marks the `# name` line above TAP failure `i` (tape's test name,
    /// node's `# Subtest:`), over the test's passing assertions, as its
    /// cause: what failed, where the `not ok` line says only how.
    fn mark_tap_title(&mut self, i: usize) {
        for j in (i.saturating_sub(TAP_TITLE_REACH)..i).rev() {
            let s = self.get(j);
            if s.failure > Failure::None || s.summary() {
                return;
            }
            if super::text_starts_with(self.lines.line(j), "# ") {
                self.reading.update(j, |s| s.set_cause(true));
                return;
            }
        }
    }

    /// Reads what follows failure line `i`: a Python traceback's frames and
    /// message, a panic's message, the block that explains the failure and
    /// the stack trace. Returns the first line not consumed.
    fn follow_below(&mut self, i: usize, signal: LineSignal) -> usize {
        let patterns = patterns();
        if signal.traceback() {
            return self.follow_python(i);
        }
        let panic = signal.panic();
        let base_indent = line_indent(self.lines.line(i));
        let n = self.lines.len();
        let mut j = i + 1;
        // The explaining block, then (after at most a few lines) the trace.
        let mut gap = 0;
        let lines = self.lines;
        let pytest_detail = |k: usize| super::prefilter::pytest_detail_line(lines.line(k));
        let details = pytest_detail(i);
        while j < n && j < i + 1 + CAUSE_BELOW {
            let s = self.get(j);
            // A pytest failure's `E` lines after its first explain it: one
            // failure with its causes, not a failure a line.
            if details && s.failure == Failure::Strong && pytest_detail(j) {
                self.read(j);
                let value = patterns.states_value.is_match(self.buf.as_bytes());
                self.reading.update(j, |s| {
                    s.failure = Failure::None;
                    s.set_cause(true);
                    s.set_states_value(value);
                });
                j += 1;
                continue;
            }
            if !(panic && j == i + 1) && (self.passes(j) || s.summary()) {
                break;
            }
            if s.failure == Failure::Strong && !panic {
                break;
            }
            self.read(j);
            if panic && j == i + 1 && !self.buf.trim().is_empty() {
                // A panic's message line is the failure's text.
                let template = if s.failure < Failure::Strong { Some(self.templates.id(&self.buf)) } else { None };
                self.reading.update(j, |s| {
                    s.set_cause(true);
                    if let Some(t) = template {
                        s.failure = Failure::Strong;
                        s.template = t;
                    }
                });
                j += 1;
                continue;
            }
            if self.passes(j) || s.summary() {
                break;
            }
            let bytes = self.buf.as_bytes();
            if s.failure != Failure::Strong && (patterns.frame.is_match(bytes) || patterns.trace_start.is_match(bytes))
            {
                return self.follow_trace(j);
            }
            if s.failure == Failure::Strong && !panic {
                break;
            }
            if self.buf.trim().is_empty() {
                // One blank line inside a block (a diff, YAML) is allowed.
                gap += 1;
                if gap > 1 {
                    break;
                }
                j += 1;
                continue;
            }
            let structured = patterns.explains.is_match(bytes) || indent_of(&self.buf) > base_indent;
            if !structured {
                // Not part of the block; a trace may still start just after.
                if j - i > TRACE_GAP {
                    break;
                }
            } else {
                let value = patterns.states_value.is_match(bytes);
                self.reading.update(j, |s| {
                    s.set_cause(true);
                    s.set_states_value(value);
                });
            }
            gap = 0;
            j += 1;
        }
        j.max(i + 1)
    }

    /// Marks lines `start..end` as one frame, `start` its head: the project's
    /// unless its text names a library.
    fn finish_frame(&mut self, frame: Option<(usize, bool)>, end: usize) {
        if let Some((start, library)) = frame {
            let kind = if library { Frame::Library } else { Frame::Project };
            for j in start..end {
                self.reading.update(j, |s| s.frame = kind);
            }
            self.reading.update(start, |s| s.set_frame_head(true));
        }
    }

    /// Marks the trace starting at line `j` (frames, their details, a
    /// `stack backtrace:` or `goroutine` header); returns the line after it.
    fn follow_trace(&mut self, mut j: usize) -> usize {
        let patterns = patterns();
        let n = self.lines.len();
        // The frame the next detail lines belong to: (first line, names a library).
        let mut current: Option<(usize, bool)> = None;
        // Whether the previous line opened a frame with a number (`N: fn`).
        let mut numbered_head = false;
        // The function of the last numbered frame.
        let mut above = String::new();
        // Whether the last frame was Go's `panic(…)`.
        let mut after_panic = false;
        // The indentation of the trace's first frame: a detail line left of it is not the trace's.
        let mut floor = None;
        while j < n {
            self.read(j);
            let bytes = self.buf.as_bytes();
            // A blank line ends a trace; so does a failure line (a diagnostic
            // that looks like a frame is a diagnostic), a pass verdict, a
            // summary, the end of a YAML block (`...`, TAP) or the next
            // test's header (`# Subtest`).
            let t = self.buf.trim();
            if t.is_empty()
                || self.get(j).failure == Failure::Strong
                || t == "..."
                || t.starts_with("# Subtest")
                || self.passes(j)
                || self.get(j).summary()
            {
                break;
            }
            if patterns.trace_start.is_match(bytes) {
                self.finish_frame(current.take(), j);
                self.reading.update(j, |s| {
                    s.frame = Frame::Library;
                    s.set_frame_head(true);
                });
                numbered_head = false;
                j += 1;
                continue;
            }
            let in_frame = current.is_some();
            let detail = in_frame && patterns.frame_detail.is_match(bytes) && !patterns.frame.is_match(bytes);
            if detail && floor.is_some_and(|f| indent_of(&self.buf) < f) {
                break;
            }
            // A Rust frame's `at path` line is a detail, though it looks like
            // a frame: right under its numbered head.
            let under_head = current.is_some_and(|(head, _)| head + 1 == j);
            let rust_at = under_head && numbered_head && self.buf.trim_start().starts_with("at ");
            // So is a Go frame's tab-indented `path.go:N` line under its function.
            let go_path = under_head && self.buf.starts_with('\t') && patterns.frame_detail.is_match(bytes);
            if detail || rust_at || go_path {
                // Where a frame's code is, when a detail line says (Rust's
                // `at path:line`, Go's path line); a detail line naming no
                // place (a JVM frame without a source, `(Unknown Source)`)
                // says nothing of the head's.
                if let Some((_, library)) = current.as_mut()
                    && names_a_place(bytes)
                {
                    *library |= library_text(&self.buf);
                }
                numbered_head = false;
                j += 1;
                continue;
            }
            if patterns.frame.is_match(bytes) {
                floor.get_or_insert(indent_of(&self.buf));
                self.finish_frame(current.take(), j);
                numbered_head =
                    self.buf.trim_start().split(':').next().is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()));
                // Rust's `f::{{closure}}` right under `f` is the closure
                // that called it (a test harness's): it says nothing of
                // where the bug is, as a library frame says nothing.
                let function = self.buf.trim_start().split_once(": ").map_or("", |(_, f)| f.trim_end());
                let wrapper = numbered_head
                    && function.strip_suffix("::{{closure}}").is_some_and(|f| !f.is_empty() && f == above);
                above.clear();
                if numbered_head {
                    above.push_str(function);
                }
                current = Some((j, wrapper || library_text(&self.buf)));
                // Go prints the runtime's `panic(…)` frame right above the
                // frame that raised the panic.
                if std::mem::replace(&mut after_panic, self.buf.trim_start().starts_with("panic(")) {
                    self.reading.update(j, |s| s.set_raised(true));
                }
                j += 1;
                continue;
            }
            break;
        }
        self.finish_frame(current, j);
        j
    }

    /// Marks a Python traceback whose header is line `header`: its frames (each
    /// `File "…"` line and the source under it) and, as a strong failure, the
    /// exception line that ends it. Returns the line after the traceback.
    fn follow_python(&mut self, header: usize) -> usize {
        let n = self.lines.len();
        let mut j = header + 1;
        let mut frame: Option<(usize, bool)> = None;
        while j < n {
            self.read(j);
            if self.buf.trim().is_empty() {
                break;
            }
            if indented(&self.buf) {
                // A frame is the library's by its first line.
                if self.buf.trim_start().starts_with("File \"") {
                    self.finish_frame(frame.take(), j);
                    frame = Some((j, library_text(&self.buf)));
                } else if frame.is_none() {
                    frame = Some((j, library_text(&self.buf)));
                }
                j += 1;
                continue;
            }
            self.finish_frame(frame.take(), j);
            // The first unindented line: the exception message.
            let template = self.templates.id(&self.buf);
            self.reading.update(j, |s| {
                s.failure = Failure::Strong;
                s.set_pass(false);
                s.template = template;
            });
            return j + 1;
        }
        self.finish_frame(frame, j);
        j
    }
}

/// Whether a view is Python's location of a line it quotes: `File
/// "path", line N` (indented or not), nothing after but `, in name`.
fn is_python_location(v: &str) -> bool {
    let Some(rest) = v.trim_start().strip_prefix("File \"") else { return false };
    let Some((_, after)) = rest.split_once("\", line ") else { return false };
    let digits = after.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && (after[digits..].trim_end().is_empty() || after[digits..].starts_with(", in "))
}

/// Whether a line names a place in a file: a `:` followed by a digit
/// (`path:12`, `path:12:5`).
fn names_a_place(bytes: &[u8]) -> bool {
    bytes.windows(2).any(|w| w[0] == b':' && w[1].is_ascii_digit())
}
