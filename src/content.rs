//! Content blocks as the core sees them, and pruned results.

use std::collections::BTreeMap;

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

/// A pruned block list and its size accounting, in code points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pruned {
    pub pieces: Vec<Piece>,
    pub chars_before: u64,
    pub chars_after: u64,
    /// Hash → exact text for every retrieval marker in the pieces (empty
    /// for head/tail, whose marker is not retrievable).
    pub recoverable: BTreeMap<String, Vec<u16>>,
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
