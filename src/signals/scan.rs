//! The scan: one pass over a text's lines that fills its [`Signals`].
//!
//! The keyword scan flags lines window by window; each flagged line gets
//! its verdict and, if it is a failure or summary, its template; then the
//! strong failures are followed ([`traces`](super::traces)). A large text
//! is read on two threads, its windows taken in order.

use std::ops::Range;

use super::classify::{Classifier, Verdict};
use super::templates::{self, Templates};
use super::{Failure, LineSignal, ScanCost, Signals, prefilter, traces};
use crate::text::TextLines;

impl Signals {
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
            if lines.text.len() < crate::parallel::PARALLEL_FROM {
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

    /// Record `r` of the whole signals (line, signal).
    pub(crate) fn record_at(&self, r: usize) -> (usize, LineSignal) {
        (self.signals.lines[r] as usize, self.signals.signals[r])
    }

    /// Counts a line read while following.
    pub(crate) fn followed(&mut self) {
        self.cost.followed += 1;
    }

    /// Merges the marks into the records, in order, and indexes the text's
    /// traces from its final records.
    fn finish(self) {
        let first = self.first;
        let signals = self.merge();
        let records = signals.lines[first..].iter().zip(&signals.signals[first..]);
        signals.traces.extend(records.map(|(&k, &s)| (k as usize, s)));
    }

    /// Merges the marks into the records, in order.
    fn merge(self) -> &'s mut Signals {
        let Reading { signals, first, base, marks, cost, .. } = self;
        signals.cost.flagged += cost.flagged;
        signals.cost.evaluations += cost.evaluations;
        signals.cost.comparisons += cost.comparisons;
        signals.cost.followed += cost.followed;
        let marks: Vec<(u32, LineSignal)> =
            marks.into_iter().filter(|(_, s)| s.is_signal()).map(|(k, s)| ((base + k as usize) as u32, s)).collect();
        if marks.is_empty() {
            return signals;
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
        signals
    }
}
