//! Retrieval markers and the hashes that name dropped text.
//!
//! Every run the line plan drops becomes one marker naming the run by its
//! content hash, and the run's exact text goes into the plan's `recoverable`
//! map, so a wrong drop costs a lookup, not the information. Shapes follow
//! Headroom's resolvers, whose marker regex is `<<ccr:([a-f0-9]{12,24})[^>]*>>`:
//!
//! - a dropped run of whole lines: `<<ccr:HASH N_lines_offloaded>>`, on a line
//!   of its own (followed by the run's final `\n`, if it had one);
//! - the removed middle of one line: `<<ccr:HASH N_chars_offloaded>>`, inline
//!   between the kept head and tail of that line (N in code points).
//!
//! HASH is the first 24 lowercase hex digits of the SHA-256 of the text's
//! UTF-8 bytes. Text is UTF-16 and may hold lone surrogates, which have no
//! UTF-8 form; they are encoded as WTF-8 does (three bytes each, like
//! Python's `surrogatepass`), so the bytes are UTF-8 whenever the text is
//! valid and distinct texts never share bytes.

use std::ops::Range;

use sha2::{Digest, Sha256};

use crate::text::{is_high_surrogate, is_low_surrogate};

/// Hex digits of a hash.
pub const HASH_LEN: usize = 24;

/// What a marker stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Whole lines (`N_lines_offloaded`).
    Lines,
    /// Code points inside one line (`N_chars_offloaded`).
    Chars,
}

impl Unit {
    fn word(self) -> &'static str {
        match self {
            Unit::Lines => "_lines_offloaded>>",
            Unit::Chars => "_chars_offloaded>>",
        }
    }
}

/// The retrieval hash of `text`: 24 lowercase hex digits of its SHA-256.
pub fn content_hash(text: &[u16]) -> String {
    #[cfg(target_arch = "x86_64")]
    {
        if wide::available() {
            // SAFETY: the CPU has every feature the wide encoder needs.
            return unsafe { content_hash_avx512(text) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { content_hash_avx2(text) };
        }
    }
    hash_units(text, encode_wtf8)
}

/// [`hash_units`] compiled for AVX2 (the encoding passes get twice the lanes).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn content_hash_avx2(text: &[u16]) -> String {
    hash_units(text, encode_wtf8)
}

/// [`hash_units`] with the AVX-512 encoder.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi2,popcnt")]
unsafe fn content_hash_avx512(text: &[u16]) -> String {
    // SAFETY: the caller checked the features; `hash_units` gives the
    // encoder room for three bytes per unit plus `wide::SLACK`.
    hash_units(text, |units, out| unsafe { wide::encode_wtf8(units, out) })
}

/// Hashes `text` in chunks, each encoded by `encode` (contract of
/// [`encode_wtf8`], with [`wide::SLACK`] bytes of room to spare).
#[inline(always)]
fn hash_units(text: &[u16], mut encode: impl FnMut(&[u16], &mut [u8]) -> usize) -> String {
    const CHUNK: usize = 4096;
    let mut hasher = Sha256::new();
    let mut buf = [0u8; 3 * CHUNK + wide::SLACK];
    let mut at = 0;
    while at < text.len() {
        let chunk = &text[at..(at + CHUNK).min(text.len())];
        let used = if chunk.iter().fold(0u16, |m, &u| m | u) < 0x80 {
            // All ASCII (the common case): narrow in one vectorised pass.
            for (slot, &u) in buf.iter_mut().zip(chunk) {
                *slot = u as u8;
            }
            at += chunk.len();
            chunk.len()
        } else {
            // A pair never splits across chunks: a high surrogate ending the
            // chunk is left for the next one.
            let mut end = at + chunk.len();
            if end < text.len() && is_high_surrogate(text[end - 1]) {
                end -= 1;
            }
            let used = encode(&text[at..end], &mut buf);
            at = end;
            used
        };
        hasher.update(&buf[..used]);
    }
    let digest = hasher.finalize();
    let mut hex = String::with_capacity(HASH_LEN);
    for byte in &digest[..HASH_LEN / 2] {
        hex.push(char::from_digit(u32::from(byte >> 4), 16).expect("nibble"));
        hex.push(char::from_digit(u32::from(byte & 15), 16).expect("nibble"));
    }
    hex
}

