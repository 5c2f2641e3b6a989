//! What explains a failure line in a log's plan: its cause lines (the
//! block under it, the lines above), its nearest ones, and its trace.

use std::collections::HashSet;

use super::LogPlan;
use super::sections::framed_title;
use crate::signals::traces::CAUSE_BELOW;
use crate::signals::{Failure, Frame, LineSignal, content, is_blank, text_starts_with};

/// Cause lines kept right after their failure line; the rest come once
/// every distinct failure has its first ones.
const NEAREST_CAUSES: usize = 1;
/// Value lines (`Expected:`, `Received:`) kept right after their failure at most.
const VALUE_LINES: usize = 2;

impl LogPlan<'_, '_, '_> {
    /// Whether failure line `k` and its `nearest` causes fit what is left
    /// whole, with a marker for each run they may split.
    pub(super) fn fits_with(&self, k: usize, nearest: &[usize]) -> bool {
        // The failure's exact cost; each cause may split off a run, whose
        // marker it pays for.
        let slack = crate::markers::marker_len(self.n() as u64, crate::markers::Unit::Lines);
        let own = self.keep.whole_cost(k).unwrap_or(0);
        let causes: usize =
            nearest.iter().filter(|&&j| !self.keep.is_kept(j)).map(|&j| self.index.cps(j) + slack).sum();
        nearest.is_empty() || own + causes <= self.keep.room()
    }

    /// The cause lines of failure line `k` kept right after it: those stating
    /// the values it compared (`Expected:`, `Received:`), else the first
    /// [`NEAREST_CAUSES`] that are not blank.
    pub(super) fn nearest_causes(&self, k: usize) -> Vec<usize> {
        self.nearest_of(&self.causes(k))
    }

    /// [`LogPlan::nearest_causes`] of a failure whose cause lines are `all`.
    pub(super) fn nearest_of(&self, all: &[usize]) -> Vec<usize> {
        let values: Vec<usize> =
            all.iter().copied().filter(|&c| self.get(c).states_value()).take(VALUE_LINES).collect();
        if !values.is_empty() {
            // A value that opens a block (YAML's `expected: |-`) is stated
            // on the line under it, which travels with it.
            let block = |c: usize| opens_block(self.index.line(c)) && all.contains(&(c + 1));
            return values.into_iter().flat_map(|c| std::iter::once(c).chain(block(c).then_some(c + 1))).collect();
        }
        all.iter().copied().filter(|&c| !is_blank(self.index.line(c))).take(NEAREST_CAUSES).collect()
    }

    /// The cause lines of failure line `k`: the block under it (with the
    /// blank lines inside it), then the lines just above it.
    pub(super) fn causes(&self, k: usize) -> Vec<usize> {
        let n = self.n();
        let mut out = Vec::new();
        let mut pending = Vec::new();
        let below = k + 1..(k + 2 + 2 * CAUSE_BELOW).min(n);
        let mut records = self.signals.within(below.clone()).peekable();
        for j in below {
            let s = match records.peek() {
                Some(&(l, s)) if l == j => {
                    records.next();
                    s
                }
                _ => LineSignal::default(),
            };
            if s.cause() {
                out.append(&mut pending);
                out.push(j);
            } else if s.failure == Failure::None && !s.summary() && s.frame == Frame::None && pending.len() < 2 {
                // Perhaps a blank line inside the block: kept only if more of it follows.
                pending.push(j);
            } else {
                break;
            }
        }
        // The line just above (a title, a command) right after the first line below.
        let mut above = Vec::new();
        let mut records = self.signals.within(k.saturating_sub(CAUSE_BELOW)..k).rev().peekable();
        for j in (k.saturating_sub(CAUSE_BELOW)..k).rev() {
            match records.peek() {
                Some(&(l, s)) if l == j && s.cause() => {
                    records.next();
                    above.push(j);
                }
                // A test's passing assertions (TAP's `ok 149 …`, read or
                // not) stand between its title and its failure.
                Some(&(l, s)) if l == j && s.pass() => {
                    records.next();
                }
                _ if text_starts_with(self.index.line(j), "ok ") => {}
                _ => break,
            }
        }
        let split = out.len().min(1);
        let mut ordered: Vec<usize> = out[..split].to_vec();
        ordered.extend(above.first());
        ordered.extend(&out[split..]);
        ordered.extend(above.iter().skip(1));
        ordered
    }

    /// The stack trace of failure line `k`: the one under it and its cause
    /// lines, else the compiler context right above it.
    pub(super) fn attached_trace(&self, k: usize) -> Option<std::ops::Range<usize>> {
        self.below_trace(k).or_else(|| {
            // A compiler's context, printed above its diagnostic.
            let above = self.signals.traces().holding(k.checked_sub(1)?)?;
            Some(above.start..k)
        })
    }

    /// The line right above distinct failure `k` where it is a repeat
    /// (in `repeats`, ascending) of another failure's template and `k`'s
    /// template has none (in `repeated`): the line that introduces `k`'s
    /// message, as a second panic's `thread … panicked at` does, or the
    /// system call whose error a program then prints. Not above a framed
    /// section title (`____ test ____`, `=== FAILURES ===`): there the line
    /// above ends the section before. Findings (a compiler's, a linter's) are read by rule.
    pub(super) fn repeat_heading(&self, k: usize, repeats: &[u32], repeated: &HashSet<u32>) -> Option<usize> {
        let j = k.checked_sub(1)?;
        let (above, own) = (self.get(j), self.get(k));
        let heading = above.failure == Failure::Strong
            && !above.diagnostic()
            && !own.diagnostic()
            && repeats.binary_search(&(j as u32)).is_ok()
            && !repeated.contains(&own.template)
            && !framed_title(content(self.index.line(k)));
        heading.then_some(j)
    }

    /// The failure line that ends `trace`, hung under failure line `k`,
    /// where it reads otherwise than `k` (Python's exception under its
    /// `Traceback` header, Java's `Caused by:`): what the header is about.
    /// Another failure of `k`'s kind there (Go's next `--- FAIL:`) is not.
    pub(super) fn trace_conclusion(&self, k: usize, trace: &std::ops::Range<usize>) -> Option<usize> {
        let end = trace.end;
        let s = (trace.start > k && end < self.n()).then(|| self.get(end))?;
        (s.failure == Failure::Strong && s.template != self.get(k).template).then_some(end)
    }

    /// The trace under failure line `k`, past its cause block: the first
    /// frame line at most a cause window below it, with no failure or
    /// summary line between.
    pub(super) fn below_trace(&self, k: usize) -> Option<std::ops::Range<usize>> {
        let bound = k + 3 + 2 * CAUSE_BELOW;
        for (j, s) in self.signals.within(k + 1..(bound + 1).min(self.n())) {
            if s.frame != Frame::None {
                return self.signals.traces().holding(j).map(|t| j..t.end);
            }
            if j == bound || s.failure != Failure::None || s.summary() {
                return None;
            }
        }
        None
    }
}

/// Whether `line` ends with a YAML block scalar's indicator (`|`, `|-`,
/// `|+`, `>`, `>-`, `>+`) after a key: its value is on the lines under it.
fn opens_block(line: &[u16]) -> bool {
    let end = line.iter().rposition(|&u| !crate::text::is_space(u) && u != 0x0A && u != 0x0D).map_or(0, |i| i + 1);
    let body = &line[..end];
    let body = body.strip_suffix(&[u16::from(b'-')]).or_else(|| body.strip_suffix(&[u16::from(b'+')])).unwrap_or(body);
    matches!(body, [.., 0x3A, 0x20, 0x7C | 0x3E])
}
