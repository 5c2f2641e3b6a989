//! Content blocks as the core sees them, and pruned results.
//!
//! A tool result's content is a list of blocks: `text` blocks, whose text
//! is UTF-16 code units, and *rich* blocks (images, attachments, anything
//! else), which cost nothing, are never changed and keep their place.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::text::code_point_len;

/// One content block as the core sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block<'a> {
    /// A `text` block's text.
    Text(&'a [u16]),
    /// Any other block: opaque to the core.
    Rich,
}

/// One block of a pruned result, in output order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// The rich input block at this index, carried over as it was.
    Rich(usize),
    /// A copy of the text block at `block` (its other fields kept) with `text`.
    Text {
        /// Index of the input block.
        block: usize,
        /// Its text in the result.
        text: NewText,
    },
}

/// The text of a rebuilt text block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NewText {
    /// Equal to the input block's text.
    Unchanged,
    /// New text, never empty.
    Replaced(Vec<u16>),
}

/// Where dropped text is in the input: the index of its block and the
/// code-unit range in that block's text. Results point into their input
/// instead of copying what they drop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// Index of the text block in the input.
    pub block: usize,
    /// Code-unit range in that block's text.
    pub range: Range<usize>,
}

/// A pruned block list. Invariant: `chars_after` is the code points of the
/// rendered texts, and every retrieval marker in them is a key of
/// `recoverable`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pruned {
    /// The output blocks, in order.
    pub pieces: Vec<Piece>,
    /// Code points of the output's text blocks.
    pub chars_after: u64,
    /// Hash → where the exact text behind each retrieval marker is; empty
    /// for head/tail, whose marker is not retrievable.
    pub recoverable: BTreeMap<String, Span>,
    /// Input lines replaced by line markers (0 for head/tail).
    pub dropped_lines: usize,
}

impl Pruned {
    /// Hash → exact dropped text, read from the `blocks` this was made from.
    pub fn recovered(&self, blocks: &[Block<'_>]) -> BTreeMap<String, Vec<u16>> {
        self.recoverable
            .iter()
            .filter_map(|(hash, span)| match blocks.get(span.block) {
                Some(Block::Text(t)) => Some((hash.clone(), t[span.range.clone()].to_vec())),
                _ => None,
            })
            .collect()
    }
}

/// The texts of the text blocks, in order.
pub fn texts<'b, 'a: 'b>(blocks: &'b [Block<'a>]) -> impl Iterator<Item = &'a [u16]> + Clone + 'b {
    blocks.iter().filter_map(|b| match *b {
        Block::Text(t) => Some(t),
        Block::Rich => None,
    })
}

/// Total code points of the text blocks; rich blocks cost nothing.
pub fn measure(blocks: &[Block<'_>]) -> u64 {
    texts(blocks).map(|t| code_point_len(t) as u64).sum()
}

/// The text blocks of a pruned result, in order, as UTF-16.
pub fn render_texts<'a>(blocks: &'a [Block<'a>], pruned: &'a Pruned) -> impl Iterator<Item = &'a [u16]> + 'a {
    pruned.pieces.iter().filter_map(move |piece| match piece {
        Piece::Rich(_) => None,
        Piece::Text { block, text: NewText::Unchanged } => match blocks[*block] {
            Block::Text(t) => Some(t),
            Block::Rich => None,
        },
        Piece::Text { text: NewText::Replaced(t), .. } => Some(t.as_slice()),
    })
}
