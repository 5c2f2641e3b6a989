//! The floor: a plan never shows less evidence than a blind cut of the same
//! budget would have shown.
//!
//! Two blind cuts are weighed: upstream's head/tail and a plain tail, each
//! within the budget less one marker line of ours (so all either shows fits
//! the keep-set with the marker of what it drops), each showing the lines
//! that fall whole inside it. Two classes of line are evidence, as the
//! plan read the text: strong failure lines and summaries; what each is
//! evidence of is [`Evidence`] (a flood of one rule is one piece, and so is
//! a report of many lines each worded its own way). The better cut is the
//! one that shows more distinct failures, then more distinct summaries
//! (head/tail on a tie).
//!
//! Invariant, for a text of one block that the plan reads as a log: of
//! each class, the plan shows at
//! least as much distinct evidence as the better cut, anywhere in the text
//! (so it may show other failures in place of the cut's). Where a plan
//! shows less, it is planned again with the better cut's missing evidence
//! held first (one line of each, as many as it lacks); where it still
//! shows less, once more with the better cut's own lines that show its
//! evidence held first ([`Floor::held`]: a prefix and a suffix of the cut),
//! which fit where the cut fits. So the work is at most three plans.
//! A caller's keep-spans (the session policy's cached head) are added
//! before the held lines; the floor holds within the room they leave.

use std::ops::Range;

use super::Reason;
use super::index::LineIndex;
use super::keep::Kept;
use crate::config::head_part;
use crate::markers::{Unit, marker_len};
use crate::signals::{Failure, LineSignal, Signals};

/// The evidence classes, in the order they are held.
pub const CLASSES: [Reason; 2] = [Reason::Failure, Reason::Summary];

/// Whether signal `s` is of evidence class `CLASSES[c]`.
pub fn is_of_class(s: LineSignal, c: usize) -> bool {
    match c {
        0 => s.failure == Failure::Strong && !s.pass(),
        _ => s.summary(),
    }
}

/// The lines two blind cuts of `budget` code points show whole of a text
/// of `n` lines whose runs cost `cps(run)`: the head/tail cut's head lines
/// (`0..head_end`) and tail lines (`ht_tail..n`), and the plain tail's
/// (`tail..n`). Each cut is within `budget` less one marker line (`None`
/// when not even that fits).
pub fn blind_windows(
    n: usize,
    budget: usize,
    head_tail: (u64, u64),
    cps: impl Fn(Range<usize>) -> usize,
) -> Option<(usize, usize, usize)> {
    let room = budget.checked_sub(marker_len(n as u64, Unit::Lines) + 1)?;
    let head = head_part(room as u64, head_tail) as usize;
    // The most lines from the start, and the fewest from which on, within a size.
    let first_lines = |size: usize| {
        let (mut lo, mut hi) = (0, n);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if cps(0..mid) <= size { lo = mid } else { hi = mid - 1 }
        }
        lo
    };
    let last_lines = |size: usize| {
        let (mut lo, mut hi) = (0, n);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if cps(mid..n) <= size { hi = mid } else { lo = mid + 1 }
        }
        lo
    };
    Some((first_lines(head), last_lines(room - head), last_lines(room)))
}

/// What a line is evidence of: its class, and its template where the
/// reading holds it more than once; a failure line whose template is its
/// own is evidence of the run of failure lines it is in (a report of many
/// lines, each worded its own way, is one piece), any other line of its own.
pub type Evidence = (usize, u64);

/// A reading's evidence lines (see [`Evidence`]): the reading, and which
/// templates it holds more than once (counted once, in one pass).
pub struct EvidenceOf<'s> {
    signals: &'s Signals,
    /// Per template id (from 1): whether more than one line has it.
    repeated: Vec<bool>,
}

impl<'s> EvidenceOf<'s> {
    /// The evidence of `signals`.
    pub fn new(signals: &'s Signals) -> Self {
        let mut seen = vec![0u8; signals.templates() as usize + 1];
        for (_, s) in signals.iter() {
            if let Some(count) = seen.get_mut(s.template as usize) {
                *count = (*count + 1).min(2);
            }
        }
        EvidenceOf { signals, repeated: seen.into_iter().map(|c| c > 1).collect() }
    }

    /// What each evidence line among those `within` takes is evidence of,
    /// ascending by line: one pass over the signal lines.
    pub fn lines(&self, within: impl Fn(usize) -> bool) -> Vec<(usize, Evidence)> {
        let mut out = Vec::new();
        // The last failure line read, and the first of its run.
        let mut run: Option<(usize, usize)> = None;
        for (k, s) in self.signals.iter() {
            for c in (0..CLASSES.len()).filter(|&c| is_of_class(s, c)) {
                let first = if c == 0 {
                    let first = run.filter(|&(last, _)| last + 1 == k).map_or(k, |(_, first)| first);
                    run = Some((k, first));
                    first
                } else {
                    k
                };
                let id = if s.template != 0 && self.repeated.get(s.template as usize) == Some(&true) {
                    u64::from(s.template)
                } else {
                    (1 << 32) + first as u64
                };
                if within(k) {
                    out.push((k, (c, id)));
                }
            }
        }
        out
    }
}

