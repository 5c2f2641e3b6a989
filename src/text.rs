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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const HIGH: u16 = 0xD83D;
    const LOW: u16 = 0xDE00;

    #[test]
    fn counts_pairs_once_and_lone_surrogates_once() {
        assert_eq!(code_point_len(&utf16("")), 0);
        assert_eq!(code_point_len(&utf16("abc")), 3);
        assert_eq!(code_point_len(&utf16("a😀b")), 3);
        assert_eq!(code_point_len(&[HIGH]), 1);
        assert_eq!(code_point_len(&[LOW, HIGH]), 2);
        assert_eq!(code_point_len(&[HIGH, HIGH, LOW]), 2);
        assert_eq!(code_point_len(&[HIGH, LOW, LOW]), 2);
    }

    #[test]
    fn offsets_respect_pairs() {
        let t = utf16("a😀b😀");
        assert_eq!(offset_after(&t, 0), 0);
        assert_eq!(offset_after(&t, 1), 1);
        assert_eq!(offset_after(&t, 2), 3);
        assert_eq!(offset_after(&t, 9), t.len());
        assert_eq!(offset_before_last(&t, 1), 4);
        assert_eq!(offset_before_last(&t, 2), 3);
        assert_eq!(offset_before_last(&t, 9), 0);
        let lone = [HIGH, 0x61, LOW];
        assert_eq!(offset_after(&lone, 1), 1);
        assert_eq!(offset_before_last(&lone, 1), 2);
    }

    #[test]
    fn splits_on_newline_only_keeping_endings() {
        let t = utf16("a\r\nb\u{2028}c\n\nlast");
        let lines = split_lines(&t);
        let parts: Vec<String> = lines.iter().map(|r| String::from_utf16_lossy(&t[r.clone()])).collect();
        assert_eq!(parts, ["a\r\n", "b\u{2028}c\n", "\n", "last"]);
        assert!(split_lines(&[]).is_empty());
        assert_eq!(split_lines(&utf16("x\n")).len(), 1);
    }

    /// Code-point start offsets computed by the standard library's decoder,
    /// which yields one item per pair and one per lone surrogate.
    fn std_starts(units: &[u16]) -> Vec<usize> {
        let mut starts = Vec::new();
        let mut at = 0;
        for item in char::decode_utf16(units.iter().copied()) {
            starts.push(at);
            at += item.map_or(1, char::len_utf16);
        }
        starts
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4096))]
        #[test]
        fn agrees_with_the_std_decoder(units in proptest::collection::vec(
            proptest::prop_oneof![0u16..0x80, 0xD800u16..0xE000, proptest::num::u16::ANY], 0..300)) {
            let starts = std_starts(&units);
            let n_points = starts.len();
            proptest::prop_assert_eq!(code_point_len(&units), n_points);
            // The portable count on its own, whatever this CPU runs.
            proptest::prop_assert_eq!(crate::kernels::portable::code_point_len(&units), n_points);
            for n in 0..=n_points + 1 {
                let after = starts.get(n).copied().unwrap_or(units.len());
                proptest::prop_assert_eq!(offset_after(&units, n), after);
                let before = if n == 0 { units.len() } else { starts.get(n_points.saturating_sub(n)).copied().unwrap_or(0) };
                let before = if n > n_points { 0 } else { before };
                proptest::prop_assert_eq!(offset_before_last(&units, n), before);
            }
        }

        #[test]
        fn newlines_are_counted_on_every_path(units in prop::collection::vec(prop_oneof![Just(10u16), 0u16..0xFFFF], 0..3000)) {
            let want = units.iter().filter(|&&u| u == 10).count();
            prop_assert_eq!(count_newlines(&units), want);
            prop_assert_eq!(crate::kernels::portable::count_newlines(&units), want);
        }

        #[test]
        fn joined_lines_are_the_input(units in prop::collection::vec(prop_oneof![Just(10u16), 0x20u16..0x7f, 0xD800u16..0xE000], 0..200)) {
            let joined: Vec<u16> = split_lines(&units).into_iter().flat_map(|r| units[r].to_vec()).collect();
            prop_assert_eq!(joined, units);
        }

        #[test]
        fn line_walk_agrees_with_a_plain_split(units in prop::collection::vec(prop_oneof![
            Just(10u16), 0x20u16..0x7f, 0xD800u16..0xDC00, 0xDC00u16..0xE000, 0xE000u16..=0xFFFF,
        ], 0..400)) {
            let mut want = Vec::new();
            let mut start = 0;
            for (i, &u) in units.iter().enumerate() {
                if u == 10 {
                    want.push((start..i + 1, code_point_len(&units[start..i + 1])));
                    start = i + 1;
                }
            }
            if start < units.len() {
                want.push((start..units.len(), code_point_len(&units[start..])));
            }
            let mut got = Vec::new();
            for_each_line(&units, |range, points| got.push((range, points)));
            prop_assert_eq!(&got, &want);
            let mut portable = Vec::new();
            crate::kernels::portable::scan_lines(&units, &mut |range, points| portable.push((range, points)), crate::kernels::portable::line_masks);
            prop_assert_eq!(portable, want);
        }
    }
}
