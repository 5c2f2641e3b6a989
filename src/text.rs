//! Code points over UTF-16, the way JavaScript holds text.
//!
//! Text is a slice of UTF-16 code units exactly as a JS string stores it,
//! lone surrogates included. A code point is a valid surrogate pair (a high
//! surrogate immediately followed by a low one) or any other single unit, so
//! counts agree with `Array.from(text).length`. Nothing here decodes or
//! re-encodes: offsets are code-unit indices and every slice is byte-exact.

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

/// Number of code points in `text`; a lone surrogate counts as one.
///
/// Pairs never overlap (a unit is high or low, not both), so the count is the
/// length minus the number of adjacent high-then-low positions. Both loops
/// below vectorise: a block without surrogates (most real text) costs one
/// test per unit, a block with some a compare-and-add per unit.
pub fn code_point_len(text: &[u16]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { code_point_len_avx2(text) };
    }
    count_code_points(text)
}

/// [`count_code_points`] compiled for AVX2 (twice the lanes of the baseline).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn code_point_len_avx2(text: &[u16]) -> usize {
    count_code_points(text)
}

#[inline(always)]
fn count_code_points(text: &[u16]) -> usize {
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

/// The code points of each of `ranges` (ascending, non-overlapping) of
/// `text`: pair flags for a window of ranges at a time, summed per range.
/// Much cheaper than counting many short ranges one by one.
pub fn code_points_of_ranges(text: &[u16], ranges: &[std::ops::Range<usize>]) -> Vec<usize> {
    const WINDOW: usize = 1 << 16;
    let mut out = Vec::with_capacity(ranges.len());
    let mut flags: Vec<u8> = Vec::with_capacity(WINDOW);
    let mut first = 0;
    while first < ranges.len() {
        let start = ranges[first].start;
        let mut last = first;
        while last + 1 < ranges.len() && ranges[last + 1].end - start <= WINDOW {
            last += 1;
        }
        let end = ranges[last].end;
        // flags[i] = 1 where text[start + i] begins a pair inside the window.
        // Equal-length zips, so the loop vectorises.
        let window = &text[start..end];
        flags.clear();
        flags.resize(window.len(), 0);
        for ((flag, &a), &b) in flags.iter_mut().zip(window).zip(window.iter().skip(1)) {
            *flag = u8::from(is_high_surrogate(a) & is_low_surrogate(b));
        }
        for range in &ranges[first..=last] {
            let pairs = count_set_bytes(&flags[range.start - start..range.end - start]);
            // A pair starting on a range's last unit ends outside it: not a pair of this range.
            let straddles = range.end > range.start && flags[range.end - start - 1] == 1 && range.end < end;
            out.push(range.len() - pairs + usize::from(straddles));
        }
        first = last + 1;
    }
    out
}

/// How many bytes of `flags` (each 0 or 1) are 1, eight at a time: the
/// sum of a word's bytes (at most 8) lands in its top byte when multiplied
/// by 0x0101…01.
fn count_set_bytes(flags: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let words = flags.chunks_exact(8);
    let rest: usize = words.remainder().iter().map(|&f| usize::from(f)).sum();
    words.map(|w| (u64::from_le_bytes(w.try_into().expect("eight bytes")).wrapping_mul(ONES) >> 56) as usize).sum::<usize>()
        + rest
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

/// Encodes a `&str` as UTF-16 code units.
pub fn utf16(text: &str) -> Vec<u16> {
    text.encode_utf16().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn ranges_count_like_their_slices() {
        let mut text = utf16(&"ab😀\n😀\n\n".repeat(30_000));
        text[5] = 0xDC00; // a lone low surrogate
        text.insert(70_001, 0xD800); // a lone high surrogate near a window edge
        let mut ranges = crate::lines::split_lines(&text);
        // A range that ends between the halves of a pair.
        ranges.push(text.len()..text.len());
        let got = code_points_of_ranges(&text, &ranges);
        let want: Vec<usize> = ranges.iter().map(|r| code_point_len(&text[r.clone()])).collect();
        assert_eq!(got, want);
        let split: Vec<std::ops::Range<usize>> = vec![0..3, 3..5, 5..7];
        let t = utf16("ab😀😀c");
        assert_eq!(code_points_of_ranges(&t, &split), [3, 2, 2]);
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
            for n in 0..=n_points + 1 {
                let after = starts.get(n).copied().unwrap_or(units.len());
                proptest::prop_assert_eq!(offset_after(&units, n), after);
                let before = if n == 0 { units.len() } else { starts.get(n_points.saturating_sub(n)).copied().unwrap_or(0) };
                let before = if n > n_points { 0 } else { before };
                proptest::prop_assert_eq!(offset_before_last(&units, n), before);
            }
        }

        #[test]
        fn range_counts_agree_with_slice_counts(
            units in proptest::collection::vec(proptest::prop_oneof![0u16..0x80, 0xD800u16..0xE000], 0..2000),
            cuts in proptest::collection::vec(0usize..2000, 0..40),
        ) {
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(units.len())).chain([0, units.len()]).collect();
            cuts.sort_unstable();
            let ranges: Vec<std::ops::Range<usize>> = cuts.windows(2).map(|w| w[0]..w[1]).collect();
            let want: Vec<usize> = ranges.iter().map(|r| code_point_len(&units[r.clone()])).collect();
            proptest::prop_assert_eq!(code_points_of_ranges(&units, &ranges), want);
        }
    }
}