/// The hashes of `ranges` of `text`, in order. When there is a lot to hash
/// and more than one range, the ranges are split by length between this
/// thread and one more.
pub fn content_hashes(text: &[u16], ranges: &[Range<usize>]) -> Vec<String> {
    const PARALLEL_FROM: usize = 1 << 18;
    let hash_all = |ranges: &[Range<usize>]| ranges.iter().map(|r| content_hash(&text[r.clone()])).collect::<Vec<_>>();
    let total: usize = ranges.iter().map(|r| r.len()).sum();
    if total < PARALLEL_FROM || ranges.len() < 2 {
        return hash_all(ranges);
    }
    // The first ranges up to about half the total go to the helper.
    let mut acc = 0;
    let split = ranges.iter().position(|r| {
        acc += r.len();
        acc >= total / 2
    });
    let split = split.map_or(ranges.len() / 2, |p| (p + 1).min(ranges.len() - 1));
    let (first, second) = ranges.split_at(split);
    let (mut out, mut rest) = crate::parallel::join(|| hash_all(first), || hash_all(second));
    out.append(&mut rest);
    out
}

/// Writes the (W)UTF-8 bytes of `units` into `out` (which holds at least
/// three bytes per unit plus one); returns how many. A pair is one 4-byte
/// sequence, a lone surrogate the 3-byte form of its value. `units` must
/// not start with the low half of a pair whose high half came before it.
///
/// Mixed text (letters between emoji) defeats branch prediction, so this
/// works in two passes over blocks of units. The first gives every unit its
/// bytes and length from the unit and its two neighbours alone: four for a
/// high half followed by a low one, none for that low half, one to three
/// for anything else. It is the same arithmetic for every unit, which the
/// compiler vectorises. The second stores four bytes per unit at the output
/// position and advances it by the unit's length, with no branches.
#[inline(always)]
fn encode_wtf8(units: &[u16], out: &mut [u8]) -> usize {
    const BLOCK: usize = 256;
    assert!(out.len() > 3 * units.len(), "room for three bytes per unit and one spare");
    let mut words = [0u32; BLOCK];
    let mut lens = [0u8; BLOCK];
    // The block between its two neighbours: unit i of the block is pad[i + 1].
    let mut pad = [0u16; BLOCK + 2];
    let mut used = 0usize;
    let mut start = 0;
    while start < units.len() {
        let end = (start + BLOCK).min(units.len());
        let n = end - start;
        pad[0] = if start == 0 { 0 } else { units[start - 1] };
        pad[1..=n].copy_from_slice(&units[start..end]);
        pad[n + 1] = units.get(end).copied().unwrap_or(0);
        // Equal-length zips, so the loop vectorises.
        let (prevs, this, nexts) = (&pad[..n], &pad[1..n + 1], &pad[2..n + 2]);
        for ((((word, len), &u), &p), &x) in words.iter_mut().zip(lens.iter_mut()).zip(this).zip(prevs).zip(nexts) {
            (*word, *len) = wtf8_form(u, p, x);
        }
        // SAFETY: before a unit, used <= 3 * (units before it) (a pair is
        // four bytes for two units, a lone unit at most three), so the four
        // bytes stored end at most at 3 * units.len() + 1 <= out.len(). Bytes
        // past a unit's length are spare: a later store overwrites them or
        // they lie past the returned length.
        let base = out.as_mut_ptr();
        for (&word, &len) in words[..n].iter().zip(&lens[..n]) {
            unsafe { base.add(used).cast::<[u8; 4]>().write_unaligned(word.to_le_bytes()) };
            used += usize::from(len);
        }
        start = end;
    }
    used
}

