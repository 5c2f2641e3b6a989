//! Choosing the transform: upstream's head/tail, or the line plan.

use crate::config::Budgets;
use crate::content::{Block, Pruned};
use crate::head_tail;
use crate::select::{self, LineOptions};

/// How over-budget content is cut.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strategy {
    /// Upstream's rule: head, fixed marker, tail (the default).
    #[default]
    HeadTail,
    /// Failure-aware lines with retrievable markers.
    Lines(LineOptions),
}

/// A complete pruning configuration: budgets and strategy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pruner {
    pub budgets: Budgets,
    pub strategy: Strategy,
}

impl Pruner {
    /// The pruned content, or `None` when the text is within the threshold.
    /// Either way the guarantees of the strategy's module hold: within the
    /// threshold, smaller than before, final, deterministic.
    pub fn prune(&self, blocks: &[Block<'_>]) -> Option<Pruned> {
        match self.strategy {
            Strategy::HeadTail => head_tail::prune(blocks, &self.budgets),
            Strategy::Lines(options) => select::prune(blocks, &self.budgets, &options),
        }
    }
}
