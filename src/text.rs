//! Code points and lines over UTF-16, the way JavaScript holds text.
//!
//! Text is a slice of UTF-16 code units exactly as a JS string stores it,
//! lone surrogates included. A code point is a valid surrogate pair (a high
//! surrogate immediately followed by a low one) or any other single unit, so
//! counts agree with `Array.from(text).length`. Lines split on `"\n"` only,
//! endings kept, so joined lines are the text exactly. Nothing here decodes
//! or re-encodes: offsets are code-unit indices and every slice is byte-exact.

use std::ops::Range;

/// V8's longest string, in UTF-16 code units: no text from JS is longer.
pub const MAX_JS_STRING_UNITS: usize = 0x1fff_ffe8;

/// True for a UTF-16 high (leading) surrogate.
#[inline]
pub fn is_high_surrogate(unit: u16) -> bool {
    (0xD800..0xDC00).contains(&unit)
}

/// True for a UTF-16 low (trailing) surrogate.
#[inline]
pub fn is_low_surrogate(unit: u16) -> bool {
    (0xDC00..0xE000).contains(&unit)
}

/// ASCII white space as the rules' `\s` reads it: space, tab, line feed,
/// vertical tab, form feed, carriage return. The one white-space set of
/// the line walks (a view's words, blank lines, a JSON text's ends).
#[inline(always)]
pub fn is_space(unit: u16) -> bool {
    unit == 0x20 || (0x09..=0x0D).contains(&unit)
}

/// Number of code points in `text`; a lone surrogate counts as one.
///
/// Pairs never overlap (a unit is high or low, not both), so the count is the
/// length minus the number of adjacent high-then-low positions. Both loops
/// below vectorise: a block without surrogates (most real text) costs one
/// test per unit, a block with some a compare-and-add per unit.
pub fn code_point_len(text: &[u16]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::avx2() {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { crate::cpu::x86_64::code_point_len(text) };
    }
    count_code_points(text)
}

/// [`code_point_len`]'s loop, inlined into each CPU's build of it.
#[inline(always)]
pub(crate) fn count_code_points(text: &[u16]) -> usize {
    if text.len() < 2 {
        return text.len();
    }
    // Blocks of adjacent pairs, summed in u16 lanes: vectorises to a few
    // compares and adds per 8 or 16 units.
    const BLOCK: usize = 1 << 11;
    let mut pairs = 0usize;
    let mut start = 0;
    while start + 1 < text.len() {
        let end = (start + BLOCK).min(text.len() - 1);
        if !text[start..=end].iter().fold(false, |any, &u| any | (u & 0xF800 == 0xD800)) {
            start = end;
            continue;
        }
        // At most BLOCK - 1 pairs: u16 lanes cannot overflow.
        let block = text[start..end]
            .iter()
            .zip(&text[start + 1..end + 1])
            .fold(0u16, |n, (&a, &b)| n + u16::from(is_high_surrogate(a) & is_low_surrogate(b)));
        pairs += block as usize;
        start = end;
    }
    text.len() - pairs
}

/// Number of `\n` units in `text`: blocks summed in u16 lanes, which
/// vectorises (with AVX2 where the CPU has it).
pub fn count_newlines(text: &[u16]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::avx2() {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { crate::cpu::x86_64::count_newlines(text) };
    }
    newlines_in(text)
}

/// [`count_newlines`]'s loop, inlined into each CPU's build of it.
#[inline(always)]
pub(crate) fn newlines_in(text: &[u16]) -> usize {
    // At most 2^16 - 1 newlines a block: u16 lanes cannot overflow.
    text.chunks(u16::MAX as usize)
        .map(|block| block.iter().fold(0u16, |n, &u| n + u16::from(u == u16::from(b'\n'))) as usize)
        .sum()
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
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::avx2() {
        // SAFETY: the CPU has AVX2 and POPCNT, checked just above.
        return unsafe { crate::cpu::x86_64::for_each_line(text, &mut f) };
    }
    scan_lines::<false>(text, &mut f);
}

/// Newline and pair-start bit masks of units `0..32` of `chunk` (33 units:
/// the last one only completes a pair begun at unit 31).
pub(crate) fn portable_masks(chunk: &[u16; 33]) -> (u32, u32) {
    let mut newlines = 0u32;
    let mut pairs = 0u32;
    for i in 0..32 {
        newlines |= u32::from(chunk[i] == u16::from(b'\n')) << i;
        pairs |= u32::from(is_high_surrogate(chunk[i]) & is_low_surrogate(chunk[i + 1])) << i;
    }
    (newlines, pairs)
}

/// The line walk behind [`for_each_line`]: 32 units at a time, a line's
/// code points are its units less the pairs that start inside it (a line
/// ends at `\n` or at the end, so no pair straddles two lines).
/// `AVX2` only where the caller has the feature enabled.
#[inline(always)]
pub(crate) fn scan_lines<const AVX2: bool>(text: &[u16], f: &mut impl FnMut(Range<usize>, usize)) {
    let mut start = 0;
    // Pairs starting before `start`, and before the current chunk.
    let mut pairs_before_line = 0usize;
    let mut pairs_seen = 0usize;
    let mut base = 0;
    while base + 33 <= text.len() {
        let chunk: &[u16; 33] = text[base..base + 33].try_into().expect("33 units");
        #[cfg(target_arch = "x86_64")]
        let (mut newlines, pairs) = if AVX2 {
            // SAFETY: with AVX2 set, the caller runs with AVX2 enabled.
            unsafe { crate::cpu::x86_64::line_masks(chunk) }
        } else {
            portable_masks(chunk)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let (mut newlines, pairs) = portable_masks(chunk);
        while newlines != 0 {
            let bit = newlines.trailing_zeros();
            let end = base + bit as usize + 1;
            let through = pairs_seen + (pairs & (u32::MAX >> (31 - bit))).count_ones() as usize;
            f(start..end, end - start - (through - pairs_before_line));
            (start, pairs_before_line) = (end, through);
            newlines &= newlines - 1;
        }
        pairs_seen += pairs.count_ones() as usize;
        base += 32;
    }
    for i in base..text.len() {
        let u = text[i];
        if is_high_surrogate(u) && text.get(i + 1).is_some_and(|&v| is_low_surrogate(v)) {
            pairs_seen += 1;
        }
        if u == u16::from(b'\n') {
            let end = i + 1;
            f(start..end, end - start - (pairs_seen - pairs_before_line));
            (start, pairs_before_line) = (end, pairs_seen);
        }
    }
    if start < text.len() {
        f(start..text.len(), text.len() - start - (pairs_seen - pairs_before_line));
    }
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
            proptest::prop_assert_eq!(count_code_points(&units), n_points);
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
            prop_assert_eq!(newlines_in(&units), want);
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
            scan_lines::<false>(&units, &mut |range, points| portable.push((range, points)));
            prop_assert_eq!(portable, want);
        }
    }
}