/// The (W)UTF-8 bytes (little-endian, up to four) and their count for unit
/// `u` between `prev` and `next`, by arithmetic and selects only.
#[inline(always)]
fn wtf8_form(u: u16, prev: u16, next: u16) -> (u32, u8) {
    let pick = |cond: bool, a: u32, b: u32| {
        let mask = 0u32.wrapping_sub(u32::from(cond));
        (a & mask) | (b & !mask)
    };
    let starts_pair = is_high_surrogate(u) & is_low_surrogate(next);
    let ends_pair = is_low_surrogate(u) & is_high_surrogate(prev);
    let (u, next) = (u32::from(u), u32::from(next));
    let point = 0x10000 + ((u & 0x3FF) << 10) + (next & 0x3FF);
    let four = (0xF0 | (point >> 18))
        | ((0x80 | ((point >> 12) & 0x3F)) << 8)
        | ((0x80 | ((point >> 6) & 0x3F)) << 16)
        | ((0x80 | (point & 0x3F)) << 24);
    let three = (0xE0 | (u >> 12)) | ((0x80 | ((u >> 6) & 0x3F)) << 8) | ((0x80 | (u & 0x3F)) << 16);
    let two = (0xC0 | (u >> 6)) | ((0x80 | (u & 0x3F)) << 8);
    let word = pick(starts_pair, four, pick(u < 0x80, u, pick(u < 0x800, two, three)));
    let alone = 1 + u32::from(u >= 0x80) + u32::from(u >= 0x800);
    (word, pick(starts_pair, 4, pick(ends_pair, 0, alone)) as u8)
}

/// A (W)UTF-8 encoder for CPUs with AVX-512 VBMI2: sixteen units per step,
/// each unit's bytes formed in its own 32-bit lane by the arithmetic of
/// [`wtf8_form`], then packed together with one byte compress.
mod wide {
    /// Bytes past three per unit that the output must hold: one step
    /// stores a whole 64-byte vector, of which only the encoded bytes count.
    pub const SLACK: usize = 64;

    /// True when this CPU runs [`encode_wtf8`] (std caches the detection).
    #[cfg(target_arch = "x86_64")]
    pub fn available() -> bool {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512vbmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
    }

