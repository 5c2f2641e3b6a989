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
