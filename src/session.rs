//! Pruning a whole session log.
//!
//! [`prune_session`] takes one stable snapshot of the surface, and for each
//! `tool/result` node whose content the pruner shortens it appends, in this
//! order, a `compaction/prune` shadow-price event and the replacement
//! `tool/result` (same data, new content) that replaces that one node. The
//! log is reached only through [`SessionLog`], so the same code runs over a
//! JS `Session` (the binding) and over [`memory::MemoryLog`] in Rust.

use crate::head_tail::{Block, Pruned};

/// A session event's sequence number.
pub type Seq = u64;

/// A tool result's content blocks, as the core reads them.
pub trait BlockList {
    /// Text blocks as UTF-16, every other block opaque, in order.
    fn blocks(&self) -> Vec<Block<'_>>;
}

/// What [`prune_session`] needs from a session log. Every method may fail
/// with the host's error, which is passed through unchanged.
pub trait SessionLog {
    /// The host's handle to one `tool/result` event.
    type Event;
    /// The host's copy of one result's content blocks.
    type Content: BlockList;
    /// The host's tool-call identity, reported back unchanged.
    type CallId;
    /// The host's token price of a message.
    type Price;
    /// A replacement event built but not yet appended.
    type Replacement;
    /// The host's error.
    type Error;

    /// The surface node seqs, in order; read once per pass.
    fn surface(&mut self) -> Result<Vec<Seq>, Self::Error>;
    /// The event at `seq` when it is a `tool/result`, else `None`.
    fn tool_result(&mut self, seq: Seq) -> Result<Option<Self::Event>, Self::Error>;
    /// The result's content blocks.
    fn content(&mut self, event: &Self::Event) -> Result<Self::Content, Self::Error>;
    /// The replacement for `event`: all of its data, with the content
    /// rebuilt from `content` as `pruned` says.
    fn build_replacement(
        &mut self,
        event: &Self::Event,
        content: &Self::Content,
        pruned: &Pruned,
    ) -> Result<Self::Replacement, Self::Error>;
    /// The token price of `event`'s message, which the replacement shadows.
    fn shadow_price(&mut self, event: &Self::Event) -> Result<Self::Price, Self::Error>;
    /// Appends `compaction/prune` shadowing the single node `seq`.
    fn append_prune(&mut self, seq: Seq, price: Self::Price) -> Result<(), Self::Error>;
    /// Appends the replacement with surface op `replace seq..=seq` citing
    /// `seq`; returns the appended event's seq.
    fn append_replacement(&mut self, seq: Seq, replacement: Self::Replacement) -> Result<Seq, Self::Error>;
    /// The tool-call identity of `event`.
    fn call_id(&mut self, event: &Self::Event) -> Result<Self::CallId, Self::Error>;
}

/// One landed replacement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrunedEntry<C> {
    pub original_seq: Seq,
    pub replacement_seq: Seq,
    pub call_id: C,
    pub chars_before: u64,
    pub chars_after: u64,
    /// Hash → exact text behind each retrieval marker of the replacement
    /// (empty for head/tail).
    pub recoverable: std::collections::BTreeMap<String, Vec<u16>>,
}

/// The outcome of one pass: replacements in surface order and the code
/// points they removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PruneReport<C> {
    pub pruned: Vec<PrunedEntry<C>>,
    pub chars_removed: u64,
}

