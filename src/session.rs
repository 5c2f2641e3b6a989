//! Pruning a whole session log, and finding dropped text in it again.
//!
//! [`prune_session`] takes one stable snapshot of the surface, and for each
//! `tool/result` node whose content the pruner shortens it has the log
//! append, in this order, a `compaction/prune` shadow-price event and the
//! replacement `tool/result` (same data, new content) that replaces that
//! one node. [`retrieve`] walks the log for the replacement whose markers
//! name a hash and recovers the dropped text from the original it cites.
//! The log is reached only through [`SessionLog`], so the same code runs
//! over a JS dsh `Session` (the binding) and over [`memory::MemoryLog`].

use crate::content::{Block, Pruned, measure};
use crate::markers::recover;

/// A session event's sequence number.
pub type Seq = u64;

/// A tool result's content blocks, as the core reads them.
pub trait BlockList {
    /// Text blocks as UTF-16, every other block rich, in order.
    fn blocks(&self) -> Vec<Block<'_>>;
}

/// What [`retrieve`] needs to know of an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A `tool/result`; `replaces` is the one event it replaces on the
    /// surface and cites as its only source, if it is such a replacement.
    ToolResult {
        /// The event replaced and cited, for a single-node replacement.
        replaces: Option<Seq>,
    },
    /// A `compaction/prune` event shadowing exactly one event.
    Prune {
        /// The event it shadows.
        shadowed: Seq,
    },
    /// Any other event.
    Other,
}

/// What [`prune_session`] and [`retrieve`] need from a session log. Every
/// method may fail with the host's error, which is passed through unchanged.
pub trait SessionLog {
    /// The host's copy of one result's content blocks.
    type Content: BlockList;
    /// The host's error.
    type Error;

    /// The surface node seqs, in order; read once per pass.
    fn surface(&mut self) -> Result<Vec<Seq>, Self::Error>;
    /// Number of events in the log.
    fn event_count(&mut self) -> Result<Seq, Self::Error>;
    /// Whether the event at `seq` is a `tool/result` (false past the end).
    fn is_tool_result(&mut self, seq: Seq) -> Result<bool, Self::Error>;
    /// The content of the `tool/result` at `seq`; an error naming the field
    /// when the event does not have a tool result's shape.
    fn content(&mut self, seq: Seq) -> Result<Self::Content, Self::Error>;
    /// Appends the `compaction/prune` event pricing the result at `seq`, then
    /// its replacement: all of its data, the content rebuilt from `content`
    /// as `pruned` says, replacing `seq..=seq` on the surface and citing it.
    /// Returns the replacement's seq.
    fn replace(&mut self, seq: Seq, content: &Self::Content, pruned: &Pruned) -> Result<Seq, Self::Error>;
    /// The event at `seq` as [`retrieve`] sees it; any event that does not
    /// have the expected shape is [`EventKind::Other`].
    fn kind(&mut self, seq: Seq) -> Result<EventKind, Self::Error>;
    /// The texts of the `tool/result` at `seq`, or `None` for an event of
    /// any other shape (never an error for the shape alone).
    fn texts(&mut self, seq: Seq) -> Result<Option<Vec<Vec<u16>>>, Self::Error>;
}

/// One landed replacement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrunedEntry {
    /// The result replaced.
    pub original_seq: Seq,
    /// Its replacement.
    pub replacement_seq: Seq,
    /// Code points of the original's text.
    pub chars_before: u64,
    /// Code points of the replacement's text.
    pub chars_after: u64,
    /// Hash → exact text behind each retrieval marker of the replacement
    /// (empty for head/tail).
    pub recoverable: std::collections::BTreeMap<String, Vec<u16>>,
}

/// The outcome of one pass: replacements in surface order and the code
/// points they removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PruneReport {
    /// The replacements, in surface order.
    pub pruned: Vec<PrunedEntry>,
    /// Code points removed by all of them.
    pub chars_removed: u64,
}

