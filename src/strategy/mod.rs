//! The transforms: upstream's head/tail, or the failure-aware line plan.

pub mod head_tail;
pub mod lines;

use crate::config::{Budgets, ResolvedConfig, StrategyName};
use crate::content::{Block, Pruned};
use lines::{Kind, LineOptions, Task};

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

    /// [`Pruner::prune`] for a call that names the kind of its output
    /// (`kind`, lines mode plans by it) and the task it was made for (its
    /// rare words raise lines in lines mode). Head/tail ignores both; with
    /// neither it is [`Pruner::prune`].
    pub fn prune_asked(&self, blocks: &[Block<'_>], kind: Option<Kind>, task: &Task) -> Option<Pruned> {
        match self.strategy {
            Strategy::HeadTail => head_tail::prune(blocks, &self.budgets),
            Strategy::Lines(options) => {
                let options = LineOptions { kind: kind.or(options.kind), ..options };
                lines::prune_with_spans(blocks, &self.budgets, &options, &[], task)
            }
        }
    }
}
