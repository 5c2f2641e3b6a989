//! Where the budget is spent: one plan per prune. The kind of each text is
//! read from a sample, the signals are scanned where a log (or a doubt
//! about code) needs them, then either the log plan or the outline plan
//! fills one keep-set, within the budget.

use std::ops::Range;

use super::floor::Floor;
use super::index::LineIndex;
use super::keep::{KeepSet, Kept};
use super::kind::{self, Kind, Shape};
use super::task::{Matches, Task};
use super::{LONG_LINE_SHARE, LineOptions, Reason, SHORT_LINE, log_plan, outline_plan, task_plan};
use crate::config::Budgets;
use crate::signals::Signals;

/// A chosen plan: the kept lines, why they were kept (when explaining),
/// and the signals they were chosen from.
pub(super) struct Plan {
    pub kept: Kept,
    pub reasons: Option<Vec<Option<Reason>>>,
    pub signals: Signals,
    /// Each text's kind.
    pub kinds: Vec<Kind>,
    /// Where the task's words are, when it has any found in the text.
    pub matches: Option<Matches>,
    /// What the plan cost, counted.
    #[cfg_attr(not(test), allow(dead_code))]
    pub cost: PlanCost,
}

/// The work of one plan, counted where it could grow faster than the text:
/// the scan's rule passes, comparisons and trace steps, the lines offered
/// to the keep-set, the outline's steps and the spans' lines.
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(not(test), allow(dead_code))]
pub(super) struct PlanCost {
    pub scan: crate::signals::ScanCost,
    pub attempts: usize,
    pub outline: usize,
    pub spans: usize,
    pub task: usize,
}

#[cfg(test)]
impl PlanCost {
    /// All of it, in one number.
    pub fn total(&self) -> usize {
        let s = &self.scan;
        s.flagged
            + s.evaluations
            + s.comparisons
            + s.followed
            + s.read_as_findings
            + self.attempts
            + self.outline
            + self.spans
            + self.task
    }
}

