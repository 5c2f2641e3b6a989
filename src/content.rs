//! Content blocks as the core sees them, and pruned results.

use std::collections::BTreeMap;

use crate::lines::Span;

/// One content block as the core sees it: text as UTF-16 code units, any
/// other block opaque.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block<'a> {
    /// A `text` block's text.
    Text(&'a [u16]),
    /// Any non-text block; it costs nothing and is never changed.
    Other,
}

/// One block of a pruned result, in output order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// The input block at this index, carried over as it was (non-text).
    Keep(usize),
    /// A copy of the text block at `block` (its other fields kept) with `text`.
    Text { block: usize, text: NewText },
}

/// The text of a rebuilt text block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NewText {
    /// Equal to the input block's text.
    Unchanged,
    /// New text, never empty.
    Replaced(Vec<u16>),
}

/// A pruned block list and its size in code points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pruned {
    pub pieces: Vec<Piece>,
    pub chars_after: u64,
    /// Hash → where the exact text behind every retrieval marker in the
    /// pieces is in the input (`Span::text` is a block index); empty for
    /// head/tail, whose marker is not retrievable.
    pub recoverable: BTreeMap<String, Span>,
    /// Input lines replaced by line markers (0 for head/tail).
    pub dropped_lines: usize,
}

/// The text blocks of a pruned result, in order, as UTF-16.
pub fn render_texts<'a>(blocks: &'a [Block<'a>], pruned: &'a Pruned) -> impl Iterator<Item = &'a [u16]> + 'a {
    pruned.pieces.iter().filter_map(move |piece| match piece {
        Piece::Keep(_) => None,
        Piece::Text { block, text: NewText::Unchanged } => match blocks[*block] {
            Block::Text(t) => Some(t),
            Block::Other => None,
        },
        Piece::Text { text: NewText::Replaced(t), .. } => Some(t.as_slice()),
    })
}

impl Pruned {
    /// Hash → exact dropped text, read from the `blocks` this was made from.
    pub fn recovered(&self, blocks: &[Block<'_>]) -> BTreeMap<String, Vec<u16>> {
        self.recoverable
            .iter()
            .filter_map(|(hash, span)| match blocks.get(span.text) {
                Some(Block::Text(t)) => Some((hash.clone(), t[span.range.clone()].to_vec())),
                _ => None,
            })
            .collect()
    }
}
