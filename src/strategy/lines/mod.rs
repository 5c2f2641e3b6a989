//! Lines mode (`strategy: 'lines'`): which lines of a tool output to keep
//! under a hard budget, and the contract every plan keeps.
//!
//! Lines mode keeps at most `keep` code points (by default what head/tail
//! keeps, so switching strategy changes what is kept, not how much). Each
//! text block is first given a [`Kind`] ([`kind`]); a log is planned by
//! the failure rules ([`log_plan`]), every other kind by its outline
//! ([`outline_plan`]). Either way lines are added to a [`keep`] set that
//! tracks the exact rendered size, and [`render`] writes kept lines byte
//! for byte and one retrievable marker per dropped run.
//!
//! A line longer than a sixteenth of the budget (at least 256 code points),
//! or too long for what is left, is cut inside by the head:tail ratio with
//! a retrievable inline marker; a text with no line structure (fewer than
//! three lines) is one such cut. When not even one marker per text block
//! fits, the result is upstream's head/tail within the same budget.
//!
//! Cost: one pass over the text for the line index and the keyword scan,
//! then work bounded by the lines that carry a signal (or, for outlines,
//! one bounded step per line); memory a few bytes per line. A text within
//! the threshold costs what head/tail costs: it is not read at all.

mod cost;
pub mod floor;
pub mod index;
mod json_reports;
mod json_spans;
mod keep;
pub mod kind;
mod lineset;
mod log_plan;
pub mod order;
pub mod outline;
mod outline_plan;
mod plan;
mod rank;
mod readers;
mod redraw;
pub mod render;
pub mod task;
mod task_plan;

use std::collections::HashSet;
use std::ops::Range;

use crate::config::{Budgets, DEFAULT_CONTEXT_LINES, DEFAULT_EDGE_LINES, ResolvedConfig};
use crate::content::{self, Block, Pruned};
use crate::signals::{LineSignal, Signals};
use crate::strategy::head_tail;
use crate::text::code_points_at_most;
use crate::words::word_enum;
use index::LineIndex;
pub use keep::{Fate, Kept};
pub use kind::Kind;
use kind::Shape;
pub use log_plan::{END_SHARE, START_SHARE, SUMMARY_SHARE, WEAK_SHARE};
use render::render_blocks;
pub use task::Task;

/// A line longer than this share of the budget (but at least
/// [`SHORT_LINE`] code points) is cut when it is kept for its signal.
const LONG_LINE_SHARE: usize = 16;

/// Code points a line may always have and be kept whole (within the
/// budget): the least of the cap [`LONG_LINE_SHARE`] sets.
pub const SHORT_LINE: usize = 256;

/// How lines mode widens what it keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineOptions {
    /// Neighbours kept on each side of every failure line.
    pub context: usize,
    /// Lines kept at least at the start and at the end.
    pub edge: usize,
    /// The kind of every text, when the caller knows it (the command that
    /// printed it); `None`: each text's sample decides ([`kind`]).
    pub kind: Option<Kind>,
}

impl From<&ResolvedConfig> for LineOptions {
    /// A resolved config's lines options (a count past `usize` saturates:
    /// it means "all").
    fn from(config: &ResolvedConfig) -> Self {
        LineOptions { context: config.context_lines as usize, edge: config.edge_lines as usize, kind: None }
    }
}

impl Default for LineOptions {
    fn default() -> Self {
        LineOptions { context: DEFAULT_CONTEXT_LINES as usize, edge: DEFAULT_EDGE_LINES as usize, kind: None }
    }
}

word_enum! {
    /// Why a line was kept, named as `--explain`, `explainRows` and the docs
    /// write it.
    pub enum Reason {
        /// A caller's span touches it.
        Span => "span",
        /// A failure line.
        Failure => "failure",
        /// It explains a failure line (the block under it, the lines above).
        Cause => "cause",
        /// A summary line.
        Summary => "summary",
        /// A stack frame kept for its meaning.
        Frame => "frame",
        /// A failure line repeating a template already kept.
        Repeat => "repeat",
        /// A weak failure word.
        Weak => "weak",
        /// Among the first lines.
        Start => "start",
        /// Among the last lines.
        End => "end",
        /// A neighbour of a kept failure, summary, diagnostic or span line
        /// (the `contextLines` around it, then wider).
        Context => "context",
        /// Budget was left.
        Fill => "fill",
        /// Part of the outline of a text that is not a log (a definition, a
        /// diff header, a file's first search hit, a shallow JSON key).
        Outline => "outline",
        /// It holds the task's rare words, or places or opens a line that does.
        Task => "task",
    }
}

