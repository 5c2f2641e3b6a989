//! Upstream's transform: keep a head and a tail, one marker in between.
//!
//! Over a block list, keep exactly `head` leading and `tail` trailing code
//! points of the text blocks taken together; put [`PRUNE_MARKER`] once, in
//! the first text block that touches the removed span; drop text blocks left
//! empty; carry every other block over in place.

use crate::config::{Budgets, PRUNE_MARKER, PRUNE_MARKER_LEN};
use crate::content::{Block, NewText, Piece, Pruned};
use crate::text::{code_points_at_most, utf16, walk_backward, walk_forward};

/// Upstream's head/marker/tail cut, or `None` when the text is within the
/// threshold. When `Some`, `chars_after == head + marker + tail`, which is
/// at most the threshold and less than the text's code points.
///
/// Only what is kept is walked code point by code point: the head from the
/// front, the tail from the back. The text in between is counted only when
/// its length in units cannot settle the threshold test (`n` units hold
/// between `n / 2` and `n` code points), so a large result costs little more
/// than reading it.
pub fn prune(blocks: &[Block<'_>], budgets: &Budgets) -> Option<Pruned> {
    let texts: Vec<(usize, &[u16])> = blocks
        .iter()
        .enumerate()
        .filter_map(|(i, b)| match b {
            Block::Text(t) => Some((i, *t)),
            Block::Rich => None,
        })
        .collect();
    let threshold = budgets.threshold();
    if texts.iter().map(|(_, t)| t.len() as u64).sum::<u64>() <= threshold {
        return None;
    }
    let (head, tail) = (budgets.head() as usize, budgets.tail() as usize);

    // The head cut: the first text the head does not cover, and where in it.
    let mut covered = 0;
    let mut head_cut = None;
    for (k, (_, text)) in texts.iter().enumerate() {
        let (at, walked) = walk_forward(text, head - covered);
        if at < text.len() {
            head_cut = Some((k, at));
            break;
        }
        covered += walked;
    }
    // No text left after the head: everything fits in it.
    let (h, head_at) = head_cut?;

    // The tail cut, from the back, never before the head cut.
    let mut covered = 0;
    let mut tail_cut = None;
    for k in (h..texts.len()).rev() {
        let text = texts[k].1;
        let floor = if k == h { head_at } else { 0 };
        let (at, walked) = walk_backward(&text[floor..], tail - covered);
        if at > 0 || covered + walked == tail {
            tail_cut = Some((k, floor + at));
            break;
        }
        covered += walked;
    }
    // Head and tail meet: the text is at most head + tail code points.
    let (t, tail_at) = tail_cut?;

    // Is the text between the cuts long enough to prune?
    let between: Vec<&[u16]> = if h == t {
        vec![&texts[h].1[head_at..tail_at]]
    } else {
        let mut parts = vec![&texts[h].1[head_at..]];
        parts.extend(texts[h + 1..t].iter().map(|(_, text)| *text));
        parts.push(&texts[t].1[..tail_at]);
        parts
    };
    let fixed = (head + tail) as u64;
    if code_points_at_most(between.iter().copied(), threshold - fixed) {
        return None;
    }

    let mut pieces = Vec::with_capacity(blocks.len());
    let mut next_text = 0;
    for (index, block) in blocks.iter().enumerate() {
        let Block::Text(text) = *block else {
            pieces.push(Piece::Rich(index));
            continue;
        };
        let k = next_text;
        next_text += 1;
        let kept = if k < h || k > t || (k == t && k != h && tail_at == 0) {
            // Wholly in the head or the tail.
            Some(NewText::Unchanged)
        } else if k == h {
            let end = if h == t { tail_at } else { text.len() };
            let mut out = Vec::with_capacity(head_at + PRUNE_MARKER.len() + text.len() - end);
            out.extend_from_slice(&text[..head_at]);
            out.extend(utf16(PRUNE_MARKER));
            out.extend_from_slice(&text[end..]);
            Some(NewText::Replaced(out))
        } else if k == t {
            Some(NewText::Replaced(text[tail_at..].to_vec()))
        } else {
            None
        };
        match kept {
            Some(NewText::Unchanged) if !text.is_empty() => {
                pieces.push(Piece::Text { block: index, text: NewText::Unchanged })
            }
            Some(NewText::Replaced(out)) if !out.is_empty() => {
                pieces.push(Piece::Text { block: index, text: NewText::Replaced(out) })
            }
            _ => {}
        }
    }
    let chars_after = fixed + PRUNE_MARKER_LEN;
    Some(Pruned { pieces, chars_after, recoverable: Default::default(), dropped_lines: 0 })
}

#[cfg(test)]
mod tests;
