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
mod tests;
