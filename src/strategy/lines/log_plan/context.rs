//! Phase 4 of a log's plan: the neighbours of what the failure detail
//! kept (failures, summaries, diagnostics, spans), nearer first, then more
//! of both ends.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::super::Reason;
use super::super::keep::grow_ends;
use super::LogPlan;
use crate::signals::Failure;
use crate::text::same_columns;

/// How far context grows around failures when budget is left.
const WIDE_CONTEXT: usize = 12;

impl LogPlan<'_, '_, '_> {
    /// Phase 4: context around failures, nearer first; then more of both
    /// ends. Each anchor grows on each side until a line there is refused or its
    /// text ends, at most [`WIDE_CONTEXT`] (or `contextLines`) away; the
    /// configured context comes first, wider only after the ends have
    /// grown; with `contextLines: 0`, none. Kept lines are stepped over in one jump, so the work is
    /// bounded by the anchors and the lines added, not by the distance.
    pub(super) fn context(&mut self, ends_ratio: (usize, usize)) {
        let cap = self.cap;
        // `contextLines: 0` asks for no neighbours at all: the rest goes to the ends.
        if self.options.context == 0 {
            self.grow_ends(ends_ratio);
            return;
        }
        let anchors: Vec<usize> = self
            .keep
            .kept()
            .iter()
            .filter(|&k| {
                let s = self.get(k);
                s.failure == Failure::Strong
                    || s.summary()
                    || s.diagnostic()
                    || self.touched.binary_search(&k).is_ok()
                    || (s.failure == Failure::Weak && !self.table_row(k))
            })
            .collect();
        let reach = WIDE_CONTEXT.max(self.options.context);
        // (distance, anchor, side): side 0 grows up, 1 down; nearest first,
        // then anchors in order, up before down.
        let mut queue: BinaryHeap<Reverse<(usize, usize, u8)>> =
            (0..anchors.len()).flat_map(|a| [Reverse((1, a, 0)), Reverse((1, a, 1))]).collect();
        let context = self.options.context;
        // Whether the configured context was reached with sides still open,
        // and whether the ends have grown after it.
        let (mut reached, mut grown) = (false, false);
        let mut level = 0;
        while let Some(&Reverse((d, a, side))) = queue.peek() {
            if d != level {
                if context >= 1 && !reached && d >= context && !self.keep.full() {
                    reached = true;
                }
                if reached && !grown && d > context {
                    grown = true;
                    self.grow_ends(ends_ratio);
                }
                if d > reach || self.keep.full() {
                    break;
                }
                level = d;
            }
            queue.pop();
            let k = anchors[a];
            let text = &self.index.bounds[self.index.text_of(k)];
            let line = if side == 0 {
                k.checked_sub(d).filter(|&j| j >= text.start)
            } else {
                Some(k + d).filter(|&j| j < text.end)
            };
            let Some(j) = line else { continue };
            if !self.keep.is_kept(j) && !self.keep.add(j, cap, Reason::Context) {
                continue;
            }
            // Open on: the next line not yet kept on this side.
            let next = if side == 0 {
                j.checked_sub(1).and_then(|up| self.keep.prev_unkept(up)).map(|u| k - u)
            } else {
                Some(self.keep.next_unkept(j + 1) - k)
            };
            if let Some(next) = next {
                queue.push(Reverse((next, a, side)));
            }
        }
        if reached && !grown {
            self.grow_ends(ends_ratio);
        }
        self.grow_ends(ends_ratio);
    }

    /// Whether line `k` is a row of a table (its columns open where a
    /// neighbour's in the same text do): its neighbours are other rows,
    /// not what explains it.
    fn table_row(&self, k: usize) -> bool {
        let text = &self.index.bounds[self.index.text_of(k)];
        let line = self.index.line(k);
        (k > text.start && same_columns(line, self.index.line(k - 1)))
            || (k + 1 < text.end && same_columns(line, self.index.line(k + 1)))
    }

    /// Adds lines from both ends inward, `front` from the start for each `back`
    /// from the end, until one from each side has been refused.
    fn grow_ends(&mut self, (front, back): (usize, usize)) {
        grow_ends(&mut self.keep, self.index.line_count(), self.cap, (front, back));
    }
}
