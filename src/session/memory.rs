//! An in-memory session log with the surface rules [`prune_session`]
//! relies on: the test double for pruning and retrieval.
//!
//! [`prune_session`]: super::prune_session

use super::{BlockList, EventKind, PruneLog, RetrieveLog, Seq};
use crate::content::{Block, NewText, Piece, Pruned};

/// A content block of a [`MemoryLog`] tool result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemBlock {
    /// A text block.
    Text(Vec<u16>),
    /// A rich block, identified by a label.
    Rich(String),
    /// A text block whose text is not a string.
    NotText,
}

impl BlockList for Vec<MemBlock> {
    fn blocks(&self) -> Vec<Block<'_>> {
        self.iter()
            .map(|b| match b {
                MemBlock::Text(t) => Block::Text(t),
                MemBlock::Rich(_) => Block::Rich,
                MemBlock::NotText => unreachable!("content() gives no such block list"),
            })
            .collect()
    }
}

/// An event of a [`MemoryLog`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemEvent {
    /// A tool result; `replaces` is set on replacements.
    ToolResult {
        /// The tool call it answers.
        call_id: String,
        /// Its content blocks.
        content: Vec<MemBlock>,
        /// The event it replaces, for a replacement.
        replaces: Option<Seq>,
    },
    /// A shadow-price event for one node.
    Prune {
        /// The node shadowed.
        shadowed: Seq,
        /// Its token price.
        price: u64,
    },
    /// Any other event that joins the surface (a user message, a summary).
    Message,
    /// The model's own message on the surface: the results before it were read.
    Reply,
    /// An event that is not on the surface (boundaries, chunks).
    LogOnly,
}

/// Append-only events plus the surface they define.
#[derive(Clone, Debug, Default)]
pub struct MemoryLog {
    /// Every event, by seq.
    pub events: Vec<MemEvent>,
    /// The surface node seqs, in order.
    pub surface: Vec<Seq>,
    /// When set, the append with this index (0-based, counting every
    /// append) fails, to test error propagation.
    pub fail_at_append: Option<usize>,
    appends: usize,
}

/// An append that the log refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected(pub Seq);

impl MemoryLog {
    /// Appends an event; surface events join the end of the surface.
    pub fn push(&mut self, event: MemEvent) -> Seq {
        let seq = self.events.len() as Seq;
        if matches!(event, MemEvent::ToolResult { .. } | MemEvent::Message | MemEvent::Reply) {
            self.surface.push(seq);
        }
        self.events.push(event);
        seq
    }

    fn guarded_append(&mut self) -> Result<(), Rejected> {
        let n = self.appends;
        self.appends += 1;
        if self.fail_at_append == Some(n) { Err(Rejected(self.events.len() as Seq)) } else { Ok(()) }
    }

    fn result(&self, seq: Seq) -> Option<(&String, &Vec<MemBlock>, Option<Seq>)> {
        match self.events.get(usize::try_from(seq).ok()?) {
            Some(MemEvent::ToolResult { call_id, content, replaces }) => Some((call_id, content, *replaces)),
            _ => None,
        }
    }
}

/// The price rule of dsh's token meter for a text-only result: a quarter
/// of the UTF-16 length rounded up, plus framing.
fn price(content: &[MemBlock]) -> u64 {
    content
        .iter()
        .map(|b| match b {
            MemBlock::Text(t) => (t.len() as u64).div_ceil(4) + 4,
            MemBlock::Rich(label) => 4 + (label.len() as u64).div_ceil(4),
            MemBlock::NotText => 4,
        })
        .sum::<u64>()
        + 8
}

impl PruneLog for MemoryLog {
    type Content = Vec<MemBlock>;
    type Error = Rejected;

    fn surface(&mut self) -> Result<Vec<Seq>, Rejected> {
        Ok(self.surface.clone())
    }

    fn is_tool_result(&mut self, seq: Seq) -> Result<bool, Rejected> {
        Ok(self.result(seq).is_some())
    }

    fn content(&mut self, seq: Seq) -> Result<Option<Vec<MemBlock>>, Rejected> {
        let (_, content, _) = self.result(seq).ok_or(Rejected(seq))?;
        Ok((!content.contains(&MemBlock::NotText)).then(|| content.clone()))
    }

    fn replace(&mut self, seq: Seq, content: &Vec<MemBlock>, pruned: &Pruned) -> Result<Seq, Rejected> {
        let (call_id, original, _) = self.result(seq).ok_or(Rejected(seq))?;
        let call_id = call_id.clone();
        let price = price(original);
        let rebuilt = pruned
            .pieces
            .iter()
            .map(|piece| match piece {
                Piece::Rich(i) | Piece::Text { block: i, text: NewText::Unchanged } => content[*i].clone(),
                Piece::Text { text: NewText::Replaced(t), .. } => MemBlock::Text(t.clone()),
            })
            .collect();
        self.guarded_append()?;
        self.events.push(MemEvent::Prune { shadowed: seq, price });
        self.guarded_append()?;
        let at = self.surface.iter().position(|&s| s == seq).ok_or(Rejected(seq))?;
        let new_seq = self.events.len() as Seq;
        self.events.push(MemEvent::ToolResult { call_id, content: rebuilt, replaces: Some(seq) });
        self.surface[at] = new_seq;
        Ok(new_seq)
    }
}

impl RetrieveLog for MemoryLog {
    type Error = Rejected;

    fn surface(&mut self) -> Result<Vec<Seq>, Rejected> {
        Ok(self.surface.clone())
    }

    fn event_count(&mut self) -> Result<Seq, Rejected> {
        Ok(self.events.len() as Seq)
    }

    fn kind(&mut self, seq: Seq) -> Result<EventKind, Rejected> {
        Ok(match (self.result(seq), usize::try_from(seq).ok().and_then(|i| self.events.get(i))) {
            (Some((_, _, replaces)), _) => EventKind::ToolResult { replaces },
            (None, Some(MemEvent::Prune { shadowed, .. })) => EventKind::Prune { shadowed: *shadowed },
            _ => EventKind::Other,
        })
    }

    fn texts(&mut self, seq: Seq) -> Result<Option<Vec<Vec<u16>>>, Rejected> {
        Ok(self.result(seq).map(|(_, content, _)| {
            content.iter().filter_map(|b| if let MemBlock::Text(t) = b { Some(t.clone()) } else { None }).collect()
        }))
    }
}
