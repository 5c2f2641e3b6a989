//! UTF-16 to (W)UTF-8, the bytes a content hash is taken of: valid text as
//! UTF-8, a lone surrogate as the three bytes of its value (as WTF-8 and
//! Python's `surrogatepass` write it), so distinct texts never share bytes.

use crate::text::{is_high_surrogate, is_low_surrogate};

/// Writes the (W)UTF-8 bytes of `units` (a chunk from [`chunks`]) to the
/// start of `out`, growing it as needed; returns how many.
pub(super) fn encode_chunk(units: &[u16], out: &mut Vec<u8>) -> usize {
    let room = 3 * units.len() + 1;
    if out.len() < room {
        out.resize(room, 0);
    }
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::avx2() {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { crate::cpu::x86_64::encode(units, out) };
    }
    encode(units, out)
}

/// Writes the (W)UTF-8 bytes of `units` into `out` (room for three bytes a
/// unit and one more); returns how many. ASCII, most of any log, is
/// narrowed a group of units at a time, so a few non-ASCII characters (a
/// `✓`, an emoji) cost the general encoder only around them.
#[inline(always)]
pub(crate) fn encode(units: &[u16], out: &mut [u8]) -> usize {
    const GROUP: usize = 64;
    let ascii = |from: usize| {
        let group = &units[from..(from + GROUP).min(units.len())];
        (group.iter().fold(0u16, |m, &u| m | u) < 0x80, group.len())
    };
    let mut used = 0;
    let mut at = 0;
    while at < units.len() {
        let mut end = at;
        while end < units.len() {
            match ascii(end) {
                (true, n) => end += n,
                (false, _) => break,
            }
        }
        for (slot, &u) in out[used..].iter_mut().zip(&units[at..end]) {
            *slot = u as u8;
        }
        used += end - at;
        at = end;
        // The run up to the next ASCII group; it ends next to an ASCII unit,
        // so never inside a surrogate pair.
        while end < units.len() {
            match ascii(end) {
                (false, n) => end += n,
                (true, _) => break,
            }
        }
        if end > at {
            used += encode_wtf8(&units[at..end], &mut out[used..]);
            at = end;
        }
    }
    used
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
pub(super) fn encode_wtf8(units: &[u16], out: &mut [u8]) -> usize {
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
        let base = out.as_mut_ptr();
        for (&word, &len) in words[..n].iter().zip(&lens[..n]) {
            // SAFETY: before a unit, used <= 3 * (units before it) (a pair is
            // four bytes for two units, a lone unit at most three), so the
            // four bytes stored end at most at 3 * units.len() + 1 <=
            // out.len(). Bytes past a unit's length are spare: a later store
            // overwrites them or they lie past the returned length.
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// WTF-8 the plain way: std's decoder, lone surrogates as their 3-byte form.
    pub(crate) fn wtf8_reference(units: &[u16]) -> Vec<u8> {
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
        /// The encoder on its own, on short texts where every block
        /// boundary is near.
        #[test]
        fn the_encoder_writes_wtf8(
            units in proptest::collection::vec(proptest::prop_oneof![
                0u16..0x80, 0x80u16..0x800, 0x800u16..0xD800, 0xD800u16..0xDC00, 0xDC00u16..0xE000, 0xE000u16..=0xFFFF,
            ], 0..80)
        ) {
            // The encoders' contract: no low half of a pair split off before.
            let want = wtf8_reference(&units);
            let mut out = vec![0xAAu8; 3 * units.len() + 1];
            let used = encode_wtf8(&units, &mut out);
            proptest::prop_assert_eq!(&out[..used], &want[..]);
        }
    }
}
