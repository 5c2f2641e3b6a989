//! What fits the budget: the keep-set of a line plan and its exact size.
//!
//! Lines are added one at a time, each only if the rendering, markers
//! included, stays within the budget. The size is tracked exactly as
//! [`render`](super::render) will produce it (a dropped run costs its
//! marker line, or itself when shorter; a cut line its head, tail and
//! inline marker), so the budget holds by construction. A line too long
//! for what is left, or longer than the caller's cap, is cut inside by the
//! head:tail ratio around a retrievable inline marker.

use std::collections::BTreeSet;
use std::ops::Range;

use crate::markers::{Unit, marker_len};
use crate::strategy::lines::Reason;
use crate::strategy::lines::doc::Doc;
use crate::strategy::lines::render::{Fate, cut_cost};
use crate::text::{code_point_len, offset_after, offset_before_last};

/// Fewest code points of a line worth keeping when it has to be cut.
const MIN_CUT_KEEP: usize = 64;

/// The growing keep-set and the exact size it renders to. Invariant:
/// `cost` is the code points `fates` render to, and never above `limit`,
/// which is never above `budget`.
pub struct Selection<'d, 'a> {
    doc: &'d Doc<'a>,
    /// Each line's fate so far.
    pub fates: Vec<Fate>,
    /// Why each kept line was kept (`None` for dropped lines).
    pub why: Vec<Option<Reason>>,
    /// The reason recorded for the lines added next.
    pub reason: Reason,
    kept: BTreeSet<usize>,
    cost: usize,
    limit: usize,
    budget: usize,
    head_share: (u64, u64),
    /// Lines offered to [`Selection::add`] so far: the planner's work, counted.
    pub attempts: usize,
}

impl<'d, 'a> Selection<'d, 'a> {
    /// Nothing kept: every text one dropped run. `None` when even that does
    /// not fit `budget` (one marker per text).
    pub fn new(doc: &'d Doc<'a>, budget: usize, head_share: (u64, u64)) -> Option<Self> {
        let floor: usize = doc.bounds.iter().map(|b| doc.run_cost(b.clone())).sum();
        (floor <= budget).then(|| Selection {
            doc,
            fates: vec![Fate::Drop; doc.line_count()],
            why: vec![None; doc.line_count()],
            reason: Reason::Fill,
            kept: BTreeSet::new(),
            cost: floor,
            limit: budget,
            budget,
            head_share,
            attempts: 0,
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
    pub fn is_kept(&self, k: usize) -> bool {
        self.fates.get(k).is_some_and(|f| !matches!(f, Fate::Drop))
    }

    /// The dropped run around line `k`, which is not kept.
    fn run_around(&self, k: usize) -> Range<usize> {
        let bounds = &self.doc.bounds[self.doc.text_of(k)];
        let start = self.kept.range(bounds.start..k).next_back().map_or(bounds.start, |&p| p + 1);
        let end = self.kept.range(k + 1..bounds.end).next().copied().unwrap_or(bounds.end);
        start..end
    }

    /// Adds line `k` if it fits, whole when it is at most `cap` code points
    /// and fits, else cut to what fits. Returns whether it was added.
    pub fn add(&mut self, k: usize, cap: usize) -> bool {
        self.attempts += 1;
        if k >= self.fates.len() || self.is_kept(k) {
            return false;
        }
        let run = self.run_around(k);
        let split = self.doc.run_cost(run.start..k) + self.doc.run_cost(k + 1..run.end);
        let old = self.doc.run_cost(run);
        let line_cps = self.doc.cps(k);
        // Cost of everything but line k after adding it (may be negative).
        let base = self.cost as isize - old as isize + split as isize;
        let room = self.limit as isize - base;
        if room <= 0 {
            return false;
        }
        let room = room as usize;
        if line_cps <= cap.min(room) {
            return self.commit(k, Fate::Keep, base as usize + line_cps);
        }
        // Cut: keep what fits beside an inline marker.
        let allowance = cap.min(room);
        let marker = marker_len(line_cps as u64, Unit::Chars);
        if allowance < marker + MIN_CUT_KEEP {
            return false;
        }
        let keep = allowance - marker;
        let slice = self.doc.line(k);
        let (from, to) = cut_points(slice, keep, self.head_share);
        let kept_cps = code_point_len(&slice[..from]) + code_point_len(&slice[to..]);
        let removed = line_cps - kept_cps;
        self.commit(k, Fate::Cut { from: from as u32, to: to as u32 }, base as usize + kept_cps + cut_cost(removed))
    }

    /// Too little room left for any line worth adding.
    pub fn full(&self) -> bool {
        self.limit.saturating_sub(self.cost) < MIN_CUT_KEEP
    }

    fn commit(&mut self, k: usize, fate: Fate, cost: usize) -> bool {
        debug_assert!(cost <= self.limit && self.limit <= self.budget);
        self.fates[k] = fate;
        self.why[k] = Some(self.reason);
        self.kept.insert(k);
        self.cost = cost;
        true
    }
}

/// Code-unit cut points in `line` keeping `keep` code points, split by the
/// `(head, tail)` ratio, the tail always holding the line ending.
fn cut_points(line: &[u16], keep: usize, (head_w, tail_w): (u64, u64)) -> (usize, usize) {
    let head = (keep as u64 * head_w).checked_div(head_w + tail_w).map_or(keep / 2, |h| h as usize);
    let tail = keep - head;
    let from = offset_after(line, head);
    let to = offset_before_last(line, tail).max(from);
    (from, to)
}
