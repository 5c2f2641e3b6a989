//! Code points and lines over UTF-16, the way JavaScript holds text.
//!
//! Text is a slice of UTF-16 code units exactly as a JS string stores it,
//! lone surrogates included. A code point is a valid surrogate pair (a high
//! surrogate immediately followed by a low one) or any other single unit, so
//! counts agree with `Array.from(text).length`. Lines split on `"\n"` only,
//! endings kept, so joined lines are the text exactly. Nothing here decodes
//! or re-encodes: offsets are code-unit indices and every slice is byte-exact.

use std::ops::Range;

pub use crate::kernels::{is_high_surrogate, is_low_surrogate, is_space};

/// V8's longest string, in UTF-16 code units: no text from JS is longer.
pub const MAX_JS_STRING_UNITS: usize = 0x1fff_ffe8;

/// Leading spaces and tabs of `line`, in code units: its raw indentation
/// (a line's view reads past a timestamp or a tool's prefix first; see
/// `signals::frames::line_indent`).
pub fn leading_blanks(line: &[u16]) -> usize {
    line.iter().take_while(|&&u| u == u16::from(b' ') || u == u16::from(b'\t')).count()
}

/// Whether `units` start with the ASCII bytes `prefix`, unit for byte.
pub fn starts_with_ascii(units: &[u16], prefix: &[u8]) -> bool {
    units.len() >= prefix.len() && units.iter().zip(prefix).all(|(&u, &b)| u == u16::from(b))
}

/// Where a table row's first columns open: the unit offsets just after
/// the first two runs of two or more spaces within the first `REACH` units
/// (indentation is not a gap), or `None` without two such gaps.
fn first_columns(line: &[u16]) -> Option<[usize; 2]> {
    const REACH: usize = 512;
    let space = u16::from(b' ');
    let line = &line[..line.len().min(REACH)];
    let mut found = [0; 2];
    let (mut n, mut run, mut seen_text) = (0, 0, false);
    for (i, &u) in line.iter().enumerate() {
        if u == space {
            run += 1;
            continue;
        }
        if seen_text && run >= 2 {
            found[n] = i;
            n += 1;
            if n == 2 {
                return Some(found);
            }
        }
        seen_text |= u != u16::from(b'\t') && u != u16::from(b'\n') && u != u16::from(b'\r');
        run = 0;
    }
    None
}

/// Whether `a` and `b` are rows of one table: both open their first two
/// columns (past runs of two or more spaces) at the same offsets.
pub fn same_columns(a: &[u16], b: &[u16]) -> bool {
    first_columns(a).is_some_and(|c| first_columns(b) == Some(c))
}

/// Number of code points in `text`; a lone surrogate counts as one (the
/// [kernel](crate::kernels::code_point_len)).
pub fn code_point_len(text: &[u16]) -> usize {
    crate::kernels::code_point_len(text)
}

/// Number of `\n` units in `text` (the [kernel](crate::kernels::count_newlines)).
pub fn count_newlines(text: &[u16]) -> usize {
    crate::kernels::count_newlines(text)
}

/// Whether `texts` together hold at most `limit` code points. They are
/// counted only when their lengths cannot settle it: `n` units hold between
/// `n / 2` and `n` code points.
pub fn code_points_at_most<'a>(texts: impl Iterator<Item = &'a [u16]> + Clone, limit: u64) -> bool {
    let units: u64 = texts.clone().map(|t| t.len() as u64).sum();
    units <= limit || (units / 2 <= limit && texts.map(|t| code_point_len(t) as u64).sum::<u64>() <= limit)
}

/// Code-unit index just after the first `n` code points (clamped to the
/// length). Never points between the halves of a surrogate pair.
pub fn offset_after(text: &[u16], n: usize) -> usize {
    walk_forward(text, n).0
}

/// Code-unit index where the last `n` code points begin (clamped to zero).
/// Never points between the halves of a surrogate pair.
pub fn offset_before_last(text: &[u16], n: usize) -> usize {
    walk_backward(text, n).0
}

/// Walks at most `n` code points from the start: the index reached and the
/// code points walked (fewer than `n` only at the end of the text).
pub fn walk_forward(text: &[u16], n: usize) -> (usize, usize) {
    let mut at = 0;
    let mut walked = 0;
    while walked < n && at < text.len() {
        at += step_forward(text, at);
        walked += 1;
    }
    (at, walked)
}

/// Walks at most `n` code points back from the end: the index reached and
/// the code points walked (fewer than `n` only at the start of the text).
pub fn walk_backward(text: &[u16], n: usize) -> (usize, usize) {
    let mut at = text.len();
    let mut walked = 0;
    while walked < n && at > 0 {
        at -= step_backward(text, at);
        walked += 1;
    }
    (at, walked)
}

/// Width in code units (1 or 2) of the code point starting at `at < len`.
#[inline]
pub fn step_forward(text: &[u16], at: usize) -> usize {
    if is_high_surrogate(text[at]) && text.get(at + 1).is_some_and(|&u| is_low_surrogate(u)) { 2 } else { 1 }
}

