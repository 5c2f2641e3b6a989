//! The task's phase of a log's plan: the lines holding the task's words,
//! findings or not, each kept as a log keeps it (a failure as a failure,
//! a line of a finding's block with the finding, a titled section with
//! its block).

use super::super::Reason;
use super::super::index::LineIndex;
use super::super::task_plan::keep_task_lines;
use super::LogPlan;
use super::sections::{framed_title, keep_titled_block};
use crate::signals::{Failure, Signals, is_blank};

/// Lines walked up from a task's line for the failure whose block holds it.
const OWNER_REACH: usize = 24;

impl LogPlan<'_, '_, '_> {
    /// The lines holding the task's words (see [`task_plan`](super::super::task_plan)),
    /// up to `share` of the budget, each with what places it and the block
    /// under it (a strong failure line kept as a failure): those that are
    /// findings (a failure, a diagnostic, a findings list's file header, a
    /// line of a finding's block) where `findings`, else the others;
    /// within `failure_limit`, which it leaves as the limit. Returns what
    /// it added to the cost.
    pub(super) fn keep_task_lines(&mut self, failure_limit: usize, findings: bool, share: usize) -> usize {
        let Some(matches) = self.matches else { return 0 };
        let before = self.keep.cost();
        let limit = self.keep.cost() + share;
        self.keep.set_limit(limit.min(failure_limit));
        let (index, signals, kinds, cap) = (self.index, self.signals, self.kinds, self.cap);
        self.task_steps += keep_task_lines(
            &mut self.keep,
            index,
            matches,
            kinds,
            cap,
            |_| 0,
            |keep, k| {
                let s = signals.get(k);
                let own = s.failure == Failure::Strong || s.diagnostic() || s.file_header();
                let owner = if own { None } else { owning_failure(index, signals, k) };
                let finding = own || owner.is_some();
                if finding != findings {
                    return false;
                }
                // A section the task names by its title (pytest's
                // `___ test_x ___`), by a name or a word it does not set
                // aside: its block, in order.
                if matches.aside_share(k) == 1.0 && framed_title(index.line(k)) {
                    let kept =
                        keep.add(k, cap, if s.failure == Failure::Strong { Reason::Failure } else { Reason::Task });
                    if kept {
                        keep_titled_block(keep, index, signals, k, cap);
                    }
                    return kept;
                }
                if s.failure == Failure::Strong {
                    return keep.add(k, cap, Reason::Failure);
                }
                if s.diagnostic() {
                    return keep.add(k, cap, Reason::Task);
                }
                // A line of a finding's block (a rustc diagnostic's note, a
                // source line it quotes) answers the task with the finding:
                // the failure line that opens the block, and where it is.
                if let Some(j) = owner {
                    keep.add(j, cap, Reason::Failure);
                    if signals.get(j).located_below() && j + 1 < k {
                        keep.add(j + 1, cap, Reason::Cause);
                    }
                }
                keep.add(k, cap, Reason::Task)
            },
        );
        self.keep.set_limit(failure_limit);
        self.keep.cost().saturating_sub(before)
    }
}

/// The failure line that opens the block holding line `k` of a log: the
/// nearest strong failure or diagnostic line above it in its text, with no blank line
/// between, within [`OWNER_REACH`] lines; a bounded walk.
fn owning_failure(index: &LineIndex<'_>, signals: &Signals, k: usize) -> Option<usize> {
    let start = index.bounds[index.text_of(k)].start.max(k.saturating_sub(OWNER_REACH));
    for j in (start..k).rev() {
        if is_blank(index.line(j)) {
            return None;
        }
        let s = signals.get(j);
        if s.failure == Failure::Strong || s.diagnostic() {
            return Some(j);
        }
    }
    None
}