    /// The contract of [`super::encode_wtf8`], with `out` at least
    /// `3 * units.len() + SLACK` long.
    ///
    /// # Safety
    /// The CPU must have the features [`available`] checks.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi2,popcnt")]
    pub unsafe fn encode_wtf8(units: &[u16], out: &mut [u8]) -> usize {
        use std::arch::x86_64::*;
        assert!(out.len() >= 3 * units.len() + SLACK, "room for three bytes per unit and a spare vector");
        let n = units.len();
        let src = units.as_ptr();
        let dst = out.as_mut_ptr();
        let k = |v: u32| _mm512_set1_epi32(v as i32);
        // Lane i of `prev` takes lane 15 of the last step's units, then
        // lanes 0..15 of this step's (vpermt2w indices 16.. pick `b`).
        let shift_in = _mm256_setr_epi16(15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30);
        let byte_index = k(0x0302_0100);
        let mut last = _mm256_setzero_si256();
        let mut used = 0usize;
        let mut at = 0usize;
        while at < n {
            let here = (n - at).min(16);
            let ahead = (n - at - 1).min(16);
            let lanes: __mmask16 = ((1u32 << here) - 1) as u16;
            // SAFETY: masked loads touch only the `here` (and `ahead`) units
            // that exist from `at` (and `at + 1`); at + 1 <= n, so the
            // pointer stays within or one past the slice.
            let cur16 = unsafe { _mm256_maskz_loadu_epi16(lanes, src.add(at).cast()) };
            let next16 = unsafe { _mm256_maskz_loadu_epi16(((1u32 << ahead) - 1) as u16, src.add(at + 1).cast()) };
            let prev16 = _mm256_permutex2var_epi16(last, shift_in, cur16);
            last = cur16;
            let u = _mm512_cvtepu16_epi32(cur16);
            let p = _mm512_cvtepu16_epi32(prev16);
            let x = _mm512_cvtepu16_epi32(next16);
            let kind = |v: __m512i, top: u32| _mm512_cmpeq_epi32_mask(_mm512_and_si512(v, k(0xFC00)), k(top));
            let starts = kind(u, 0xD800) & kind(x, 0xDC00);
            let ends = kind(u, 0xDC00) & kind(p, 0xD800);
            let ascii = _mm512_cmplt_epu32_mask(u, k(0x80));
            let below_800 = _mm512_cmplt_epu32_mask(u, k(0x800));
            let low6 = |v: __m512i| _mm512_or_si512(k(0x80), _mm512_and_si512(v, k(0x3F)));
            let point = _mm512_sub_epi32(_mm512_add_epi32(_mm512_slli_epi32::<10>(u), x), k(0x035F_DC00));
            let four = _mm512_or_si512(
                _mm512_or_si512(
                    _mm512_or_si512(k(0xF0), _mm512_srli_epi32::<18>(point)),
                    _mm512_slli_epi32::<8>(low6(_mm512_srli_epi32::<12>(point))),
                ),
                _mm512_or_si512(
                    _mm512_slli_epi32::<16>(low6(_mm512_srli_epi32::<6>(point))),
                    _mm512_slli_epi32::<24>(low6(point)),
                ),
            );
            let three = _mm512_or_si512(
                _mm512_or_si512(k(0xE0), _mm512_srli_epi32::<12>(u)),
                _mm512_or_si512(
                    _mm512_slli_epi32::<8>(low6(_mm512_srli_epi32::<6>(u))),
                    _mm512_slli_epi32::<16>(low6(u)),
                ),
            );
            let two =
                _mm512_or_si512(_mm512_or_si512(k(0xC0), _mm512_srli_epi32::<6>(u)), _mm512_slli_epi32::<8>(low6(u)));
            let mut word = _mm512_mask_blend_epi32(below_800, three, two);
            word = _mm512_mask_blend_epi32(ascii, word, u);
            word = _mm512_mask_blend_epi32(starts, word, four);
            // Byte lengths: 1 to 3 alone, 4 for a pair's start, 0 for its
            // end and for lanes past the text.
            let alone = _mm512_mask_blend_epi32(below_800, k(3), k(2));
            let mut len = _mm512_mask_blend_epi32(ascii, alone, k(1));
            len = _mm512_mask_blend_epi32(starts, len, k(4));
            len = _mm512_maskz_mov_epi32(lanes & !ends, len);
            let keep = _mm512_cmplt_epu8_mask(byte_index, _mm512_mullo_epi32(len, k(0x0101_0101)));
            let packed = _mm512_maskz_compress_epi8(keep, word);
            // SAFETY: before this step used <= 3 * at, so the 64 bytes end
            // at most at 3 * n + SLACK <= out.len().
            unsafe { _mm512_storeu_si512(dst.add(used).cast(), packed) };
            used += keep.count_ones() as usize;
            at += here;
        }
        used
    }
}

