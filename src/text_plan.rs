//! The plan of one text as a pruner makes it, without a session: what the
//! model would see, the exact text behind each marker, the lines dropped,
//! and the kind the text was taken to be.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::command_kind::CallKind;
use crate::content::{Block, render_texts};
use crate::strategy::lines::{self, Kind, Task};
use crate::strategy::{Pruner, Strategy};

/// One text planned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextPlan {
    /// The pruned text; `None` when the text is within the threshold and
    /// stays as it is.
    pub content: Option<Vec<u16>>,
    /// Hash → exact text behind each marker of `content` (empty when
    /// nothing was pruned, and for head/tail, which writes no marker).
    pub recoverable: BTreeMap<String, Vec<u16>>,
    /// Lines replaced by markers.
    pub dropped_lines: usize,
    /// The kind the text was taken to be (one: the text is one block).
    pub kinds: Vec<Kind>,
    /// The words of the command that named the kind; `None`: the sample did.
    pub kind_from: Option<String>,
}

/// `text` planned by `pruner`. `spans` (`[start, end)` code-unit ranges)
/// are lines the caller wants kept first; only lines mode reads them.
/// `named` is the kind the command that printed the text names, which
/// lines mode plans by instead of the sample; `task` is what the text was
/// asked for, whose rare words raise lines in lines mode. A head/tail
/// pruner cuts as it always does and reports the kind lines mode would see.
pub fn plan_text(
    pruner: &Pruner,
    text: &[u16],
    spans: &[Range<usize>],
    named: Option<&CallKind>,
    task: &Task,
) -> TextPlan {
    let blocks = [Block::Text(text)];
    let (pruned, kinds) = match hinted(pruner.strategy, named) {
        Strategy::Lines(options) => lines::plan_blocks(&blocks, &pruner.budgets, &options, spans, task),
        Strategy::HeadTail => (pruner.prune(&blocks), named.map_or_else(|| lines::kinds(&blocks), |n| vec![n.kind])),
    };
    let kind_from = named.map(|n| n.reason.clone());
    match pruned {
        Some(p) => TextPlan {
            content: Some(render_texts(&blocks, &p).collect::<Vec<_>>().concat()),
            recoverable: p.recovered(&blocks),
            dropped_lines: p.dropped_lines,
            kinds,
            kind_from,
        },
        None => TextPlan { content: None, recoverable: BTreeMap::new(), dropped_lines: 0, kinds, kind_from },
    }
}

/// `strategy`, in lines mode planning every text as `named` says.
pub fn hinted(strategy: Strategy, named: Option<&CallKind>) -> Strategy {
    match strategy {
        Strategy::Lines(options) => Strategy::Lines(lines::LineOptions { kind: named.map(|n| n.kind), ..options }),
        other => other,
    }
}

#[cfg(test)]
mod tests;
