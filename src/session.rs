//! Pruning a whole session log, and finding dropped text in it again.
//!
//! [`prune_session`] takes one stable snapshot of the surface, and for each
//! `tool/result` node whose content the pruner shortens it has the log
//! append, in this order, a `compaction/prune` shadow-price event and the
//! replacement `tool/result` (same data, new content) that replaces that
//! one node. [`retrieve`] walks the log for the replacement whose markers
//! name a hash and recovers the dropped text from the original it cites.
//! The log is reached only through two traits, [`PruneLog`] for pruning and
//! [`RetrieveLog`] for the read-only search, so the same code runs over a JS
//! dsh `Session` (the binding) and over an in-memory log (the tests').

use crate::content::{Block, Pruned, measure};
use crate::hash::HASH_LEN;
use crate::markers::{Unit, format_marker, recover};

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

/// What [`prune_session`] needs of a session log: the surface, the tool
/// results on it, and a way to append a replacement. Every method may fail
/// with the host's error, which is passed through unchanged.
pub trait PruneLog {
    /// The host's copy of one result's content blocks.
    type Content: BlockList;
    /// The host's error.
    type Error;

    /// The surface node seqs, in order; read once per pass.
    fn surface(&mut self) -> Result<Vec<Seq>, Self::Error>;
    /// Whether the event at `seq` is a `tool/result` (false past the end).
    fn is_tool_result(&mut self, seq: Seq) -> Result<bool, Self::Error>;
    /// The content of the `tool/result` at `seq`; an error naming the field
    /// when the event does not have a tool result's shape; `None`, and the
    /// result is left as it is, when a text block's `text` is not a string
    /// (see docs/guarantees.md for how that matches upstream).
    fn content(&mut self, seq: Seq) -> Result<Option<Self::Content>, Self::Error>;
    /// Appends the `compaction/prune` event pricing the result at `seq`, then
    /// its replacement: all of its data, the content rebuilt from `content`
    /// as `pruned` says, replacing `seq..=seq` on the surface and citing it.
    /// Returns the replacement's seq.
    fn replace(&mut self, seq: Seq, content: &Self::Content, pruned: &Pruned) -> Result<Seq, Self::Error>;
}

/// What [`retrieve`] reads of a session log; it writes nothing. Every
/// method may fail with the host's error, which is passed through unchanged.
pub trait RetrieveLog {
    /// The host's error.
    type Error;

    /// The surface node seqs, in order.
    fn surface(&mut self) -> Result<Vec<Seq>, Self::Error>;
    /// Number of events in the log.
    fn event_count(&mut self) -> Result<Seq, Self::Error>;
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
/// `prune` decides a result's new content (`None`: leave it); a result the
/// log cannot give as blocks of text ([`PruneLog::content`]) is left too.
/// Candidates are collected before anything is appended. An error stops
/// the pass at once; appends that landed before it stay in the log.
pub fn prune_session<L, F>(log: &mut L, prune: F) -> Result<PruneReport, L::Error>
where
    L: PruneLog,
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
        let Some(content) = log.content(seq)? else { continue };
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
pub fn retrieve<L: RetrieveLog>(log: &mut L, hash: &str) -> Result<Option<Vec<u16>>, L::Error> {
    let needle = marker_head(hash);
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

/// The start of every marker naming `hash`, up to the space after the hash
/// (the spelling is [`format_marker`]'s).
fn marker_head(hash: &str) -> Vec<u16> {
    let marker = format_marker(hash, 0, Unit::Lines);
    let end = marker.find(hash).map_or(marker.len(), |at| at + hash.len() + 1);
    marker[..end].encode_utf16().collect()
}

/// The hash a caller names in `text`: the first run of [`HASH_LEN`]
/// lowercase hex digits in it, so a bare hash and a whole marker both name
/// one. `None` when there is none.
pub fn find_hash(text: &[u16]) -> Option<String> {
    let hex = |u: &u16| matches!(*u, 0x30..=0x39 | 0x61..=0x66);
    let mut run = 0;
    for (i, unit) in text.iter().enumerate() {
        run = if hex(unit) { run + 1 } else { 0 };
        if run == HASH_LEN {
            return Some(text[i + 1 - HASH_LEN..=i].iter().map(|&u| char::from(u as u8)).collect());
        }
    }
    None
}

#[cfg(test)]
pub(crate) mod memory;

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
    fn a_result_with_a_text_that_is_not_a_string_is_left_and_the_rest_pruned() {
        let mut log = sample();
        let odd = vec![MemBlock::NotText, MemBlock::Text(utf16(&"z".repeat(500)))];
        log.events[2] = MemEvent::ToolResult { call_id: "a".into(), content: odd.clone(), replaces: None };
        let b = budgets();
        let report = prune_session(&mut log, |blocks| head_tail::prune(blocks, &b)).unwrap();
        let seqs: Vec<_> = report.pruned.iter().map(|e| (e.original_seq, e.replacement_seq)).collect();
        assert_eq!(seqs, [(4, 6)]);
        assert!(matches!(&log.events[2], MemEvent::ToolResult { content, .. } if *content == odd));
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
    fn a_hash_is_found_bare_or_in_its_marker() {
        let hash = "3beed198ae3c33ef1574f2c4";
        assert_eq!(find_hash(&utf16(hash)).as_deref(), Some(hash));
        assert_eq!(find_hash(&utf16(&format_marker(hash, 55, Unit::Lines))).as_deref(), Some(hash));
        assert_eq!(find_hash(&utf16(&format!("{hash}ff"))).as_deref(), Some(hash), "the first 24 digits");
        assert_eq!(find_hash(&utf16(&hash.to_uppercase())), None);
        assert_eq!(find_hash(&utf16(&hash[1..])), None);
        let head = String::from_utf16_lossy(&marker_head(hash));
        assert!(head.ends_with(&format!("{hash} ")) && format_marker(hash, 7, Unit::Chars).starts_with(&head));
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