/// Chooses the lines of `index` to keep within `budgets.keep()`, or `None`
/// when not even one marker per text fits.
pub(super) fn choose(
    index: &LineIndex<'_>,
    budgets: &Budgets,
    options: &LineOptions,
    spans: &[Range<usize>],
    task: &Task,
    explain: bool,
) -> Option<Plan> {
    let budget = usize::try_from(budgets.keep()).unwrap_or(usize::MAX);
    let head_tail = (budgets.head(), budgets.tail());
    let mut keep = KeepSet::new(index, budget, head_tail, explain)?;
    let n = index.line_count();
    // Wider than the text means the whole text; clamping keeps loops short.
    let options = LineOptions { context: options.context.min(n), edge: options.edge.min(n), ..*options };
    let cap = if n < 3 { budget } else { (budget / LONG_LINE_SHARE).max(SHORT_LINE) };
    let texts = index.texts.len();
    let shapes: Vec<Shape> =
        (0..texts).map(|t| options.kind.map_or_else(|| kind::shape(index.lines_of(t)), Shape::Is)).collect();
    // Signals are read only where the plan or the kind needs them: for a
    // log, and to tell code from a log that quotes it.
    let needs_signals =
        explain || shapes.iter().any(|s| matches!(s, Shape::Is(Kind::Log) | Shape::CodeUnlessItReports { .. }));
    let mut signals = Signals::default();
    if needs_signals {
        for t in 0..texts {
            signals.scan(index.lines_of(t), index.bounds[t].start);
        }
    }
    let kinds: Vec<Kind> = (0..texts)
        .map(|t| match shapes[t] {
            Shape::Is(k) => k,
            Shape::CodeUnlessItReports { source } => {
                kind::code_or_log(&signals, index.lines_of(t), index.bounds[t].start, source)
            }
        })
        .collect();
    let touched = touched_lines(index, spans);
    let mut cost = PlanCost { spans: spans.len() + touched.len(), ..PlanCost::default() };
    let matches = Matches::find(index, task);
    cost.task = matches.as_ref().map_or(0, |m| m.steps);
    // A path every patch of a diff is under names none of them.
    let matches = matches.and_then(|m| {
        let scope = task_plan::diff_scope(index, &m, &kinds, &mut cost.task);
        m.without(scope)
    });
    // The floor holds where the text is read as a log.
    let floor = (kinds == [Kind::Log]).then(|| Floor::read(index, &signals, budget, head_tail)).flatten();
    // The lines held first: none, then the better blind cut's evidence the
    // plan did not show, then (if the plan then drops other evidence of it)
    // the cut's lines that show all of it, which fit where the cut fits
    // when the caller gave no span.
    let mut held: Vec<(usize, Reason)> = Vec::new();
    for pass in 0.. {
        // The caller's spans come first still (the policy's cached head:
        // a rewrite that kept it differs from what was sent only after it).
        if !held.is_empty() {
            for &k in &touched {
                keep.add(k, cap, Reason::Span);
            }
        }
        for &(k, reason) in &held {
            keep.add(k, cap, reason);
        }
        let task_steps = if kinds.iter().all(|&k| k != Kind::Log) {
            let (outline, task) = outline_plan::plan_outline(
                index,
                &mut keep,
                &kinds,
                &options,
                &touched,
                matches.as_ref(),
                cap,
                head_tail,
            );
            cost.outline += outline;
            task
        } else {
            let mut plan = log_plan::LogPlan {
                index,
                signals: &signals,
                keep,
                options,
                touched: &touched,
                matches: matches.as_ref(),
                kinds: &kinds,
                budget,
                cap,
                head_tail,
                task_steps: 0,
            };
            plan.plan();
            keep = plan.keep;
            plan.task_steps
        };
        cost.task += task_steps;
        cost.attempts += keep.attempts;
        let Some(floor) = floor.as_ref() else { break };
        let missing = floor.missing(keep.kept());
        if missing.is_empty() || pass == 2 {
            break;
        }
        held = if pass == 0 { missing } else { floor.held() };
        keep = KeepSet::new(index, budget, head_tail, explain)?;
    }
    // What room is left shows the text in place of the markers nearly as long.
    let before = keep.attempts;
    keep.fill_short_runs(cap);
    cost.attempts += keep.attempts - before;
    cost.scan = signals.cost;
    let (kept, reasons) = keep.finish();
    Some(Plan { kept, reasons, signals, kinds, matches, cost })
}

/// Global indices (ascending) of the lines touched by `spans` over the
/// joined texts: the spans sorted and merged, then each located by binary
/// search, so the work is the spans and the lines they touch.
fn touched_lines(index: &LineIndex<'_>, spans: &[Range<usize>]) -> Vec<usize> {
    let mut sorted: Vec<Range<usize>> = spans.iter().filter(|s| s.start < s.end).cloned().collect();
    if sorted.is_empty() {
        return Vec::new();
    }
    sorted.sort_unstable_by_key(|s| s.start);
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(sorted.len());
    for s in sorted {
        match merged.last_mut() {
            Some(last) if s.start <= last.end => last.end = last.end.max(s.end),
            _ => merged.push(s),
        }
    }
    let mut out = Vec::new();
    let mut offset = 0;
    let mut first_span = 0;
    for (t, (_, text)) in index.texts.iter().enumerate() {
        let end = offset + text.len();
        let lines = index.lines_of(t);
        let base = index.bounds[t].start;
        // Spans ending before this text cannot touch a later one either.
        while first_span < merged.len() && merged[first_span].end <= offset {
            first_span += 1;
        }
        for s in merged[first_span..].iter().take_while(|s| s.start < end) {
            let (a, b) = (s.start.max(offset) - offset, s.end.min(end) - offset);
            if a >= b {
                continue;
            }
            let first = lines.starts.partition_point(|&st| st as usize <= a) - 1;
            let last = lines.starts.partition_point(|&st| (st as usize) < b) - 1;
            out.extend(base + first..=base + last);
        }
        offset = end;
    }
    out.dedup();
    out
}