/// Prunes every over-budget tool result on one snapshot of the surface.
///
/// `prune` decides a result's new content (`None`: leave it). Candidates are
/// collected before anything is appended. An error stops the pass at once;
/// appends that landed before it stay in the log.
pub fn prune_session<L, F>(log: &mut L, prune: F) -> Result<PruneReport, L::Error>
where
    L: SessionLog,
    F: Fn(&[Block<'_>]) -> Option<Pruned>,
{
    let mut candidates = Vec::new();
    for seq in log.surface()? {
        if log.is_tool_result(seq)? {
            candidates.push(seq);
        }
    }
    let mut report = PruneReport { pruned: Vec::new(), chars_removed: 0 };
    for seq in candidates {
        let content = log.content(seq)?;
        let blocks = content.blocks();
        let Some(pruned) = prune(&blocks) else {
            continue;
        };
        let chars_before = measure(&blocks);
        let replacement_seq = log.replace(seq, &content, &pruned)?;
        report.chars_removed += chars_before - pruned.chars_after;
        report.pruned.push(PrunedEntry {
            original_seq: seq,
            replacement_seq,
            chars_before,
            chars_after: pruned.chars_after,
            recoverable: pruned.recovered(&blocks),
        });
    }
    Ok(report)
}

/// The exact text behind the marker `hash`, recovered from the original
/// result a replacement cites; `None` unless a replacement of this
/// pruner's holds a verifiable marker with that hash.
///
/// Provenance: a replacement counts only when it is on the current surface
/// (a later rewrite that replaced it takes its markers with it) and is
/// directly preceded by the `compaction/prune` event that shadows the
/// same one result, the pair [`prune_session`] appends. Only a replacement
/// whose text names the hash has its original read.
pub fn retrieve<L: SessionLog>(log: &mut L, hash: &str) -> Result<Option<Vec<u16>>, L::Error> {
    let needle: Vec<u16> = format!("<<ccr:{hash} ").encode_utf16().collect();
    let len = log.event_count()?;
    let mut surface = log.surface()?;
    surface.sort_unstable();
    for seq in surface {
        if seq == 0 || seq >= len {
            continue;
        }
        let EventKind::ToolResult { replaces: Some(source) } = log.kind(seq)? else { continue };
        if source >= seq || log.kind(seq - 1)? != (EventKind::Prune { shadowed: source }) {
            continue;
        }
        let Some(pruned) = log.texts(seq)? else { continue };
        let naming: Vec<&Vec<u16>> = pruned.iter().filter(|p| p.windows(needle.len()).any(|w| w == needle)).collect();
        if naming.is_empty() {
            continue;
        }
        let Some(original) = log.texts(source)? else { continue };
        for p in naming {
            for o in &original {
                if let Some(text) = recover(o, p, hash) {
                    return Ok(Some(text));
                }
            }
        }
    }
    Ok(None)
}

/// An in-memory session log with the surface rules `prune_session` relies
/// on; for Rust callers and tests.
pub mod memory {
    use super::{BlockList, EventKind, Seq, SessionLog};
    use crate::content::{Block, NewText, Piece, Pruned};

    /// A content block of a [`MemoryLog`] tool result.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum MemBlock {
        /// A text block.
        Text(Vec<u16>),
        /// A rich block, identified by a label.
        Rich(String),
    }

    impl BlockList for Vec<MemBlock> {
        fn blocks(&self) -> Vec<Block<'_>> {
            self.iter().map(|b| if let MemBlock::Text(t) = b { Block::Text(t) } else { Block::Rich }).collect()
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
        /// Any other event that joins the surface (a user or assistant message).
        Message,
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
            })
            .sum::<u64>()
            + 8
    }

    impl SessionLog for MemoryLog {
        type Content = Vec<MemBlock>;
        type Error = Rejected;

        fn surface(&mut self) -> Result<Vec<Seq>, Rejected> {
            Ok(self.surface.clone())
        }

        fn event_count(&mut self) -> Result<Seq, Rejected> {
            Ok(self.events.len() as Seq)
        }

        fn is_tool_result(&mut self, seq: Seq) -> Result<bool, Rejected> {
            Ok(self.result(seq).is_some())
        }

        fn content(&mut self, seq: Seq) -> Result<Vec<MemBlock>, Rejected> {
            self.result(seq).map(|(_, content, _)| content.clone()).ok_or(Rejected(seq))
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
}

#[cfg(test)]
mod tests {
    use super::memory::{MemBlock, MemEvent, MemoryLog, Rejected};
    use super::*;
    use crate::config::Budgets;
    use crate::strategy::head_tail;
    use crate::strategy::lines::{self, LineOptions};
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
        let seqs: Vec<_> = report.pruned.iter().map(|e| (e.original_seq, e.replacement_seq)).collect();
        assert_eq!(seqs, [(2, 6), (4, 8)]);
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

    #[test]
    fn retrieve_finds_every_dropped_run_and_nothing_else() {
        let text: String = (0..400).map(|i| format!("step {i} of a long build\n")).collect();
        let mut log = MemoryLog::default();
        log.push(result("a", &text));
        let b = Budgets::new(2000, 0, 0).and_then(|b| b.with_keep(2000)).unwrap();
        let report = prune_session(&mut log, |blocks| lines::prune(blocks, &b, &LineOptions::default())).unwrap();
        let entry = &report.pruned[0];
        assert!(!entry.recoverable.is_empty());
        for (hash, dropped) in &entry.recoverable {
            assert_eq!(retrieve(&mut log, hash).unwrap().as_ref(), Some(dropped));
        }
        assert_eq!(retrieve(&mut log, "0123456789abcdef01234567").unwrap(), None);
    }

    #[test]
    fn retrieve_answers_only_for_its_own_replacements_still_on_the_surface() {
        let text: String = (0..400).map(|i| format!("step {i} of a long build\n")).collect();
        let b = Budgets::new(2000, 0, 0).and_then(|b| b.with_keep(2000)).unwrap();
        let prune = |blocks: &[Block<'_>]| lines::prune(blocks, &b, &LineOptions::default());
        let pruned_log = || {
            let mut log = MemoryLog::default();
            log.push(result("a", &text));
            let report = prune_session(&mut log, prune).unwrap();
            let (hash, dropped) =
                report.pruned[0].recoverable.iter().next().map(|(h, d)| (h.clone(), d.clone())).unwrap();
            (log, report.pruned[0].replacement_seq, hash, dropped)
        };
        // Ours, on the surface: answered.
        let (mut log, _, hash, dropped) = pruned_log();
        assert_eq!(retrieve(&mut log, &hash).unwrap(), Some(dropped));
        // The same replacement appended by someone else, with no prune event before it.
        let (mut log, replacement, hash, _) = pruned_log();
        let copy = log.events[replacement as usize].clone();
        log.events.truncate(replacement as usize - 1);
        log.surface = vec![log.push(copy)];
        assert_eq!(retrieve(&mut log, &hash).unwrap(), None);
        // A prune event that shadows another result.
        let (mut log, replacement, hash, _) = pruned_log();
        log.events[replacement as usize - 1] = MemEvent::Prune { shadowed: 7, price: 1 };
        assert_eq!(retrieve(&mut log, &hash).unwrap(), None);
        // A later rewrite (a redaction) replaced ours on the surface.
        let (mut log, replacement, hash, _) = pruned_log();
        let redacted =
            log.push(MemEvent::ToolResult { call_id: "a".into(), content: vec![], replaces: Some(replacement) });
        log.surface = vec![redacted];
        assert_eq!(retrieve(&mut log, &hash).unwrap(), None);
    }
}
