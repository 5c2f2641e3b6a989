//! The keyword pre-check: which lines are worth building a view for.
//!
//! One fast scan over the text narrowed to one byte per code unit
//! ([`kernels::narrow`](crate::kernels::narrow)), in bounded windows, split over two threads on large
//! texts. The keywords are the rules' anchors
//! ([`rules::anchors`](super::rules::anchors)), so a line a rule would
//! match is always flagged; a line no trigger touches is never read by the
//! rules. Three searches share the narrowed window: a SIMD multi-literal
//! search for the keywords ([`Anchors`], which jumps to the next line once
//! a line is flagged), `memmem` for pytest's `E   ` lines, and `memchr`
//! for the failure glyphs.

use std::ops::Range;
use std::sync::OnceLock;

use super::anchors::Anchors;
use super::gate;
use crate::kernels::GLYPH;
use crate::text::TextLines;

/// The keyword scan's triggers: the failure and summary rules' anchors and
/// the weak words (see [`rules::anchors`](super::rules::anchors)).
fn triggers() -> &'static Anchors {
    static TRIGGERS: OnceLock<Anchors> = OnceLock::new();
    TRIGGERS.get_or_init(|| {
        Anchors::new(super::rules::anchors().into_iter().map(|a| (super::rules::narrowed_anchor(a), 0)))
    })
}

/// [`rules::SEARCHED_ALONE`](super::rules::SEARCHED_ALONE), each with its
/// own searcher.
fn searched_alone() -> &'static [memchr::memmem::Finder<'static>] {
    static ALONE: OnceLock<Vec<memchr::memmem::Finder<'static>>> = OnceLock::new();
    ALONE.get_or_init(|| {
        super::rules::SEARCHED_ALONE
            .iter()
            .map(|a| memchr::memmem::Finder::new(&super::rules::narrowed_anchor(a)).into_owned())
            .collect()
    })
}

/// `E   ` at the start of a line's content (pytest's assertion details).
pub(crate) fn starts_pytest_detail(content: &[u16]) -> bool {
    content.len() >= 3
        && content[0] == u16::from(b'E')
        && content[1] == u16::from(b' ')
        && content[2] == u16::from(b' ')
}

/// Whether `line` is one of pytest's `E   ` detail lines (after a CI
/// timestamp and escapes).
pub(crate) fn pytest_detail_line(line: &[u16]) -> bool {
    let at = match line.first() {
        Some(&u) if super::view::may_open_prefix(u) => super::view::content_start(line),
        _ => 0,
    };
    starts_pytest_detail(&line[at..])
}

/// A line the keyword scan flagged, and the gate bits of its narrowed text
/// (see [`gate`](super::gate::gate)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Flagged {
    /// The line.
    pub line: u32,
    /// Which verdict rules its anchors allow.
    pub gate: u8,
}

/// Code units narrowed and scanned at a time, to keep memory flat.
pub(crate) const SCAN_WINDOW: usize = 1 << 16;
/// Longer than any trigger: how far windows inside one long line overlap.
const TRIGGER_OVERLAP: usize = 16;

/// The scan's windows over `lines`: whole lines up to [`SCAN_WINDOW`] code
/// units, or one longer line on its own (read in overlapping pieces).
pub(crate) fn windows(lines: TextLines<'_>) -> Vec<Range<usize>> {
    let n = lines.len();
    let mut out = Vec::with_capacity(lines.text.len() / SCAN_WINDOW + 1);
    let mut first = 0;
    while first < n {
        let limit = lines.starts[first] as usize + SCAN_WINDOW;
        // Line `j < n - 1` ends where line `j + 1` starts: those that end
        // within the window, then the text's last line if it does too.
        let fit = lines.starts[first + 1..].partition_point(|&s| s as usize <= limit);
        let last = if first + fit == n - 1 && lines.text.len() <= limit {
            n - 1
        } else {
            (first + fit).saturating_sub(1).max(first)
        };
        out.push(first..last + 1);
        first = last + 1;
    }
    out
}

/// Buffers a thread reuses from one window to the next.
#[derive(Default)]
pub(crate) struct Buffers {
    narrowed: Vec<u8>,
    found: Vec<u32>,
}

