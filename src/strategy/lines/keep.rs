//! What fits the budget: the keep-set of a line plan and its exact size.
//!
//! Lines are added one at a time, each only if the rendering, markers
//! included, stays within the budget. The size is tracked exactly as
//! [`render`](super::render) will produce it (a dropped run costs its
//! marker line, or itself when shorter; a cut line its head, tail and
//! inline marker), so the budget holds by construction. A line longer
//! than the caller's cap is cut inside by the head:tail ratio around a
//! retrievable inline marker (to the cap, or to what is left); a shorter
//! line that does not fit is cut only when it is evidence of a failure,
//! never just to fill.
//!
//! The set is a bit per line ([`LineSet`]) and a map of the few cut lines,
//! so it costs an eighth of a byte a line whatever the budget, and adding a
//! line costs a few word operations whatever the text's length.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::config::head_part;
use crate::markers::{Unit, marker_len};
use crate::strategy::lines::Reason;
use crate::strategy::lines::cost::cut_cost;
use crate::strategy::lines::index::LineIndex;
use crate::strategy::lines::lineset::LineSet;
use crate::text::{code_point_len, offset_after, offset_before_last};

/// Fewest code points of a line worth keeping when it has to be cut.
const MIN_CUT_KEEP: usize = 64;

/// What becomes of one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Copied as it is.
    Keep,
    /// Part of a dropped run, replaced by that run's marker line.
    Drop,
    /// Kept but for `from..to`, which is replaced by an inline chars marker.
    Cut {
        /// Code-unit offset within the line where the cut starts.
        from: u32,
        /// Code-unit offset within the line where the cut ends.
        to: u32,
    },
}

impl Fate {
    /// Every fate, a cut one with an empty cut standing for any.
    pub const ALL: [Fate; 3] = [Fate::Keep, Fate::Drop, Fate::Cut { from: 0, to: 0 }];

    /// The fate's one spelling, as `--explain` prints it.
    pub const fn name(self) -> &'static str {
        match self {
            Fate::Keep => "keep",
            Fate::Drop => "drop",
            Fate::Cut { .. } => "cut",
        }
    }
}

/// The lines a plan keeps, and where the cut ones are cut.
#[derive(Clone, Debug)]
pub struct Kept {
    lines: LineSet,
    /// The ranges cut out of each cut line, ascending and disjoint.
    cuts: BTreeMap<usize, Vec<(u32, u32)>>,
}

impl Kept {
    /// Nothing kept of `n` lines.
    pub fn none(n: usize) -> Self {
        Kept { lines: LineSet::new(n), cuts: BTreeMap::new() }
    }

    /// The plan that gives line `k` the fate `fates[k]`.
    pub fn from_fates(fates: &[Fate]) -> Self {
        let mut kept = Kept::none(fates.len());
        for (k, f) in fates.iter().enumerate() {
            match *f {
                Fate::Keep => {
                    kept.lines.insert(k);
                }
                Fate::Cut { from, to } => {
                    kept.lines.insert(k);
                    kept.cuts.insert(k, vec![(from, to)]);
                }
                Fate::Drop => {}
            }
        }
        kept
    }

    /// What becomes of line `k`.
    pub fn fate(&self, k: usize) -> Fate {
        if !self.lines.contains(k) {
            return Fate::Drop;
        }
        match self.cuts.get(&k).and_then(|c| c.first()) {
            Some(&(from, to)) => Fate::Cut { from, to },
            None => Fate::Keep,
        }
    }

    /// The ranges cut out of kept line `k` (code units within the line,
    /// ascending), empty when it is kept whole.
    pub fn cuts(&self, k: usize) -> &[(u32, u32)] {
        self.cuts.get(&k).map_or(&[], Vec::as_slice)
    }

    /// Whether line `k` is kept (whole or cut).
    #[inline]
    pub fn contains(&self, k: usize) -> bool {
        self.lines.contains(k)
    }

