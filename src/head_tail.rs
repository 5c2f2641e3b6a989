//! Upstream's transform: keep a head and a tail, one marker in between.
//!
//! Over a block list, keep exactly `head` leading and `tail` trailing code
//! points of the text blocks taken together; put [`PRUNE_MARKER`] once, in
//! the first text block that touches the removed span; drop text blocks left
//! empty; carry every other block over in place.

use crate::config::{Budgets, PRUNE_MARKER};
pub use crate::content::{Block, NewText, Piece, Pruned};
use crate::text::{code_point_len, offset_after, offset_before_last, utf16};

/// Total code points of the text blocks; other blocks cost nothing.
pub fn measure(blocks: &[Block<'_>]) -> u64 {
    blocks.iter().map(|b| text_len(b).unwrap_or(0)).sum()
}

fn text_len(block: &Block<'_>) -> Option<u64> {
    match block {
        Block::Text(t) => Some(code_point_len(t) as u64),
        Block::Other => None,
    }
}

/// Upstream's head/marker/tail cut, or `None` when the text is within the
/// threshold. When `Some`, `chars_after == head + marker + tail`, which is
/// at most the threshold and less than `chars_before`.
pub fn prune(blocks: &[Block<'_>], budgets: &Budgets) -> Option<Pruned> {
    let lens: Vec<Option<u64>> = blocks.iter().map(text_len).collect();
    let total: u64 = lens.iter().flatten().sum();
    if total <= budgets.threshold() {
        return None;
    }
    // total > threshold >= head + marker + tail, so the span is non-empty.
    let removed_start = budgets.head();
    let removed_end = total - budgets.tail();
    let marker = utf16(PRUNE_MARKER);

    let mut pieces = Vec::with_capacity(blocks.len());
    let mut consumed = 0u64;
    let mut marker_placed = false;
    for (index, (block, len)) in blocks.iter().zip(&lens).enumerate() {
        let (Block::Text(text), Some(len)) = (block, *len) else {
            pieces.push(Piece::Keep(index));
            continue;
        };
        let start = consumed;
        let end = start + len;
        consumed = end;
        let head_points = removed_start.saturating_sub(start).min(len);
        let tail_from = removed_end.saturating_sub(start).min(len);
        let with_marker = !marker_placed && start < removed_end && end > removed_start;
        marker_placed |= with_marker;
        if head_points == tail_from && !with_marker {
            // Nothing of this block is removed.
            if len > 0 {
                pieces.push(Piece::Text { block: index, text: NewText::Unchanged });
            }
            continue;
        }
        let head_end = offset_after(text, head_points as usize);
        // Both cuts are found by walking only the kept code points: the head
        // from the start, the tail back from the end.
        let tail_start = offset_before_last(text, (len - tail_from) as usize).max(head_end);
        let mut out = Vec::with_capacity(head_end + marker.len() + text.len() - tail_start);
        out.extend_from_slice(&text[..head_end]);
        if with_marker {
            out.extend_from_slice(&marker);
        }
        out.extend_from_slice(&text[tail_start..]);
        if !out.is_empty() {
            pieces.push(Piece::Text { block: index, text: NewText::Replaced(out) });
        }
    }
    debug_assert!(marker_placed, "an over-budget text always has a removed span");
    let chars_after = budgets.head() + crate::config::PRUNE_MARKER_LEN + budgets.tail();
    Some(Pruned { pieces, chars_before: total, chars_after, recoverable: Default::default(), dropped_lines: 0 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::render_texts;
    use crate::text::utf16;
    use proptest::prelude::*;

    fn budgets(threshold: u64, head: u64, tail: u64) -> Budgets {
        Budgets::new(threshold, head, tail).unwrap()
    }

    fn texts(blocks: &[Block<'_>], pruned: &Pruned) -> Vec<String> {
        render_texts(blocks, pruned).map(String::from_utf16_lossy).collect()
    }

    #[test]
    fn within_threshold_is_untouched() {
        let t = utf16(&"x".repeat(100));
        assert_eq!(prune(&[Block::Text(&t)], &budgets(100, 10, 10)), None);
    }

    #[test]
    fn single_block_keeps_head_marker_tail() {
        let t = utf16(&format!("{}{}{}", "h".repeat(10), "m".repeat(100), "t".repeat(10)));
        let blocks = [Block::Text(&t)];
        let p = prune(&blocks, &budgets(60, 10, 10)).unwrap();
        assert_eq!(texts(&blocks, &p), [format!("{}{PRUNE_MARKER}{}", "h".repeat(10), "t".repeat(10))]);
        assert_eq!((p.chars_before, p.chars_after), (120, 59));
    }

    #[test]
    fn marker_goes_to_the_first_block_touching_the_span_and_empties_drop() {
        let a = utf16("aaaa");
        let b = utf16(&"b".repeat(80));
        let c = utf16("cccc");
        let empty = utf16("");
        let blocks = [Block::Text(&a), Block::Other, Block::Text(&empty), Block::Text(&b), Block::Text(&c)];
        let p = prune(&blocks, &budgets(50, 4, 4)).unwrap();
        assert_eq!(
            p.pieces,
            vec![
                Piece::Text { block: 0, text: NewText::Unchanged },
                Piece::Keep(1),
                Piece::Text { block: 3, text: NewText::Replaced(utf16(PRUNE_MARKER)) },
                Piece::Text { block: 4, text: NewText::Unchanged },
            ]
        );
    }

    #[test]
    fn the_marker_follows_the_head_even_when_the_head_ends_a_block() {
        let a = utf16(&"a".repeat(10));
        let b = utf16(&"b".repeat(90));
        let empty = utf16("");
        let blocks = [Block::Text(&empty), Block::Text(&a), Block::Text(&empty), Block::Text(&b)];
        let p = prune(&blocks, &budgets(60, 10, 10)).unwrap();
        assert_eq!(texts(&blocks, &p), ["a".repeat(10), format!("{PRUNE_MARKER}{}", "b".repeat(10))]);
    }

    #[test]
    fn never_splits_a_surrogate_pair_and_keeps_lone_ones() {
        let mut t = utf16(&"😀".repeat(60));
        t.insert(0, 0xDC00); // lone low surrogate first
        let blocks = [Block::Text(&t)];
        let p = prune(&blocks, &budgets(50, 3, 2)).unwrap();
        let Piece::Text { text: NewText::Replaced(out), .. } = &p.pieces[0] else { panic!() };
        let mut want = vec![0xDC00];
        want.extend(utf16("😀😀"));
        want.extend(utf16(PRUNE_MARKER));
        want.extend(utf16("😀😀"));
        assert_eq!(out, &want);
    }

    fn arb_text() -> impl Strategy<Value = Vec<u16>> {
        prop::collection::vec(
            prop_oneof![4 => 0x20u16..0x7f, 1 => Just(0x0Au16), 1 => 0xD800u16..0xE000, 1 => 0x4E00u16..0x4E20],
            0..120,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]
        #[test]
        fn budget_guarantees_hold(
            texts in prop::collection::vec(prop::option::of(arb_text()), 0..6),
            head in 0u64..80, tail in 0u64..80, slack in 0u64..60,
        ) {
            let threshold = head + 39 + tail + slack;
            let b = budgets(threshold, head, tail);
            let blocks: Vec<Block<'_>> = texts.iter().map(|t| t.as_deref().map_or(Block::Other, Block::Text)).collect();
            let total = measure(&blocks);
            match prune(&blocks, &b) {
                None => prop_assert!(total <= threshold),
                Some(p) => {
                    prop_assert!(total > threshold);
                    let out: Vec<Vec<u16>> = render_texts(&blocks, &p).map(<[u16]>::to_vec).collect();
                    let after: u64 = out.iter().map(|t| code_point_len(t) as u64).sum();
                    prop_assert_eq!(after, p.chars_after);
                    prop_assert!(after <= threshold && after < total);
                    prop_assert!(out.iter().all(|t| !t.is_empty()));
                    // Head and tail are exactly the original's code points (counted
                    // per block, as upstream does), with the marker between.
                    let atoms: Vec<Vec<u16>> = texts.iter().flatten().flat_map(|t| {
                        char::decode_utf16(t.iter().copied()).scan(0usize, move |at, item| {
                            let w = item.map_or(1, char::len_utf16);
                            *at += w;
                            Some(t[*at - w..*at].to_vec())
                        }).collect::<Vec<_>>()
                    }).collect();
                    let mut want: Vec<u16> = atoms[..head as usize].concat();
                    want.extend(utf16(PRUNE_MARKER));
                    want.extend(atoms[atoms.len() - tail as usize..].concat());
                    prop_assert_eq!(out.concat(), want);
                    // Non-text blocks keep their relative order.
                    let kept: Vec<usize> = p.pieces.iter().filter_map(|x| match x { Piece::Keep(i) => Some(*i), _ => None }).collect();
                    let others: Vec<usize> = blocks.iter().enumerate().filter(|(_, b)| **b == Block::Other).map(|(i, _)| i).collect();
                    prop_assert_eq!(kept, others);
                    // A second pass changes nothing.
                    let again: Vec<Block<'_>> = out.iter().map(|t| Block::Text(t)).collect();
                    prop_assert_eq!(prune(&again, &b), None);
                }
            }
        }
    }
}
