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
    }
}