/// Width in code units (1 or 2) of the code point ending at `at > 0`.
#[inline]
pub fn step_backward(text: &[u16], at: usize) -> usize {
    if at >= 2 && is_low_surrogate(text[at - 1]) && is_high_surrogate(text[at - 2]) { 2 } else { 1 }
}

/// Line ranges (code-unit offsets) of `text`, each ending after its `\n`
/// except possibly the last. The ranges tile the text: joined, they are it.
/// Empty text has no lines.
pub fn split_lines(text: &[u16]) -> Vec<Range<usize>> {
    let mut lines = Vec::with_capacity(text.len() / 64 + 1);
    for_each_line(text, |range, _| lines.push(range));
    lines
}

/// The last frame of a line redrawn by bare carriage returns, what a
/// terminal shows of it: the code-unit range after its last `\r` that
/// something other than the line ending follows, up to that ending (and
/// any `\r` closing the content, which draws nothing). `None` for a line
/// with no such `\r`.
pub fn last_frame(line: &[u16]) -> Option<Range<usize>> {
    let mut end = line.len();
    while end > 0 && matches!(line[end - 1], 0x0A | 0x0D) {
        end -= 1;
    }
    line[..end].iter().rposition(|&u| u == 0x0D).map(|r| r + 1..end)
}

/// Calls `f` with each line of `text` (as [`split_lines`] gives them) and
/// its code points, in order, in one pass over the text.
pub fn for_each_line(text: &[u16], mut f: impl FnMut(Range<usize>, usize)) {
    crate::kernels::for_each_line(text, &mut f);
}

/// The lines of one text as a line index holds them: line `k` starts at
/// `starts[k]` and ends where line `k + 1` starts, the last one at the end
/// of the text. Invariant: `starts` ascend from 0 and the lines tile `text`.
#[derive(Clone, Copy, Debug)]
pub struct TextLines<'a> {
    /// The text.
    pub text: &'a [u16],
    /// Where each line starts (code-unit offsets).
    pub starts: &'a [u32],
}

impl<'a> TextLines<'a> {
    /// Number of lines.
    #[inline]
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether the text has no line (it is empty).
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// Code-unit range of line `k`.
    #[inline]
    pub fn range(&self, k: usize) -> Range<usize> {
        let end = self.starts.get(k + 1).map_or(self.text.len(), |&s| s as usize);
        self.starts[k] as usize..end
    }

    /// The code units of line `k`, its ending included.
    #[inline]
    pub fn line(&self, k: usize) -> &'a [u16] {
        &self.text[self.range(k)]
    }

    /// The line holding code unit `unit` (of a non-empty text).
    pub fn line_at(&self, unit: usize) -> usize {
        self.starts.partition_point(|&s| s as usize <= unit).saturating_sub(1)
    }
}

/// The bytes of `units` as they are in memory, for byte searches over
/// UTF-16 text: a needle viewed the same way matches whole units only at
/// even offsets.
pub(crate) fn unit_bytes(units: &[u16]) -> &[u8] {
    // SAFETY: a `[u16]` is `2 * len` initialised bytes; `u8` has alignment 1
    // and the view lives no longer than `units`' borrow.
    unsafe { std::slice::from_raw_parts(units.as_ptr().cast::<u8>(), units.len() * 2) }
}

/// Encodes a `&str` as UTF-16 code units.
pub fn utf16(text: &str) -> Vec<u16> {
    text.encode_utf16().collect()
}

/// One unit as `JSON.stringify` writes it inside a string, where it is not
/// half of a surrogate pair: a quote, a backslash or a control character
/// escaped, a lone surrogate as `\udxxx`, any other unit as it is.
pub fn json_escaped(unit: u16) -> Vec<u16> {
    match unit {
        0x22 => utf16("\\\""),
        0x5C => utf16("\\\\"),
        0x08 => utf16("\\b"),
        0x09 => utf16("\\t"),
        0x0A => utf16("\\n"),
        0x0C => utf16("\\f"),
        0x0D => utf16("\\r"),
        u if u < 0x20 || (0xD800..0xE000).contains(&u) => utf16(&format!("\\u{u:04x}")),
        u => vec![u],
    }
}

/// `units` as `JSON.stringify` writes a string: quoted, each unit as
/// [`json_escaped`] writes it and each surrogate pair as it is.
pub fn json_quoted(units: &[u16]) -> Vec<u16> {
    let mut out = vec![u16::from(b'"')];
    let mut i = 0;
    while i < units.len() {
        if is_high_surrogate(units[i]) && units.get(i + 1).is_some_and(|&u| is_low_surrogate(u)) {
            out.extend_from_slice(&units[i..i + 2]);
            i += 2;
        } else {
            out.extend(json_escaped(units[i]));
            i += 1;
        }
    }
    out.push(u16::from(b'"'));
    out
}

#[cfg(test)]
mod tests;
