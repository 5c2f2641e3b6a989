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
/// length minus the number of adjacent high-then-low positions. Chunks with
/// no surrogate at all (almost every chunk of real text) are skipped by a
/// vectorised test.
pub fn code_point_len(text: &[u16]) -> usize {
    let mut pairs = 0;
    let mut previous_high = false;
    for chunk in text.chunks(64) {
        let any_surrogate = chunk.iter().fold(false, |any, &u| any | (u & 0xF800 == 0xD800));
        if !any_surrogate {
            previous_high = false;
            continue;
        }
        for &u in chunk {
            pairs += usize::from(previous_high & is_low_surrogate(u));
            previous_high = is_high_surrogate(u);
        }
    }
    text.len() - pairs
}

/// Code-unit index just after the first `n` code points (clamped to the
/// length). Never points between the halves of a surrogate pair.
pub fn offset_after(text: &[u16], n: usize) -> usize {
    let mut at = 0;
    let mut left = n;
    while left > 0 && at < text.len() {
        at += step_forward(text, at);
        left -= 1;
    }
    at
}

/// Code-unit index where the last `n` code points begin (clamped to zero).
/// Never points between the halves of a surrogate pair.
pub fn offset_before_last(text: &[u16], n: usize) -> usize {
    let mut at = text.len();
    let mut left = n;
    while left > 0 && at > 0 {
        at -= step_backward(text, at);
        left -= 1;
    }
    at
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
