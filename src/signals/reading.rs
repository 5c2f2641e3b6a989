//! The signals of one text while the scan reads it: the keyword scan's
//! records, in order, and the lines the trace reading marks beside them,
//! merged when the text is done.

use super::{LineSignal, ScanCost, Signals};

/// The signals of one text while it is read: the keyword scan's records,
/// in order, and the lines the trace reading marks beside them.
pub(crate) struct Reading<'s> {
    pub(super) signals: &'s mut Signals,
    /// Where this text's records begin in `signals`.
    pub(super) first: usize,
    base: usize,
    /// Lines only the trace reading marked (text-local, ascending).
    marks: Vec<(u32, LineSignal)>,
    pub(super) cost: ScanCost,
    /// Where the last record lookup landed.
    hint: std::cell::Cell<usize>,
}

impl<'s> Reading<'s> {
    pub(super) fn new(signals: &'s mut Signals, base: usize) -> Self {
        let first = signals.lines.len();
        Reading { signals, first, base, marks: Vec::new(), cost: ScanCost::default(), hint: std::cell::Cell::new(0) }
    }

    pub(super) fn push(&mut self, k: usize, s: LineSignal) {
        self.signals.lines.push((self.base + k) as u32);
        self.signals.signals.push(s);
    }

    /// [`Reading::push`] of `s` for the `n` lines from `k`.
    pub(super) fn push_run(&mut self, k: usize, n: usize, s: LineSignal) {
        let first = (self.base + k) as u32;
        self.signals.lines.extend(first..first + n as u32);
        self.signals.signals.extend(std::iter::repeat_n(s, n));
    }

    /// This text's record of line `k`, if the keyword scan made one. The
    /// trace reading asks about lines near the last one it asked about, so
    /// the search starts from the last answer.
    fn record(&self, k: usize) -> Option<usize> {
        let global = (self.base + k) as u32;
        let lines = &self.signals.lines[self.first..];
        let at = super::gallop(lines, self.hint.get(), global as usize);
        self.hint.set(at);
        (lines.get(at) == Some(&global)).then_some(self.first + at)
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
    pub(super) fn finish(self) {
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
        signals.cost.read_as_findings += cost.read_as_findings;
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
