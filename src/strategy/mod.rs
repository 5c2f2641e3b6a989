//! The transforms: upstream's head/tail, or the failure-aware line plan.

pub mod head_tail;
pub mod lines;

use crate::config::{Budgets, ResolvedConfig, StrategyName};
use crate::content::{Block, Pruned};
use lines::LineOptions;

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
    /// The character budgets.
    pub budgets: Budgets,
    /// The transform.
    pub strategy: Strategy,
}

impl From<&ResolvedConfig> for Pruner {
    /// The pruner a resolved config describes.
    fn from(config: &ResolvedConfig) -> Self {
        let strategy = match config.strategy {
            StrategyName::HeadTail => Strategy::HeadTail,
            StrategyName::Lines => Strategy::Lines(LineOptions::from(config)),
        };
        Pruner { budgets: config.budgets(), strategy }
    }
}

impl Pruner {
    /// The pruned content, or `None` when the text is within the threshold.
    /// Either way the guarantees of the strategy's module hold: within the
    /// threshold, smaller than before, final, deterministic.
    pub fn prune(&self, blocks: &[Block<'_>]) -> Option<Pruned> {
        match self.strategy {
            Strategy::HeadTail => head_tail::prune(blocks, &self.budgets),
            Strategy::Lines(options) => lines::prune(blocks, &self.budgets, &options),
        }
    }
}