/// True for a hash as this crate writes them: 24 lowercase hex digits.
pub fn is_hash(hash: &str) -> bool {
    hash.len() == HASH_LEN && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The marker for `count` dropped units of text named `hash`, without any
/// line ending: `<<ccr:HASH N_lines_offloaded>>` or `…_chars_offloaded>>`.
pub fn format_marker(hash: &str, count: u64, unit: Unit) -> String {
    format!("<<ccr:{hash} {count}{}", unit.word())
}

/// Length in code points (= UTF-16 units, it is ASCII) of a marker.
pub fn marker_len(count: u64, unit: Unit) -> usize {
    "<<ccr: ".len() + HASH_LEN + decimal_digits(count) + unit.word().len()
}

fn decimal_digits(mut n: u64) -> usize {
    let mut digits = 1;
    while n >= 10 {
        n /= 10;
        digits += 1;
    }
    digits
}

/// A marker found in text: where it is, the hash it names, and its count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundMarker {
    pub at: Range<usize>,
    pub hash: String,
    pub count: u64,
    pub unit: Unit,
}

/// Every well-formed marker in `text` (as this crate writes them), in order.
pub fn find_markers(text: &[u16]) -> Vec<FoundMarker> {
    const OPEN: [u16; 6] = [b'<' as u16, b'<' as u16, b'c' as u16, b'c' as u16, b'r' as u16, b':' as u16];
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(offset) = text[at..].windows(OPEN.len()).position(|w| w == OPEN) {
        let start = at + offset;
        match parse_marker(&text[start..]) {
            Some((len, hash, count, unit)) => {
                found.push(FoundMarker { at: start..start + len, hash, count, unit });
                at = start + len;
            }
            None => at = start + 1,
        }
    }
    found
}

/// Parses `<<ccr:HASH N_unit_offloaded>>` at the start of `text`.
fn parse_marker(text: &[u16]) -> Option<(usize, String, u64, Unit)> {
    let ascii = |i: usize| text.get(i).copied().filter(|&u| u < 0x80).map(|u| u as u8);
    let hash: String = (6..6 + HASH_LEN).map(|i| ascii(i).map(char::from)).collect::<Option<_>>()?;
    if !is_hash(&hash) {
        return None;
    }
    let mut i = 6 + HASH_LEN;
    if ascii(i)? != b' ' {
        return None;
    }
    i += 1;
    let digits_start = i;
    let mut count: u64 = 0;
    while let Some(c @ b'0'..=b'9') = ascii(i) {
        count = count.checked_mul(10)?.checked_add(u64::from(c - b'0'))?;
        i += 1;
    }
    if i == digits_start || (i - digits_start > 1 && text[digits_start] == u16::from(b'0')) {
        return None;
    }
    for unit in [Unit::Lines, Unit::Chars] {
        let word = unit.word().as_bytes();
        if word.iter().enumerate().all(|(k, &b)| ascii(i + k) == Some(b)) {
            return Some((i + word.len(), hash, count, unit));
        }
    }
    None
}

