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
mod tests;
