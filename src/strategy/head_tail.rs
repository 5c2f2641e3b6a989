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
        assert_eq!(p.chars_after, 59);
    }

    #[test]
    fn marker_goes_to_the_first_block_touching_the_span_and_empties_drop() {
        let a = utf16("aaaa");
        let b = utf16(&"b".repeat(80));
        let c = utf16("cccc");
        let empty = utf16("");
        let blocks = [Block::Text(&a), Block::Rich, Block::Text(&empty), Block::Text(&b), Block::Text(&c)];
        let p = prune(&blocks, &budgets(50, 4, 4)).unwrap();
        assert_eq!(
            p.pieces,
            vec![
                Piece::Text { block: 0, text: NewText::Unchanged },
                Piece::Rich(1),
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

    #[test]
    fn the_single_long_text_shortcut_cuts_exactly_like_the_general_path() {
        let mut t = utf16(&"ab😀\n".repeat(400));
        t.insert(17, 0xDC00);
        t.push(0xD800);
        let b = budgets(300, 100, 50);
        let quick = prune(&[Block::Text(&t)], &b).unwrap();
        // Two text blocks force the general path; the empty one is dropped.
        let empty = utf16("");
        let general = prune(&[Block::Text(&t), Block::Text(&empty)], &b).unwrap();
        assert_eq!(quick.pieces, general.pieces);
        assert_eq!(quick.chars_after, general.chars_after);
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
            let threshold = head + PRUNE_MARKER_LEN + tail + slack;
            let blocks: Vec<Block<'_>> = texts.iter().map(|t| t.as_deref().map_or(Block::Rich, Block::Text)).collect();
            crate::guarantees::check_head_tail(&blocks, &budgets(threshold, head, tail)).map_err(TestCaseError::fail)?;
        }
    }
}