/// The exact text that the marker named `hash` stands for in `pruned`,
/// recovered from `original` (the text `pruned` was made from), or `None`
/// when `pruned` holds no such marker for `original`.
///
/// `pruned` is walked against `original`: text between markers must match
/// exactly, and a marker is taken as one only when the original text at
/// that point, `count` lines or code points long, hashes to the marker's
/// hash; otherwise it is literal text (a tool that printed a marker). So a
/// result is always text whose hash is `hash`, never another run's.
pub fn recover(original: &[u16], pruned: &[u16], hash: &str) -> Option<Vec<u16>> {
    const NEWLINE: u16 = b'\n' as u16;
    let (mut i, mut j) = (0usize, 0usize);
    for m in find_markers(pruned) {
        if m.at.start < j {
            continue;
        }
        let literal = &pruned[j..m.at.start];
        if !original[i..].starts_with(literal) {
            return None;
        }
        i += literal.len();
        let end = match m.unit {
            Unit::Lines => {
                let mut end = i;
                let mut lines = 0;
                while lines < m.count && end < original.len() {
                    end = original[end..].iter().position(|&u| u == NEWLINE).map_or(original.len(), |p| end + p + 1);
                    lines += 1;
                }
                (lines == m.count && m.count > 0).then_some(end)
            }
            Unit::Chars => {
                let (len, walked) = crate::text::walk_forward(&original[i..], m.count as usize);
                (walked as u64 == m.count).then_some(i + len)
            }
        };
        match end.filter(|&end| content_hash(&original[i..end]) == m.hash) {
            Some(end) => {
                if m.hash == hash {
                    return Some(original[i..end].to_vec());
                }
                let closes_line = m.unit == Unit::Lines && original[end - 1] == NEWLINE;
                i = end;
                j = m.at.end + usize::from(closes_line && pruned.get(m.at.end) == Some(&NEWLINE));
            }
            None => {
                // Literal marker text, present in the original too.
                let text = &pruned[m.at.clone()];
                if !original[i..].starts_with(text) {
                    return None;
                }
                i += text.len();
                j = m.at.end;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::utf16;

    #[test]
    fn hash_is_sha256_prefix_of_utf8() {
        // sha256("hello\n") = 5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03
        assert_eq!(content_hash(&utf16("hello\n")), "5891b5b522d5df086d0ff0b1");
        // sha256("") = e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
        assert_eq!(content_hash(&[]), "e3b0c44298fc1c149afbf4c8");
        let emoji = utf16("é😀\n漢");
        let mut std = Sha256::new();
        std.update("é😀\n漢".as_bytes());
        let want: String = std.finalize()[..12].iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(content_hash(&emoji), want);
    }

    #[test]
    fn hashing_many_ranges_on_two_threads_matches_one_by_one() {
        let text: Vec<u16> =
            (0..600_000u32).map(|i| [0x61, 0x4E2D, 0xD83D, 0xDE00, 0xDC00][(i % 5) as usize]).collect();
        let ranges: Vec<std::ops::Range<usize>> = (0..60).map(|k| k * 10_000..k * 10_000 + 9_000 + k).collect();
        let want: Vec<String> = ranges.iter().map(|r| content_hash(&text[r.clone()])).collect();
        assert_eq!(content_hashes(&text, &ranges), want);
        assert_eq!(content_hashes(&text, &ranges[..1]), want[..1]);
        assert!(content_hashes(&text, &[]).is_empty());
    }

    #[test]
    fn lone_surrogates_hash_as_wtf8() {
        let mut std = Sha256::new();
        std.update([b'a', 0xED, 0xA0, 0x80, b'b']); // U+D800 as three bytes
        let want: String = std.finalize()[..12].iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(content_hash(&[0x61, 0xD800, 0x62]), want);
        assert_ne!(content_hash(&[0xD800]), content_hash(&[0xDC00]));
    }

    #[test]
    fn long_texts_hash_like_the_one_shot_digest() {
        let text = "x😀".repeat(5000);
        let mut std = Sha256::new();
        std.update(text.as_bytes());
        let want: String = std.finalize()[..12].iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(content_hash(&utf16(&text)), want);
    }

    /// WTF-8 the plain way: std's decoder, lone surrogates as their 3-byte form.
    fn wtf8_reference(units: &[u16]) -> Vec<u8> {
        let mut out = Vec::new();
        for decoded in char::decode_utf16(units.iter().copied()) {
            match decoded {
                Ok(c) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
                Err(lone) => {
                    let u = lone.unpaired_surrogate();
                    out.extend_from_slice(&[
                        0xE0 | (u >> 12) as u8,
                        0x80 | ((u >> 6) & 0x3F) as u8,
                        0x80 | (u & 0x3F) as u8,
                    ]);
                }
            }
        }
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]
        #[test]
        fn hashes_agree_with_a_plain_wtf8_encoder(
            units in proptest::collection::vec(proptest::prop_oneof![
                0u16..0x80, 0x80u16..0x800, 0x800u16..0xD800, 0xD800u16..0xDC00, 0xDC00u16..0xE000, 0xE000u16..=0xFFFF,
            ], 0..9000)
        ) {
            let want: String = Sha256::digest(wtf8_reference(&units))[..12].iter().map(|b| format!("{b:02x}")).collect();
            proptest::prop_assert_eq!(content_hash(&units), want);
        }

        /// Each encoder on its own (the hash uses only the fastest one the
        /// CPU has), on short texts where every step boundary is near.
        #[test]
        fn every_encoder_writes_wtf8(
            units in proptest::collection::vec(proptest::prop_oneof![
                0u16..0x80, 0x80u16..0x800, 0x800u16..0xD800, 0xD800u16..0xDC00, 0xDC00u16..0xE000, 0xE000u16..=0xFFFF,
            ], 0..80)
        ) {
            // The encoders' contract: no low half of a pair split off before.
            let want = wtf8_reference(&units);
            let mut out = vec![0u8; 3 * units.len() + wide::SLACK];
            let used = encode_wtf8(&units, &mut out);
            proptest::prop_assert_eq!(&out[..used], &want[..]);
            #[cfg(target_arch = "x86_64")]
            if wide::available() {
                out.fill(0xAA);
                // SAFETY: the CPU has the features, checked just above.
                let used = unsafe { wide::encode_wtf8(&units, &mut out) };
                proptest::prop_assert_eq!(&out[..used], &want[..]);
            }
        }
    }

    #[test]
    fn recover_walks_markers_and_verifies_hashes() {
        use crate::lines::{Fate, render, split_lines};
        let mut text = String::new();
        for i in 0..40 {
            text.push_str(&format!("line {i} {}\n", "x".repeat(90)));
        }
        // A tool printed a marker-looking line that names the hash of lines 0..2.
        let spoof_hash = content_hash(&utf16(&text.lines().take(2).map(|l| format!("{l}\n")).collect::<String>()));
        text.insert_str(0, &format!("<<ccr:{spoof_hash} 2_lines_offloaded>>\n"));
        let t = utf16(&text);
        let lines = split_lines(&t);
        let mut fates = vec![Fate::Keep; lines.len()];
        for f in &mut fates[5..15] {
            *f = Fate::Drop;
        }
        fates[20] = Fate::Cut { from: 3, to: 90 };
        for f in &mut fates[30..] {
            *f = Fate::Drop;
        }
        let plan = render(&t, &lines, &fates);
        assert_eq!(plan.recoverable.len(), 3);
        let recovered = plan.recovered(&[&t]);
        for (hash, dropped) in &recovered {
            assert_eq!(recover(&t, &plan.content, hash).as_ref(), Some(dropped));
        }
        // The spoofed marker is literal: its hash names nothing dropped here.
        assert_eq!(recover(&t, &plan.content, &spoof_hash), None);
        assert_eq!(recover(&t, &plan.content, "0123456789abcdef01234567"), None);
        // Against another original, nothing verifies.
        let other = utf16(&text.replace("line 7 ", "line 7!"));
        let dropped_hash = recovered.iter().find(|(_, v)| String::from_utf16_lossy(v).contains("line 7 ")).unwrap().0;
        assert_eq!(recover(&other, &plan.content, dropped_hash), None);
    }

    #[test]
    fn markers_have_headrooms_shape_and_parse_back() {
        let h = content_hash(&utf16("dropped\n"));
        let m = format_marker(&h, 12, Unit::Lines);
        assert_eq!(m, format!("<<ccr:{h} 12_lines_offloaded>>"));
        assert_eq!(m.len(), marker_len(12, Unit::Lines));
        let text =
            utf16(&format!("a {m} b <<ccr:zz>> {} <<ccr:{h} 07_lines_offloaded>>", format_marker(&h, 3, Unit::Chars)));
        let found = find_markers(&text);
        assert_eq!(found.len(), 2);
        assert_eq!((found[0].count, found[0].unit, found[0].hash.as_str()), (12, Unit::Lines, h.as_str()));
        assert_eq!((found[1].count, found[1].unit), (3, Unit::Chars));
    }
}