/// Appends the flagged lines of `window` (see [`windows`]) of `lines` to
/// `flagged`, in order: lines containing a trigger keyword outside a
/// path-like token (a match inside `dist/lib/error-once.js` is not a
/// reason to look closer), starting with a failure glyph, or pytest's
/// `E   ` lines.
pub(crate) fn flag_window(
    lines: TextLines<'_>,
    window: Range<usize>,
    buffers: &mut Buffers,
    flagged: &mut Vec<Flagged>,
) {
    let text = lines.text;
    let Buffers { narrowed, found } = buffers;
    let (first, last) = (window.start, window.end - 1);
    {
        let start = lines.range(first).start;
        let end = lines.range(last).end;
        let mut from = start;
        found.clear();
        while from < end {
            let to = (from + SCAN_WINDOW).min(end);
            let window_end = (to + TRIGGER_OVERLAP).min(end);
            crate::kernels::narrow(&text[from..window_end], if from > 0 { text[from - 1] } else { 0 }, narrowed);
            // Offsets come in order within each search; the line cursor follows them.
            let cursor = |line: &mut usize, offset: usize| {
                let unit = from + offset;
                while lines.range(*line).end <= unit {
                    *line += 1;
                }
                (*line, unit)
            };
            // A flagged line needs no second keyword: the search jumps past it.
            let (mut line, mut pos) = (first, 0);
            while let Some((start, end, _)) = triggers().find(narrowed, pos) {
                let (k, unit) = cursor(&mut line, start);
                if in_path_token(text, lines.range(k), unit) {
                    pos = end;
                    continue;
                }
                found.push(k as u32);
                pos = (lines.range(k).end - from).max(end);
            }
            for finder in searched_alone() {
                let (mut line, mut pos) = (first, 0);
                while let Some(offset) = finder.find(&narrowed[pos..]).map(|o| pos + o) {
                    let (k, unit) = cursor(&mut line, offset);
                    if !in_path_token(text, lines.range(k), unit) {
                        found.push(k as u32);
                    }
                    pos = (lines.range(k).end - from).max(offset + 1);
                    if pos >= narrowed.len() {
                        break;
                    }
                }
            }
            // pytest's `E   ` detail lines hold no keyword of their own.
            let (mut line, mut pos) = (first, 0);
            while let Some(offset) = memchr::memmem::find(&narrowed[pos..], b"e  ").map(|o| pos + o) {
                let (k, _) = cursor(&mut line, offset);
                if pytest_detail_line(lines.line(k)) {
                    found.push(k as u32);
                }
                pos = (lines.range(k).end - from).max(offset + 1);
                if pos >= narrowed.len() {
                    break;
                }
            }
            let mut line = first;
            for offset in memchr::memchr_iter(GLYPH, narrowed) {
                let (k, unit) = cursor(&mut line, offset);
                if starts_with_glyph(lines.line(k), unit - lines.range(k).start) {
                    found.push(k as u32);
                }
            }
            from = to;
        }
        found.sort_unstable();
        found.dedup();
        // The gate reads each flagged line's narrowed text while it is at
        // hand (all of it when the lines fit one window, else every bit): a
        // search a line where few are flagged, one over the window where
        // many are (a flood), each match given to its line.
        let whole = end - start <= SCAN_WINDOW;
        let dense = found.len() * 4 >= last + 1 - first;
        if whole && dense {
            let at = flagged.len();
            flagged.extend(found.iter().map(|&k| Flagged { line: k, gate: 0 }));
            let gates = &mut flagged[at..];
            gate::gate_matches(&narrowed[..end - start], |offset, bits| {
                let unit = start + offset;
                let k = lines.line_at(unit);
                if let Ok(i) = gates.binary_search_by_key(&(k as u32), |f| f.line) {
                    gates[i].gate |= bits;
                }
            });
        } else {
            flagged.extend(found.iter().map(|&k| {
                let r = lines.range(k as usize);
                let gate = if whole { gate::gate(&narrowed[r.start - start..r.end - start]) } else { u8::MAX };
                Flagged { line: k, gate }
            }));
        }
    }
}

/// Whether the glyph at `at` is where `line`'s text starts: after a CI
/// timestamp, escapes, white space and a tree's box drawing only (the
/// glyph rule reads `^\s*●\s` in the line's view).
fn starts_with_glyph(line: &[u16], at: usize) -> bool {
    let mut i = super::view::content_start(line);
    while i < at {
        let u = line[i];
        if crate::text::is_space(u) || (0x2500..=0x257F).contains(&u) {
            i += 1;
        } else if let Some(len) = super::view::escape_len(&line[i..]) {
            i += len;
        } else {
            return false;
        }
    }
    i == at
}

/// True when the whitespace-delimited token around `at` (within `line`)
/// holds a `/` or `\\`. Looks at most a few hundred units each way.
fn in_path_token(text: &[u16], line: Range<usize>, at: usize) -> bool {
    const REACH: usize = 256;
    let is_space = |u: u16| u == u16::from(b' ') || u == u16::from(b'\t');
    let is_slash = |u: u16| u == u16::from(b'/') || u == u16::from(b'\\');
    let from = line.start.max(at.saturating_sub(REACH));
    let to = line.end.min(at + REACH);
    let left = text[from..at].iter().rev().take_while(|&&u| !is_space(u));
    let right = text[at..to].iter().take_while(|&&u| !is_space(u));
    left.chain(right).any(|&u| is_slash(u))
}

#[cfg(test)]
mod tests;
