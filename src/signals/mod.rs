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

mod anchors;
pub mod classify;
pub mod diagnostics;
pub mod frames;
mod gate;
pub(crate) mod prefilter;
mod reading;
pub mod rules;
mod scan;
pub mod templates;
mod trace_index;
pub mod traces;
mod view;

use std::ops::Range;

pub use frames::Frame;
pub(crate) use reading::Reading;
pub use trace_index::Traces;
pub(crate) use view::content_start;
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
    /// Template of a failure or summary line, or a diagnostic's rule (0
    /// for other lines).
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
const DIAGNOSTIC: u16 = 512;
const SEVERITY_SHIFT: u16 = 10;
const SEVERITY: u16 = 3 << SEVERITY_SHIFT;
const LOCATED_BELOW: u16 = 4096;
const FILE_HEADER: u16 = 8192;
const RAISED: u16 = 16384;

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
    flag!(
        diagnostic,
        set_diagnostic,
        DIAGNOSTIC,
        "A linter's, type checker's or compiler's finding (see [`diagnostics`])."
    );
    flag!(
        located_below,
        set_located_below,
        LOCATED_BELOW,
        "A diagnostic whose location is the next line (`  --> path:12:5`)."
    );
    flag!(file_header, set_file_header, FILE_HEADER, "The file header above diagnostics that give only `line:column`.");
    flag!(raised, set_raised, RAISED, "A frame head right under a Go `panic(…)` frame: where the panic was raised.");

    /// A diagnostic's severity (meaningful when [`Self::diagnostic`]).
    pub fn severity(&self) -> diagnostics::Severity {
        use diagnostics::Severity::*;
        [Note, Unstated, Warning, Error][usize::from((self.flags & SEVERITY) >> SEVERITY_SHIFT)]
    }

    /// Sets [`Self::severity`].
    pub fn set_severity(&mut self, severity: diagnostics::Severity) {
        self.flags = (self.flags & !SEVERITY) | ((severity as u16) << SEVERITY_SHIFT);
    }

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
    /// Lines of a list of findings read as possible diagnostics (a line
    /// equal to one read before but for its numbers is not read again).
    pub read_as_findings: usize,
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
    /// The frames of every text scanned, indexed.
    traces: Traces,
    /// The file headers above bare-located diagnostics, ascending.
    file_headers: Vec<u32>,
    /// The last [`Signals::position`] found, where the next search starts.
    hint: std::cell::Cell<usize>,
}

impl Signals {
    /// The signal of line `k` (the default for a line without one).
    pub fn get(&self, k: usize) -> LineSignal {
        let i = self.position(k);
        match self.lines.get(i) {
            Some(&l) if l as usize == k => self.signals[i],
            _ => LineSignal::default(),
        }
    }

    /// The traces the scans followed: runs of frame lines and their heads.
    pub fn traces(&self) -> &Traces {
        &self.traces
    }

    /// The nearest file header at or above line `k` (see
    /// [`LineSignal::file_header`]).
    pub fn file_header_above(&self, k: usize) -> Option<usize> {
        let i = self.file_headers.partition_point(|&h| h as usize <= k);
        i.checked_sub(1).map(|i| self.file_headers[i] as usize)
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
        let found = gallop(&self.lines, self.hint.get(), k);
        self.hint.set(found);
        found
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
}

/// Position of the first of `lines` (ascending) at or after `k`, searched
/// from `hint` (the last answer: lookups come a few lines apart).
pub(crate) fn gallop(lines: &[u32], hint: usize, k: usize) -> usize {
    // Lookups come a few lines apart: from the last answer, steps that
    // double bound the answer, then a search between the bounds.
    let before = |i: usize| (lines[i] as usize) < k;
    let hint = hint.min(lines.len());
    let (mut lo, mut hi) = (hint, hint);
    let mut step = 1;
    if hint == 0 || before(hint - 1) {
        // The answer is at `lo` or after it.
        hi = lines.len();
        while lo + step <= lines.len() {
            if !before(lo + step - 1) {
                hi = lo + step - 1;
                break;
            }
            lo += step;
            step *= 2;
        }
    } else {
        // Record `hi - 1` is at or after `k`: the answer is before `hi`.
        hi -= 1;
        lo = 0;
        while step <= hi {
            if before(hi - step) {
                lo = hi - step + 1;
                break;
            }
            hi -= step;
            step *= 2;
        }
    }
    lo + lines[lo..hi].partition_point(|&l| (l as usize) < k)
}

/// `line` without a CI timestamp, the ANSI escapes in front of its text
/// and a tool's line prefix (see [`content_start`]).
pub fn content(line: &[u16]) -> &[u16] {
    &line[content_start(line)..]
}

/// Whether `line` holds nothing but white space once a CI timestamp and
/// ANSI escapes are taken off.
pub fn is_blank(line: &[u16]) -> bool {
    content(line).iter().all(|&u| crate::text::is_space(u))
}

/// Whether `line`'s text, once a CI timestamp, ANSI escapes and its
/// indentation are taken off, starts with `word` (ASCII).
pub fn text_starts_with(line: &[u16], word: &str) -> bool {
    let body = content(line);
    let start = body.iter().position(|&u| !crate::text::is_space(u)).unwrap_or(body.len());
    body[start..].iter().copied().take(word.len()).eq(word.bytes().map(u16::from))
}

#[cfg(test)]
mod tests;
