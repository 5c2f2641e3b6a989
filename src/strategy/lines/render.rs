//! Rendering a line plan: each line's fate in, pruned blocks out.
//!
//! Kept lines are copied byte for byte. Each maximal dropped run becomes one
//! marker line; a run not longer than its marker line stays as it was, since
//! replacing it would not save anything. A cut line keeps its head and tail
//! around an inline marker. Every marker's text is recorded by hash.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::content::{Block, NewText, Piece, Pruned, Span};
use crate::hash::content_hashes;
use crate::markers::{Unit, format_marker, marker_len};
use crate::strategy::lines::cost::run_cost;
use crate::strategy::lines::index::LineIndex;
use crate::strategy::lines::keep::{Fate, Kept};
use crate::text::{code_point_len, utf16};

/// Renders every text block of `blocks` with the fates `kept` gives the
/// lines of `index`; rich blocks are carried over in place and text blocks
/// left empty are dropped. The dropped texts of all blocks are hashed
/// together, so a large result shares that work between two cores. The
/// work is bounded by the kept lines, not by the lines dropped.
pub fn render_blocks(blocks: &[Block<'_>], index: &LineIndex<'_>, kept: &Kept) -> Pruned {
    let plans: Vec<Vec<Segment>> = (0..index.texts.len()).map(|t| segments(index, t, kept)).collect();
    let removed: Vec<&[u16]> = plans
        .iter()
        .enumerate()
        .flat_map(|(t, plan)| {
            plan.iter().filter_map(move |s| match s {
                Segment::Marker { removed, .. } => Some(&index.texts[t].1[removed.clone()]),
                Segment::Text(_) => None,
            })
        })
        .collect();
    let mut hashes = content_hashes(&removed).into_iter();
    let mut recoverable = BTreeMap::new();
    let mut dropped_lines = 0;
    let mut pieces = Vec::with_capacity(blocks.len());
    let mut chars_after = 0u64;
    let mut plans = plans.into_iter();
    for (index, block) in blocks.iter().enumerate() {
        let Block::Text(text) = *block else {
            pieces.push(Piece::Rich(index));
            continue;
        };
        let plan = plans.next().expect("one plan per text block");
        let mut content = Vec::new();
        for segment in plan {
            match segment {
                Segment::Text(range) => content.extend_from_slice(&text[range]),
                Segment::Marker { removed, count, unit, newline } => {
                    let hash = hashes.next().expect("one hash per marker");
                    content.extend(utf16(&format_marker(&hash, count as u64, unit)));
                    if newline {
                        content.push(u16::from(b'\n'));
                    }
                    if unit == Unit::Lines {
                        dropped_lines += count;
                    }
                    recoverable.entry(hash).or_insert(Span { block: index, range: removed });
                }
            }
        }
        chars_after += code_point_len(&content) as u64;
        if content.is_empty() {
            continue;
        }
        let new = if content == text { NewText::Unchanged } else { NewText::Replaced(content) };
        pieces.push(Piece::Text { block: index, text: new });
    }
    Pruned { pieces, chars_after, recoverable, dropped_lines }
}

/// A piece of rendered output: input text copied as it is, or a marker for
/// the `removed` text (followed by the `\n` that closed a dropped run).
enum Segment {
    Text(Range<usize>),
    Marker { removed: Range<usize>, count: usize, unit: Unit, newline: bool },
}

/// The rendering of text `t` of `index` as segments, the keep-the-short-run
/// rule applied: a line at a time where lines are kept, a jump over each
/// dropped run.
fn segments(index: &LineIndex<'_>, t: usize, kept: &Kept) -> Vec<Segment> {
    let bounds = index.bounds[t].clone();
    let lines = index.lines_of(t);
    let text = lines.text;
    let mut out = Vec::new();
    let mut k = bounds.start;
    while k < bounds.end {
        let line = lines.range(k - bounds.start);
        match kept.fate(k) {
            Fate::Keep => out.push(Segment::Text(line)),
            Fate::Cut { .. } => {
                // Each cut range is a marker, unless it is not longer than one.
                let mut at = line.start;
                for &(from, to) in kept.cuts(k) {
                    let removed = line.start + from as usize..line.start + to as usize;
                    let count = code_point_len(&text[removed.clone()]);
                    if count > marker_len(count as u64, Unit::Chars) {
                        out.push(Segment::Text(at..removed.start));
                        out.push(Segment::Marker {
                            removed: removed.clone(),
                            count,
                            unit: Unit::Chars,
                            newline: false,
                        });
                        at = removed.end;
                    }
                }
                out.push(Segment::Text(at..line.end));
            }
            Fate::Drop => {
                let end = kept.next(k).filter(|&e| e < bounds.end).unwrap_or(bounds.end);
                let range = line.start..lines.range(end - 1 - bounds.start).end;
                let newline = text[range.end - 1] == u16::from(b'\n');
                let n = end - k;
                if index.cps_of(k..end) <= run_cost(n, usize::MAX, newline) {
                    out.push(Segment::Text(range));
                } else {
                    out.push(Segment::Marker { removed: range, count: n, unit: Unit::Lines, newline });
                }
                k = end;
                continue;
            }
        }
        k += 1;
    }
    out
}

#[cfg(test)]
mod tests {
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
}