/// Lines mode over a block list, or `None` when the text is within the
/// threshold. When `Some`, the text is at most `keep` code points (so within
/// the threshold) and smaller than before, and `recoverable` undoes every
/// marker.
pub fn prune(blocks: &[Block<'_>], budgets: &Budgets, options: &LineOptions) -> Option<Pruned> {
    prune_with_spans(blocks, budgets, options, &[], &Task::default())
}

/// [`prune`] with caller keep-spans (code-unit ranges over the text blocks
/// taken together, in block order) and the task the text was asked for
/// (an empty task changes nothing).
pub fn prune_with_spans(
    blocks: &[Block<'_>],
    budgets: &Budgets,
    options: &LineOptions,
    spans: &[Range<usize>],
    task: &Task,
) -> Option<Pruned> {
    if code_points_at_most(content::texts(blocks), budgets.threshold()) {
        return None;
    }
    planned(blocks, budgets, options, spans, task).0
}

/// [`prune_with_spans`], and the kind of each text block as the plan took
/// it (for a text within the threshold, as it would take it).
pub fn plan_blocks(
    blocks: &[Block<'_>],
    budgets: &Budgets,
    options: &LineOptions,
    spans: &[Range<usize>],
    task: &Task,
) -> (Option<Pruned>, Vec<Kind>) {
    // A long text is over the threshold without counting; the line pass
    // counts it.
    if code_points_at_most(content::texts(blocks), budgets.threshold()) {
        return (None, kinds(blocks));
    }
    planned(blocks, budgets, options, spans, task)
}

/// The plan of text over the threshold, and its kinds.
fn planned(
    blocks: &[Block<'_>],
    budgets: &Budgets,
    options: &LineOptions,
    spans: &[Range<usize>],
    task: &Task,
) -> (Option<Pruned>, Vec<Kind>) {
    match rendered(blocks, budgets, options, spans, task) {
        Some((plan, pruned)) => (Some(pruned), plan.kinds),
        // Upstream's cut, which always fits.
        None => (head_tail::prune(blocks, &budgets.head_tail_within_keep()), kinds(blocks)),
    }
}

/// The plan of text over the threshold and what it renders to; `None`
/// where upstream's cut is needed instead (not even one marker per text
/// fits, or the texts are too long to index).
fn rendered(
    blocks: &[Block<'_>],
    budgets: &Budgets,
    options: &LineOptions,
    spans: &[Range<usize>],
    task: &Task,
) -> Option<(plan::Plan, Pruned)> {
    let index = LineIndex::new(blocks)?;
    let plan = plan::choose(&index, budgets, options, spans, task, false)?;
    let pruned = render_blocks(blocks, &index, &plan.kept);
    let guaranteed = pruned.chars_after <= budgets.keep() && pruned.chars_after < index.total();
    debug_assert!(guaranteed, "selection kept its budget: {} <= {}", pruned.chars_after, budgets.keep());
    guaranteed.then_some((plan, pruned))
}

/// The lines lines mode's plan of one text over the threshold keeps, and
/// whether it read the text as a log (for the floor's check); `None` where
/// it is within the threshold or gets upstream's cut.
#[cfg(any(test, feature = "guarantees"))]
pub fn kept_lines(text: &[u16], budgets: &Budgets, options: &LineOptions) -> Option<(Kept, bool)> {
    let blocks = [Block::Text(text)];
    if code_points_at_most(content::texts(&blocks), budgets.threshold()) {
        return None;
    }
    let (plan, _) = rendered(&blocks, budgets, options, &[], &Task::default())?;
    Some((plan.kept, plan.kinds == [Kind::Log]))
}

/// The kind of each text block of `blocks` (see [`kind`]), in order.
pub fn kinds(blocks: &[Block<'_>]) -> Vec<Kind> {
    let Some(index) = LineIndex::new(blocks) else { return Vec::new() };
    let shapes: Vec<Shape> = (0..index.texts.len()).map(|t| kind::shape(index.lines_of(t))).collect();
    let mut signals = Signals::default();
    (0..index.texts.len())
        .map(|t| match shapes[t] {
            Shape::Is(k) => k,
            Shape::CodeUnlessItReports { source } => {
                signals.scan(index.lines_of(t), index.bounds[t].start);
                kind::code_or_log(&signals, index.lines_of(t), index.bounds[t].start, source)
            }
        })
        .collect()
}

/// One line of an explained plan: what the line carries and what became of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Explained {
    /// What the signal scan read in the line.
    pub signal: LineSignal,
    /// Whether it was kept, cut or dropped.
    pub fate: Fate,
    /// Why it was kept (`None` when dropped).
    pub reason: Option<Reason>,
    /// A failure or summary line whose template an earlier line already has.
    pub flood: bool,
    /// The kind of the text the line is in.
    pub kind: Kind,
    /// The task's words of weight the line holds (bit `i`: the task's term `i`).
    pub task_words: u32,
}

/// What lines mode reads in each line of `text` and what it does with it,
/// handed to `each` with the line's text, line by line (nothing per line is
/// kept); `false` when the text is within the threshold or gets upstream's cut.
pub fn explain(
    text: &[u16],
    budgets: &Budgets,
    options: &LineOptions,
    task: &Task,
    mut each: impl FnMut(&[u16], Explained),
) -> bool {
    let blocks = [Block::Text(text)];
    if code_points_at_most(content::texts(&blocks), budgets.threshold()) {
        return false;
    }
    let Some(index) = LineIndex::new(&blocks) else { return false };
    let Some(plan) = plan::choose(&index, budgets, options, &[], task, true) else { return false };
    let reasons = plan.reasons.as_deref().unwrap_or(&[]);
    let mut seen = HashSet::new();
    for k in 0..index.line_count() {
        let signal = plan.signals.get(k);
        let flood = signal.template != 0 && !seen.insert(signal.template);
        let kind = plan.kinds[index.text_of(k)];
        let reason = reasons.get(k).copied().flatten();
        let task_words = plan.matches.as_ref().map_or(0, |m| m.terms_on(k));
        each(index.line(k), Explained { signal, fate: plan.kept.fate(k), reason, flood, kind, task_words });
    }
    true
}

#[cfg(test)]
mod tests;