    /// The first kept line at or after `k`.
    pub fn next(&self, k: usize) -> Option<usize> {
        self.lines.next(k)
    }

    /// The kept lines, ascending.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.lines.iter()
    }

    /// How many lines are kept.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether no line is kept.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

/// What [`KeepSet::admits`] found of a line it lets [`KeepSet::add`] go on with.
struct Admitted {
    line_cps: usize,
    /// A redrawn line's overwritten frames and what it shows without them.
    redraw: Option<((u32, u32), usize)>,
    /// Whether it may be cut (longer than the cap, or evidence).
    long: bool,
}

/// The growing keep-set and the exact size it renders to. Invariant:
/// `cost` is the code points `kept` renders to, and never above `limit`,
/// which is never above `budget`.
pub struct KeepSet<'i, 'a> {
    index: &'i LineIndex<'a>,
    kept: Kept,
    /// Why each kept line was kept, when the plan is to be explained.
    reasons: Option<Vec<Option<Reason>>>,
    cost: usize,
    limit: usize,
    budget: usize,
    head_share: (u64, u64),
    /// The most a dropped run can cost: its marker line.
    max_run_cost: usize,
    /// The least a dropped run longer than its marker costs: the marker of one line.
    min_run_cost: usize,
    /// Lines offered to [`KeepSet::add`] so far: the planner's work, counted.
    pub attempts: usize,
    /// Whether any text holds a carriage return (else no line is redrawn).
    carriage_returns: bool,
}

impl<'i, 'a> KeepSet<'i, 'a> {
    /// Nothing kept: every text one dropped run. `None` when even that does
    /// not fit `budget` (one marker per text). With `explain`, the reason of
    /// every kept line is recorded.
    pub fn new(index: &'i LineIndex<'a>, budget: usize, head_share: (u64, u64), explain: bool) -> Option<Self> {
        let floor: usize = index.bounds.iter().map(|b| index.run_cost(b.clone())).sum();
        (floor <= budget).then(|| KeepSet {
            index,
            kept: Kept::none(index.line_count()),
            reasons: explain.then(|| vec![None; index.line_count()]),
            cost: floor,
            limit: budget,
            budget,
            head_share,
            max_run_cost: marker_len(index.line_count() as u64, Unit::Lines) + 1,
            min_run_cost: marker_len(1, Unit::Lines),
            attempts: 0,
            // One branch-free pass (it vectorises), so lines are not read
            // one by one for a `\r` most texts do not hold.
            carriage_returns: index.texts.iter().any(|(_, t)| t.iter().fold(false, |any, &u| any | (u == 0x0D))),
        })
    }

    /// Code points the selection renders to now.
    pub fn cost(&self) -> usize {
        self.cost
    }

    /// Lets lines be added only while the size stays within `limit` (capped
    /// at the budget): room held back for what comes later.
    pub fn set_limit(&mut self, limit: usize) {
        self.limit = limit.min(self.budget);
    }

    /// Whether line `k` is kept (whole or cut).
    #[inline]
    pub fn is_kept(&self, k: usize) -> bool {
        self.kept.contains(k)
    }

