//! The lines of a result's text blocks in one index space.
//!
//! Kept compact so a log of many short lines costs little more than its
//! text: a line is its start offset and ends where the next line of its
//! text starts; code points are prefix sums, so any run's size is two loads.

use std::ops::Range;

use crate::content::Block;
use crate::strategy::lines::render::run_cost;
use crate::text::for_each_line;

/// The text blocks' lines. Invariant: the lines of each text tile it.
pub struct Doc<'a> {
    /// (block index, text) for each text block.
    pub texts: Vec<(usize, &'a [u16])>,
    /// Global line index range of each text.
    pub bounds: Vec<Range<usize>>,
    /// Start (code-unit offset in its text) of each line.
    starts: Vec<u32>,
    /// Prefix sums of line code points (one more entry than lines).
    prefix: Vec<u64>,
}

impl<'a> Doc<'a> {
    /// `None` when a text is too long for 32-bit offsets (no JS string is).
    pub fn new(blocks: &[Block<'a>]) -> Option<Self> {
        let mut texts = Vec::new();
        let mut bounds = Vec::new();
        let mut starts: Vec<u32> = Vec::new();
        let mut prefix: Vec<u64> = vec![0];
        for (block, b) in blocks.iter().enumerate() {
            let Block::Text(text) = *b else { continue };
            u32::try_from(text.len()).ok()?;
            let first = starts.len();
            let mut total = *prefix.last().expect("starts at zero");
            for_each_line(text, |range, points| {
                starts.push(range.start as u32);
                total += points as u64;
                prefix.push(total);
            });
            bounds.push(first..starts.len());
            texts.push((block, text));
        }
        Some(Doc { texts, bounds, starts, prefix })
    }

    /// Number of lines in all texts.
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// Code points of all texts.
    pub fn total(&self) -> u64 {
        *self.prefix.last().expect("starts at zero")
    }

    /// Index of the text holding line `k`.
    pub fn text_of(&self, k: usize) -> usize {
        self.bounds.partition_point(|b| b.end <= k)
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

    /// Code points of line `k`.
    pub fn cps(&self, k: usize) -> usize {
        (self.prefix[k + 1] - self.prefix[k]) as usize
    }

    /// The line ranges of text `t`.
    pub fn ranges(&self, t: usize) -> Vec<Range<usize>> {
        self.bounds[t].clone().map(|k| self.range(k)).collect()
    }

    /// Cost of dropping lines `run` (all in one text) as one run.
    pub fn run_cost(&self, run: Range<usize>) -> usize {
        if run.is_empty() {
            return 0;
        }
        let last = self.range(run.end - 1);
        let newline = self.texts[self.text_of(run.end - 1)].1[last.end - 1] == u16::from(b'\n');
        run_cost(run.len(), (self.prefix[run.end] - self.prefix[run.start]) as usize, newline)
    }
}