/// Prunes every over-budget tool result on one snapshot of the surface.
///
/// `prune` decides a result's new content (`None`: leave it). Candidates are
/// collected before anything is appended. An error stops the pass at once;
/// appends that landed before it stay in the log.
pub fn prune_session<L, F>(log: &mut L, prune: F) -> Result<PruneReport<L::CallId>, L::Error>
where
    L: SessionLog,
    F: Fn(&[Block<'_>]) -> Option<Pruned>,
{
    let mut candidates = Vec::new();
    for seq in log.surface()? {
        if let Some(event) = log.tool_result(seq)? {
            candidates.push((seq, event));
        }
    }
    let mut report = PruneReport { pruned: Vec::new(), chars_removed: 0 };
    for (seq, event) in candidates {
        let content = log.content(&event)?;
        let blocks = content.blocks();
        let Some(pruned) = prune(&blocks) else {
            continue;
        };
        let chars_before = crate::head_tail::measure(&blocks);
        let replacement = log.build_replacement(&event, &content, &pruned)?;
        let price = log.shadow_price(&event)?;
        log.append_prune(seq, price)?;
        let replacement_seq = log.append_replacement(seq, replacement)?;
        let call_id = log.call_id(&event)?;
        report.chars_removed += chars_before - pruned.chars_after;
        report.pruned.push(PrunedEntry {
            original_seq: seq,
            replacement_seq,
            call_id,
            chars_before,
            chars_after: pruned.chars_after,
            recoverable: pruned.recovered(&blocks),
        });
    }
    Ok(report)
}

/// An in-memory session log with the surface rules `prune_session` relies
/// on; for Rust callers and tests.
pub mod memory {
    use super::{BlockList, Seq, SessionLog};
    use crate::head_tail::{Block, NewText, Piece, Pruned};

    /// A content block of a [`MemoryLog`] tool result.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum MemBlock {
        Text(Vec<u16>),
        /// A non-text block, identified by a label.
        Rich(String),
    }

    impl BlockList for Vec<MemBlock> {
        fn blocks(&self) -> Vec<Block<'_>> {
            self.iter().map(|b| if let MemBlock::Text(t) = b { Block::Text(t) } else { Block::Other }).collect()
        }
    }

    /// An event of a [`MemoryLog`].
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum MemEvent {
        /// A tool result; `replaces` is set on replacements.
        ToolResult { call_id: String, content: Vec<MemBlock>, replaces: Option<Seq> },
        /// A shadow-price event for one node.
        Prune { shadowed: Seq, price: u64 },
        /// Any other event that joins the surface (a user or assistant message).
        Message,
        /// An event that is not on the surface (boundaries, chunks).
        LogOnly,
    }

    /// Append-only events plus the surface they define.
    #[derive(Clone, Debug, Default)]
    pub struct MemoryLog {
        pub events: Vec<MemEvent>,
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
            if matches!(event, MemEvent::ToolResult { .. } | MemEvent::Message) {
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
    }

    /// The price rule of dsh's token meter for a text-only result: a quarter
    /// of the UTF-16 length rounded up, plus framing.
    fn price(content: &[MemBlock]) -> u64 {
        content
            .iter()
            .map(|b| match b {
                MemBlock::Text(t) => (t.len() as u64).div_ceil(4) + 4,
                MemBlock::Rich(label) => 4 + (label.len() as u64).div_ceil(4),
            })
            .sum::<u64>()
            + 8
    }

    impl SessionLog for MemoryLog {
        type Event = Seq;
        type Content = Vec<MemBlock>;
        type CallId = String;
        type Price = u64;
        type Replacement = MemEvent;
        type Error = Rejected;

        fn surface(&mut self) -> Result<Vec<Seq>, Rejected> {
            Ok(self.surface.clone())
        }

        fn tool_result(&mut self, seq: Seq) -> Result<Option<Seq>, Rejected> {
            Ok(matches!(self.events.get(seq as usize), Some(MemEvent::ToolResult { .. })).then_some(seq))
        }

        fn content(&mut self, event: &Seq) -> Result<Vec<MemBlock>, Rejected> {
            let MemEvent::ToolResult { content, .. } = &self.events[*event as usize] else { unreachable!() };
            Ok(content.clone())
        }

        fn build_replacement(
            &mut self,
            event: &Seq,
            content: &Vec<MemBlock>,
            pruned: &Pruned,
        ) -> Result<MemEvent, Rejected> {
            let MemEvent::ToolResult { call_id, .. } = &self.events[*event as usize] else { unreachable!() };
            let content = pruned
                .pieces
                .iter()
                .map(|piece| match piece {
                    Piece::Keep(i) | Piece::Text { block: i, text: NewText::Unchanged } => content[*i].clone(),
                    Piece::Text { text: NewText::Replaced(t), .. } => MemBlock::Text(t.clone()),
                })
                .collect();
            Ok(MemEvent::ToolResult { call_id: call_id.clone(), content, replaces: Some(*event) })
        }

        fn shadow_price(&mut self, event: &Seq) -> Result<u64, Rejected> {
            let MemEvent::ToolResult { content, .. } = &self.events[*event as usize] else { unreachable!() };
            Ok(price(content))
        }

        fn append_prune(&mut self, seq: Seq, price: u64) -> Result<(), Rejected> {
            self.guarded_append()?;
            self.events.push(MemEvent::Prune { shadowed: seq, price });
            Ok(())
        }

        fn append_replacement(&mut self, seq: Seq, replacement: MemEvent) -> Result<Seq, Rejected> {
            self.guarded_append()?;
            let at = self.surface.iter().position(|&s| s == seq).ok_or(Rejected(seq))?;
            let new_seq = self.events.len() as Seq;
            self.events.push(replacement);
            self.surface[at] = new_seq;
            Ok(new_seq)
        }

        fn call_id(&mut self, event: &Seq) -> Result<String, Rejected> {
            let MemEvent::ToolResult { call_id, .. } = &self.events[*event as usize] else { unreachable!() };
            Ok(call_id.clone())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::memory::{MemBlock, MemEvent, MemoryLog, Rejected};
    use super::*;
    use crate::config::Budgets;
    use crate::head_tail;
    use crate::text::utf16;

    fn result(call: &str, text: &str) -> MemEvent {
        MemEvent::ToolResult { call_id: call.into(), content: vec![MemBlock::Text(utf16(text))], replaces: None }
    }

    fn sample() -> MemoryLog {
        let mut log = MemoryLog::default();
        log.push(MemEvent::Message);
        log.push(MemEvent::LogOnly);
        log.push(result("a", &"x".repeat(200)));
        log.push(result("b", "short"));
        log.push(result("c", &"y".repeat(300)));
        log
    }

    fn budgets() -> Budgets {
        Budgets::new(100, 20, 10).unwrap()
    }

    #[test]
    fn replaces_each_over_budget_result_after_its_price_event() {
        let mut log = sample();
        let b = budgets();
        let report = prune_session(&mut log, |blocks| head_tail::prune(blocks, &b)).unwrap();
        let seqs: Vec<_> =
            report.pruned.iter().map(|e| (e.original_seq, e.replacement_seq, e.call_id.as_str())).collect();
        assert_eq!(seqs, [(2, 6, "a"), (4, 8, "c")]);
        assert_eq!(report.chars_removed, (200 - 69) + (300 - 69));
        assert_eq!(log.events[5], MemEvent::Prune { shadowed: 2, price: 50 + 4 + 8 });
        assert!(matches!(log.events[6], MemEvent::ToolResult { replaces: Some(2), .. }));
        assert_eq!(log.surface, [0, 6, 3, 8]);
        // A second pass finds nothing.
        let again = prune_session(&mut log, |blocks| head_tail::prune(blocks, &b)).unwrap();
        assert!(again.pruned.is_empty());
        assert_eq!(log.events.len(), 9);
    }

    #[test]
    fn a_rejected_append_stops_the_pass_and_keeps_earlier_appends() {
        for fail in 0..4 {
            let mut log = sample();
            log.fail_at_append = Some(fail);
            let b = budgets();
            let err = prune_session(&mut log, |blocks| head_tail::prune(blocks, &b)).unwrap_err();
            assert!(matches!(err, Rejected(_)));
            assert_eq!(log.events.len(), 5 + fail, "appends before the failure stay");
        }
    }
}