    /// The text of line `k`, its line ending included.
    pub fn line(&self, k: usize) -> &'a [u16] {
        self.index.line(k)
    }

    /// The kept lines so far.
    pub fn kept(&self) -> &Kept {
        &self.kept
    }

    /// The nearest line at or before `k` that is not kept.
    pub fn prev_unkept(&self, k: usize) -> Option<usize> {
        self.kept.lines.prev_absent(k)
    }

    /// The nearest line at or after `k` that is not kept (the line count when none).
    pub fn next_unkept(&self, k: usize) -> usize {
        self.kept.lines.next_absent(k)
    }

    /// The dropped run around line `k` of text `t`, which is not kept.
    fn run_around(&self, t: usize, k: usize) -> Range<usize> {
        let bounds = &self.index.bounds[t];
        let start = self.kept.lines.prev(k).filter(|&p| p >= bounds.start).map_or(bounds.start, |p| p + 1);
        let end = self.kept.lines.next(k + 1).filter(|&q| q < bounds.end).unwrap_or(bounds.end);
        start..end
    }

    /// What the dropped run around line `k` of text `t` (not kept) costs
    /// now, and what the two runs it leaves on either side cost once `k` is kept.
    fn run_costs(&self, t: usize, k: usize) -> (usize, usize) {
        let run = self.run_around(t, k);
        let split = self.index.run_cost_in(t, run.start..k) + self.index.run_cost_in(t, k + 1..run.end);
        (self.index.run_cost_in(t, run), split)
    }

    /// Whether [`KeepSet::add`] could take line `k` for `reason` now, by
    /// the tests that need no run costs; `false` means it is refused.
    pub fn may_add(&self, k: usize, cap: usize, reason: Reason) -> bool {
        self.admits(k, cap, reason).is_some()
    }

    /// [`KeepSet::add`]'s first tests, and what it goes on with.
    fn admits(&self, k: usize, cap: usize, reason: Reason) -> Option<Admitted> {
        // Adding a line never lowers the size, so a full selection takes nothing.
        if k >= self.index.line_count() || self.is_kept(k) || self.cost >= self.limit {
            return None;
        }
        let line_cps = self.index.cps(k);
        let redraw = self.redraw(k, line_cps);
        // What the line renders to whole: a redrawn line, its terminal view.
        let shown = redraw.map_or(line_cps, |(_, shown)| shown);
        // Dropping a line into its run saves at most that run's marker line,
        // so a line that cannot fit even then, whole or cut, is refused here.
        let most_room = self.limit - self.cost + self.max_run_cost;
        let cut_floor = marker_len(line_cps as u64, Unit::Chars) + MIN_CUT_KEEP;
        let whole = shown <= cap && shown <= most_room;
        // A line longer than the cap is cut; one that merely does not fit
        // what is left is cut only when it is evidence (a failure, its
        // cause or frame, a summary, a caller's span), never to fill.
        let evidence =
            matches!(reason, Reason::Span | Reason::Failure | Reason::Cause | Reason::Summary | Reason::Frame);
        let long = line_cps > cap || evidence;
        let cut = long && cap >= cut_floor && most_room >= cut_floor;
        if !whole && !cut {
            return None;
        }
        // A line between two dropped lines of its text splits their run in
        // two: whatever the runs, that costs at least the line, the smaller
        // of each neighbour and a marker, less the one marker saved.
        let bounds = &self.index.bounds[self.index.text_of(k)];
        if k > bounds.start && k + 1 < bounds.end && !self.is_kept(k - 1) && !self.is_kept(k + 1) {
            let near = self.index.cps(k - 1).min(self.min_run_cost) + self.index.cps(k + 1).min(self.min_run_cost);
            let least = |kept: usize| (kept + near).saturating_sub(self.max_run_cost);
            let whole = shown <= cap && least(shown) <= self.limit - self.cost;
            let cut = long && cap >= cut_floor && least(cut_floor) <= self.limit - self.cost;
            if !whole && !cut {
                return None;
            }
        }
        Some(Admitted { line_cps, redraw, long })
    }

    /// For a line redrawn by carriage returns ([`redraw`](super::redraw)):
    /// the range its overwritten frames take and what it renders to
    /// without them.
    fn redraw(&self, k: usize, line_cps: usize) -> Option<((u32, u32), usize)> {
        // Overwritten frames shorter than their marker stay: a line that
        // short cannot be cut, so it is not read.
        if !self.carriage_returns || line_cps <= self.min_run_cost {
            return None;
        }
        let ((from, to), removed) =
            super::redraw::overwritten(self.index.line(k), |n| marker_len(n as u64, Unit::Chars))?;
        Some(((from as u32, to as u32), line_cps - removed + cut_cost(removed)))
    }

    /// Adds line `k` for `reason` if it fits, whole when it is at most `cap`
    /// code points and fits, else cut to what fits. Returns whether it was added.
    pub fn add(&mut self, k: usize, cap: usize, reason: Reason) -> bool {
        self.attempts += 1;
        let Some(Admitted { line_cps, redraw, long }) = self.admits(k, cap, reason) else { return false };
        let t = self.index.text_of(k);
        let (old, split) = self.run_costs(t, k);
        // Cost of everything but line k after adding it (may be negative).
        let base = self.cost as isize - old as isize + split as isize;
        let room = self.limit as isize - base;
        if room <= 0 {
            return false;
        }
        let room = room as usize;
        if let Some((cut, shown)) = redraw
            && shown <= cap.min(room)
        {
            return self.commit(k, Some(vec![cut]), base as usize + shown, reason);
        }
        if line_cps <= cap.min(room) {
            return self.commit(k, None, base as usize + line_cps, reason);
        }
        if !long {
            return false;
        }
        // Cut: keep what fits beside an inline marker.
        let allowance = cap.min(room);
        let marker = marker_len(line_cps as u64, Unit::Chars);
        if allowance < marker + MIN_CUT_KEEP {
            return false;
        }
        let keep = allowance - marker;
        let slice = self.index.line(k);
        let (from, to) = cut_points(slice, keep, self.head_share);
        let kept_cps = code_point_len(&slice[..from]) + code_point_len(&slice[to..]);
        let removed = line_cps - kept_cps;
        self.commit(k, Some(vec![(from as u32, to as u32)]), base as usize + kept_cps + cut_cost(removed), reason)
    }

    /// Adds line `k` (not kept) with the ranges `plan` chooses to cut out of
    /// it, given the room the line may take; `plan` answers with the ranges
    /// and an upper bound of what the line then renders to. Returns whether
    /// it was added.
    pub fn add_cut_by(
        &mut self,
        k: usize,
        reason: Reason,
        plan: impl FnOnce(&[u16], usize) -> Option<(Vec<(u32, u32)>, usize)>,
    ) -> bool {
        self.attempts += 1;
        if k >= self.index.line_count() || self.is_kept(k) {
            return false;
        }
        let (old, split) = self.run_costs(self.index.text_of(k), k);
        let base = self.cost - old + split;
        let Some(room) = self.limit.checked_sub(base) else { return false };
        match plan(self.index.line(k), room) {
            Some((cuts, size)) if size <= room => self.commit(k, Some(cuts), base + size, reason),
            _ => false,
        }
    }

    /// What adding line `k` whole would add to the size, markers included
    /// (`None` when it is kept already or out of range).
    pub fn whole_cost(&self, k: usize) -> Option<usize> {
        if k >= self.index.line_count() || self.is_kept(k) {
            return None;
        }
        let (old, split) = self.run_costs(self.index.text_of(k), k);
        Some((split + self.index.cps(k)).saturating_sub(old))
    }

    /// Adds the lines before `end`, the last first, for `reason`, while the
    /// size is under `target`: a run back from `end` that stops at the
    /// first line refused.
    pub fn add_back_from(&mut self, end: usize, target: usize, cap: usize, reason: Reason) {
        for k in (0..end).rev() {
            if self.cost >= target || (!self.add(k, cap, reason) && !self.is_kept(k)) {
                break;
            }
        }
    }

    /// The most the first line may take (`cap` at most) and still leave
    /// room for the last `edge` lines, each up to `cap`, and the marker
    /// between: the edges hold whatever the length of the first line.
    pub fn first_line_cap(&self, cap: usize, edge: usize) -> usize {
        let n = self.index.line_count();
        let last: usize = (1..n).rev().take(edge).map(|k| self.index.cps(k).min(cap)).sum();
        cap.min(self.limit.saturating_sub(self.cost + last + self.max_run_cost))
    }

    /// Keeps whole the dropped runs whose text costs at most the room left
    /// more than their marker, cheapest first while room lasts: the text
    /// itself in place of a marker nearly as long (a run shorter than its
    /// marker is shown already). A run with a line longer than `cap` is
    /// left. One pass over the runs and a sort of the few that fit.
    pub fn fill_short_runs(&mut self, cap: usize) {
        let mut runs: Vec<(usize, Range<usize>)> = Vec::new();
        for (t, bounds) in self.index.bounds.iter().enumerate() {
            let mut k = bounds.start;
            loop {
                let start = self.kept.lines.next_absent(k);
                if start >= bounds.end {
                    break;
                }
                let end = self.kept.lines.next(start).map_or(bounds.end, |q| q.min(bounds.end));
                let extra = self.index.cps_of(start..end).saturating_sub(self.index.run_cost_in(t, start..end));
                if extra <= self.room() && (start..end).all(|j| self.index.cps(j) <= cap) {
                    runs.push((extra, start..end));
                }
                k = end;
            }
        }
        runs.sort_unstable_by_key(|(extra, run)| (*extra, run.start));
        for (extra, run) in runs {
            if extra > self.room() {
                continue;
            }
            self.attempts += run.len();
            for j in run {
                self.kept.lines.insert(j);
                if let Some(reasons) = self.reasons.as_mut() {
                    reasons[j] = Some(Reason::Fill);
                }
            }
            self.cost += extra;
        }
    }

    /// Code points that may still be added under the current limit.
    pub fn room(&self) -> usize {
        self.limit.saturating_sub(self.cost)
    }

    /// Too little room left for any line worth adding.
    pub fn full(&self) -> bool {
        self.limit.saturating_sub(self.cost) < MIN_CUT_KEEP
    }

    fn commit(&mut self, k: usize, cut: Option<Vec<(u32, u32)>>, cost: usize, reason: Reason) -> bool {
        debug_assert!(cost <= self.limit && self.limit <= self.budget);
        self.kept.lines.insert(k);
        if let Some(cut) = cut {
            self.kept.cuts.insert(k, cut);
        }
        if let Some(reasons) = self.reasons.as_mut() {
            reasons[k] = Some(reason);
        }
        self.cost = cost;
        true
    }

    /// The kept lines and, when recorded, why each was kept.
    pub fn finish(self) -> (Kept, Option<Vec<Option<Reason>>>) {
        (self.kept, self.reasons)
    }
}