/// What the floor holds of one text.
pub(crate) struct Floor<'s> {
    /// The plan's reading's evidence.
    evidence: EvidenceOf<'s>,
    /// What the better cut shows evidence of, each with its last line there,
    /// sorted by evidence.
    better: Vec<(Evidence, usize)>,
    /// Where the better cut's head ends (0 for the plain tail): its lines
    /// before it are its head, the others its tail.
    head_end: usize,
    /// Lines in the text.
    n: usize,
}

impl<'s> Floor<'s> {
    /// The floor of `index`'s text at `budget`, head/tail in the ratio
    /// `head_tail`, by the plan's reading of every line (`signals`); `None`
    /// for several text blocks, or when neither cut shows evidence.
    pub fn read(index: &LineIndex<'_>, signals: &'s Signals, budget: usize, head_tail: (u64, u64)) -> Option<Self> {
        if index.texts.len() != 1 {
            return None;
        }
        let n = index.line_count();
        let (head_end, ht_tail, tail) = blind_windows(n, budget, head_tail, |run| index.cps_of(run))?;
        let evidence = EvidenceOf::new(signals);
        let lines = evidence.lines(|k| k < head_end || k >= ht_tail.min(tail));
        // What a cut shows evidence of, with the last line of each.
        let of_cut = |cut: &dyn Fn(usize) -> bool| -> Vec<(Evidence, usize)> {
            let mut seen: Vec<(Evidence, usize)> =
                lines.iter().filter(|(k, _)| cut(*k)).map(|&(k, e)| (e, k)).collect();
            // Sorted by line within each evidence, so the last is kept.
            seen.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
            seen.dedup_by_key(|(e, _)| *e);
            seen
        };
        let head_tail_cut = of_cut(&|k| k < head_end || k >= ht_tail);
        let tail_cut = of_cut(&|k| k >= tail);
        let counts = |cut: &[(Evidence, usize)]| {
            let mut per_class = [0usize; CLASSES.len()];
            cut.iter().for_each(|((c, _), _)| per_class[*c] += 1);
            per_class
        };
        let (better, head_end) =
            if counts(&tail_cut) > counts(&head_tail_cut) { (tail_cut, 0) } else { (head_tail_cut, head_end) };
        (!better.is_empty()).then_some(Floor { evidence, better, head_end, n })
    }

    /// What `kept` lacks to show, of each class, as much distinct evidence
    /// as the better cut:
    /// for each class short by `d`, the `d` last lines of the better cut's
    /// evidence of it that `kept` does not show, in class order.
    pub fn missing(&self, kept: &Kept) -> Vec<(usize, Reason)> {
        let mut covered: Vec<Evidence> =
            self.evidence.lines(|k| kept.contains(k)).into_iter().map(|(_, e)| e).collect();
        covered.sort_unstable();
        covered.dedup();
        let mut missing = Vec::new();
        for (c, &class) in CLASSES.iter().enumerate() {
            let shown = covered.iter().filter(|e| e.0 == c).count();
            let wanted = self.better.iter().filter(|(e, _)| e.0 == c).count();
            let mut absent: Vec<usize> = self
                .better
                .iter()
                .filter(|(e, _)| e.0 == c && covered.binary_search(e).is_err())
                .map(|&(_, k)| k)
                .collect();
            absent.sort_unstable_by(|a, b| b.cmp(a));
            missing.extend(absent.into_iter().take(wanted.saturating_sub(shown)).map(|k| (k, class)));
        }
        missing
    }

    /// The better cut's lines that show its evidence, as it shows them: its
    /// head from the first line to the last evidence line in it, in order,
    /// then its tail from the last line back to the first evidence line in
    /// it. A prefix and a suffix of the cut, so they fit where the cut fits
    /// (the cut is within the budget less the one marker between them), and
    /// each line added in this order makes the plan larger, never a run's
    /// marker it then replaces: no line is refused for a size the whole
    /// would not have. An evidence line is held for its class, another for
    /// the end it is at.
    pub fn held(&self) -> Vec<(usize, Reason)> {
        // The cut's evidence lines by line, each with its class: one search a held line.
        let mut by_line: Vec<(usize, Reason)> = self.better.iter().map(|&((c, _), k)| (k, CLASSES[c])).collect();
        // Stable: a line of both classes keeps the first (`better` is in class order).
        by_line.sort_by_key(|&(k, _)| k);
        // An evidence line by its class; another by the end of the cut it is in.
        let reason_of = |k: usize| match by_line.get(by_line.partition_point(|&(line, _)| line < k)) {
            Some(&(line, class)) if line == k => class,
            _ if k < self.head_end => Reason::Start,
            _ => Reason::End,
        };
        let head_last = by_line.iter().map(|&(k, _)| k).take_while(|&k| k < self.head_end).last();
        let tail_first = by_line.iter().map(|&(k, _)| k).find(|&k| k >= self.head_end);
        let head = head_last.map_or(0..0, |last| 0..last + 1);
        let tail = tail_first.map_or(self.n..self.n, |first| first..self.n);
        head.chain(tail.rev()).map(|k| (k, reason_of(k))).collect()
    }
}
