//! The lines of a result's text blocks in one index space.
//!
//! Compact so that a text of short lines costs little more than the text:
//! per line only its start offset (four bytes); code points come from the
//! offsets less the surrogate pairs before each line, which are counted per
//! line only when the text holds a pair at all. So any run's size is a few
//! loads, and blank lines cost four bytes each.

use std::ops::Range;

use crate::content::Block;
use crate::strategy::lines::cost::run_cost;
use crate::text::{TextLines, count_newlines, for_each_line};

/// Lines in `text`: its newlines, and one more when it does not end in one.
fn line_count(text: &[u16]) -> usize {
    let newlines = count_newlines(text);
    newlines + usize::from(text.last().is_some_and(|&u| u != u16::from(b'\n')))
}

/// The text blocks' lines. Invariant: the lines of each text tile it, and
/// every offset, line index and count fits in 32 bits.
pub struct LineIndex<'a> {
    /// (block index, text) for each text block.
    pub texts: Vec<(usize, &'a [u16])>,
    /// Global line index range of each text.
    pub bounds: Vec<Range<usize>>,
    /// Start (code-unit offset in its text) of each line.
    starts: Vec<u32>,
    /// Surrogate pairs in the lines before each line (one more entry than
    /// lines), or `None` when no text holds a pair.
    pairs: Option<Vec<u32>>,
    /// Code points of all texts.
    total: u64,
}

impl<'a> LineIndex<'a> {
    /// `None` when the texts are too long for 32-bit offsets and counts (no
    /// JS string is).
    pub fn new(blocks: &[Block<'a>]) -> Option<Self> {
        let texts: Vec<(usize, &'a [u16])> = blocks
            .iter()
            .enumerate()
            .filter_map(|(block, b)| if let Block::Text(t) = *b { Some((block, t)) } else { None })
            .collect();
        let units: u64 = texts.iter().map(|(_, t)| t.len() as u64).sum();
        u32::try_from(units).ok()?;
        // Counted first, so the index is allocated once at its exact size.
        let lines: usize = texts.iter().map(|(_, t)| line_count(t)).sum();
        let mut starts = Vec::with_capacity(lines);
        // Allocated at the first line that holds a pair, for the lines so far too.
        let mut pairs: Option<Vec<u32>> = None;
        let mut seen_pairs = 0u32;
        let mut total = 0u64;
        let mut bounds = Vec::with_capacity(texts.len());
        for (_, text) in &texts {
            let first = starts.len();
            for_each_line(text, |range, cps| {
                starts.push(range.start as u32);
                total += cps as u64;
                let in_line = (range.len() - cps) as u32;
                if in_line > 0 && pairs.is_none() {
                    let mut p = Vec::with_capacity(lines + 1);
                    p.resize(starts.len(), 0);
                    pairs = Some(p);
                }
                if let Some(p) = pairs.as_mut() {
                    seen_pairs += in_line;
                    p.push(seen_pairs);
                }
            });
            bounds.push(first..starts.len());
        }
        debug_assert_eq!(starts.len(), lines);
        Some(LineIndex { texts, bounds, starts, pairs, total })
    }

    /// Number of lines in all texts.
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// Code points of all texts.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Index of the text holding line `k`.
    pub fn text_of(&self, k: usize) -> usize {
        if self.bounds.len() == 1 {
            return 0;
        }
        self.bounds.partition_point(|b| b.end <= k)
    }

    /// The lines of text `t`, borrowing the index.
    pub fn lines_of(&self, t: usize) -> TextLines<'_> {
        TextLines { text: self.texts[t].1, starts: &self.starts[self.bounds[t].clone()] }
    }

    /// Code-unit range of line `k` within its text.
    pub fn range(&self, k: usize) -> Range<usize> {
        let t = self.text_of(k);
        let end = if k + 1 < self.bounds[t].end { self.starts[k + 1] as usize } else { self.texts[t].1.len() };
        self.starts[k] as usize..end
    }

    /// The code units of line `k`.
    pub fn line(&self, k: usize) -> &'a [u16] {
        &self.texts[self.text_of(k)].1[self.range(k)]
    }

    /// Where the lines up to `end` (exclusive) of text `t` end.
    #[inline]
    fn end_of(&self, t: usize, end: usize) -> usize {
        if end < self.bounds[t].end { self.starts[end] as usize } else { self.texts[t].1.len() }
    }

    /// Code points of lines `run` (all in one text).
    pub fn cps_of(&self, run: Range<usize>) -> usize {
        if run.is_empty() {
            return 0;
        }
        self.cps_in(self.text_of(run.start), run)
    }

    /// [`Self::cps_of`] for a non-empty run of text `t`.
    #[inline]
    fn cps_in(&self, t: usize, run: Range<usize>) -> usize {
        let units = self.end_of(t, run.end) - self.starts[run.start] as usize;
        let pairs = self.pairs.as_ref().map_or(0, |p| (p[run.end] - p[run.start]) as usize);
        units - pairs
    }

    /// Code points of line `k`.
    pub fn cps(&self, k: usize) -> usize {
        self.cps_of(k..k + 1)
    }

    /// Cost of dropping lines `run` (all in one text) as one run.
    pub fn run_cost(&self, run: Range<usize>) -> usize {
        if run.is_empty() {
            return 0;
        }
        self.run_cost_in(self.text_of(run.start), run)
    }

    /// [`Self::run_cost`] for a run of text `t` (empty or not).
    #[inline]
    pub fn run_cost_in(&self, t: usize, run: Range<usize>) -> usize {
        if run.is_empty() {
            return 0;
        }
        // Every line but a text's last ends in a newline.
        let text = self.texts[t].1;
        let newline = run.end < self.bounds[t].end || text.last() == Some(&u16::from(b'\n'));
        run_cost(run.len(), self.cps_in(t, run), newline)
    }

    /// Bytes the index holds (for the memory tests).
    #[cfg(test)]
    pub fn heap_bytes(&self) -> usize {
        self.starts.capacity() * 4 + self.pairs.as_ref().map_or(0, |p| p.capacity() * 4)
    }
}
