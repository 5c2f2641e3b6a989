use super::*;
use crate::content::render_texts;
use crate::markers::expand;
use crate::text::utf16;
use proptest::prelude::*;

/// One text block rendered with `fates`: its output and the pruned result.
fn render_one(text: &[u16], fates: &[Fate]) -> (Vec<u16>, Pruned) {
    let blocks = [Block::Text(text)];
    let index = LineIndex::new(&blocks).unwrap();
    let pruned = render_blocks(&blocks, &index, &Kept::from_fates(fates));
    let out = render_texts(&blocks, &pruned).collect::<Vec<_>>().concat();
    (out, pruned)
}

fn keep_only(keep: &[usize], n: usize) -> Vec<Fate> {
    (0..n).map(|i| if keep.contains(&i) { Fate::Keep } else { Fate::Drop }).collect()
}

#[test]
fn dropped_runs_become_marker_lines_and_short_runs_stay() {
    let text: String = (0..30).map(|i| format!("line number {i:02} of the log\n")).collect();
    let t = utf16(&text);
    let (out, plan) = render_one(&t, &keep_only(&[0, 1, 15, 29], 30));
    assert_eq!(String::from_utf16_lossy(&out).lines().count(), 4 + 2);
    assert_eq!(plan.dropped_lines, 13 + 13);
    assert_eq!(plan.recoverable.len(), 2);
    assert_eq!(expand(&out, &plan.recovered(&[Block::Text(&t)])), t);
    // One short dropped line is shorter than a marker: it stays.
    let short = utf16("keep\nx\nkeep\n");
    let (out, plan) = render_one(&short, &[Fate::Keep, Fate::Drop, Fate::Keep]);
    assert_eq!(out, short);
    assert!(plan.recoverable.is_empty());
}

#[test]
fn a_final_run_without_newline_keeps_none() {
    let t = utf16(&format!("{}\n{}", "a".repeat(80), "b".repeat(80)));
    let (out, plan) = render_one(&t, &[Fate::Keep, Fate::Drop]);
    let s = String::from_utf16_lossy(&out);
    assert!(s.starts_with(&"a".repeat(80)) && s.ends_with("_lines_offloaded>>"));
    assert_eq!(expand(&out, &plan.recovered(&[Block::Text(&t)])), t);
}

#[test]
fn cuts_put_an_inline_marker() {
    let t = utf16(&format!("HEAD{}TAIL\n", "m".repeat(200)));
    let (out, plan) = render_one(&t, &[Fate::Cut { from: 4, to: 204 }]);
    let s = String::from_utf16_lossy(&out);
    assert!(s.starts_with("HEAD<<ccr:") && s.ends_with(" 200_chars_offloaded>>TAIL\n"), "{s}");
    assert_eq!(expand(&out, &plan.recovered(&[Block::Text(&t)])), t);
}

#[test]
fn rich_blocks_keep_their_place_and_emptied_texts_go() {
    let a = utf16(&"dropped line of text\n".repeat(10));
    let b = utf16("kept\n");
    let blocks = [Block::Rich, Block::Text(&a), Block::Rich, Block::Text(&b), Block::Rich];
    let index = LineIndex::new(&blocks).unwrap();
    let mut fates = vec![Fate::Drop; 10];
    fates.push(Fate::Keep);
    let p = render_blocks(&blocks, &index, &Kept::from_fates(&fates));
    let kinds: Vec<_> = p.pieces.iter().map(|x| matches!(x, Piece::Rich(_))).collect();
    assert_eq!(kinds, [true, false, true, false, true]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]
    #[test]
    fn any_keep_set_round_trips(
        units in prop::collection::vec(prop_oneof![3 => Just(10u16), 20 => 0x20u16..0x7f, 1 => 0xD800u16..0xE000, 1 => 0x4E00u16..0x4E10], 0..600),
        keep_bits in prop::collection::vec(any::<bool>(), 0..80),
    ) {
        let n = crate::text::split_lines(&units).len();
        let fates: Vec<Fate> = (0..n).map(|i| if keep_bits.get(i) == Some(&true) { Fate::Keep } else { Fate::Drop }).collect();
        let (out, plan) = render_one(&units, &fates);
        prop_assert_eq!(expand(&out, &plan.recovered(&[Block::Text(&units)])), units.clone());
        prop_assert!(code_point_len(&out) <= code_point_len(&units));
        // Pure: the same inputs give the same plan.
        prop_assert_eq!(render_one(&units, &fates).1, plan);
    }
}