/// Code-unit cut points in `line` keeping `keep` code points, split by the
/// `(head, tail)` ratio, the tail always holding the line ending.
fn cut_points(line: &[u16], keep: usize, (head_w, tail_w): (u64, u64)) -> (usize, usize) {
    let head = head_part(keep as u64, (head_w, tail_w)) as usize;
    let tail = keep - head;
    let from = offset_after(line, head);
    let to = offset_before_last(line, tail).max(from);
    (from, to)
}

/// Adds lines of `keep` from both ends inward, `front` from the start for
/// each `back` from the end, until one from each side has been refused.
/// Cursors, not lists: each side steps over kept lines as it meets them.
pub(crate) fn grow_ends(keep: &mut KeepSet<'_, '_>, n: usize, cap: usize, (front, back): (usize, usize)) {
    let (mut next_front, mut next_back) = (0, n);
    let (mut back_open, mut front_open) = (true, true);
    while (back_open || front_open) && !keep.full() {
        for _ in 0..back {
            if back_open {
                while next_back > 0 && keep.is_kept(next_back - 1) {
                    next_back -= 1;
                }
                back_open = next_back > 0 && keep.add(next_back - 1, cap, Reason::Fill);
            }
        }
        for _ in 0..front {
            if front_open {
                while next_front < n && keep.is_kept(next_front) {
                    next_front += 1;
                }
                front_open = next_front < n && keep.add(next_front, cap, Reason::Fill);
            }
        }
    }
}
