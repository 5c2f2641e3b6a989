//! The frames of a scanned result, indexed, and the key frames of a trace.

use std::ops::Range;

use super::frames::Frame;
use super::traces::FRAME_LINES;
use super::{LineSignal, Signals};

/// The frames of a scanned result, indexed: the maximal runs of frame
/// lines (traces) and the lines that open a frame.
#[derive(Clone, Debug, Default)]
pub struct Traces {
    /// Maximal runs of consecutive frame lines, ascending.
    runs: Vec<Range<u32>>,
    /// Frame heads, ascending, and whether each is the project's.
    heads: Vec<(u32, bool)>,
    /// The heads that are the project's, ascending.
    project_heads: Vec<u32>,
    /// The heads of frames that raised a panic, ascending.
    raised: Vec<u32>,
}

impl Traces {
    /// Adds the frames among `records` (line, signal), ascending and after
    /// every line already indexed; a run continues across the call when its
    /// lines are consecutive.
    pub(crate) fn extend(&mut self, records: impl Iterator<Item = (usize, LineSignal)>) {
        for (k, s) in records {
            if s.frame == Frame::None {
                continue;
            }
            let k = k as u32;
            match self.runs.last_mut() {
                Some(run) if run.end == k => run.end = k + 1,
                _ => self.runs.push(k..k + 1),
            }
            if s.frame_head() {
                self.heads.push((k, s.frame == Frame::Project));
                if s.frame == Frame::Project {
                    self.project_heads.push(k);
                }
                if s.raised() {
                    self.raised.push(k);
                }
            }
        }
    }

    /// Every trace, ascending.
    pub fn all(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        self.runs.iter().map(|r| r.start as usize..r.end as usize)
    }

    /// The trace holding line `k`, if it is a frame line.
    pub fn holding(&self, k: usize) -> Option<Range<usize>> {
        let k = u32::try_from(k).ok()?;
        let i = self.runs.partition_point(|r| r.end <= k);
        self.runs.get(i).filter(|r| r.start <= k).map(|r| r.start as usize..r.end as usize)
    }

    /// The first head in `range`, if any.
    fn first_head(&self, range: Range<usize>) -> Option<usize> {
        let i = self.heads.partition_point(|&(h, _)| (h as usize) < range.start);
        self.heads.get(i).map(|&(h, _)| h as usize).filter(|&h| h < range.end)
    }

    /// The last head in `range`, if any.
    fn last_head(&self, range: Range<usize>) -> Option<usize> {
        let i = self.heads.partition_point(|&(h, _)| (h as usize) < range.end);
        i.checked_sub(1).map(|i| self.heads[i].0 as usize).filter(|&h| h >= range.start)
    }

    /// The first and last project heads in `range`.
    fn project_ends(&self, range: Range<usize>) -> (Option<usize>, Option<usize>) {
        let a = self.project_heads.partition_point(|&h| (h as usize) < range.start);
        let b = self.project_heads.partition_point(|&h| (h as usize) < range.end);
        if a == b {
            (None, None)
        } else {
            (Some(self.project_heads[a] as usize), Some(self.project_heads[b - 1] as usize))
        }
    }

    /// The lines of the frames of `trace` worth keeping, by meaning: the
    /// frame that raised a panic (Go's, under its `panic(…)` frame), the
    /// first frame in the project's own code, the first and the last frame,
    /// and the last in the project's code, each with its detail lines (at
    /// most [`FRAME_LINES`] a frame); the repeated middles are left to
    /// markers. A frame starts at a head, or at the trace's first line.
    pub fn key_frames(&self, signals: &Signals, trace: Range<usize>) -> Vec<usize> {
        if trace.is_empty() {
            return Vec::new();
        }
        let unit = |start: usize| {
            let end = self.first_head(start + 1..trace.end).unwrap_or(trace.end);
            start..end.min(start + FRAME_LINES)
        };
        let start_is_project = signals.get(trace.start).frame == Frame::Project;
        let (first_project, last_project) = self.project_ends(trace.start + 1..trace.end);
        let first_project = if start_is_project { Some(trace.start) } else { first_project };
        let last_project = last_project.or(start_is_project.then_some(trace.start));
        let last = self.last_head(trace.start + 1..trace.end).unwrap_or(trace.start);
        // The last frame that raised a panic (a recovered one panics again above it).
        let b = self.raised.partition_point(|&h| (h as usize) < trace.end);
        let raised = b.checked_sub(1).map(|i| self.raised[i] as usize).filter(|&h| h >= trace.start);
        let mut chosen: Vec<usize> = Vec::with_capacity(5);
        for start in [raised, first_project, Some(trace.start), Some(last), last_project].into_iter().flatten() {
            if !chosen.contains(&start) {
                chosen.push(start);
            }
        }
        chosen.into_iter().flat_map(unit).collect()
    }
}
