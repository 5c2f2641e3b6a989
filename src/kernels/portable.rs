//! The portable kernels: the reference loop of every kernel, written so
//! the compiler vectorises them where it can. The vector builds of
//! [`x86_64`](super::x86_64) are held to these by the property tests.

use std::ops::Range;

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

/// Number of code points in `text`, a lone surrogate one: the length less
/// the adjacent high-then-low pairs. Inlined into each CPU's build of it.
#[inline(always)]
pub fn code_point_len(text: &[u16]) -> usize {
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

/// Number of `\n` units in `text`, blocks summed in u16 lanes. Inlined
/// into each CPU's build of it.
#[inline(always)]
pub fn count_newlines(text: &[u16]) -> usize {
    // At most 2^16 - 1 newlines a block: u16 lanes cannot overflow.
    text.chunks(u16::MAX as usize)
        .map(|block| block.iter().fold(0u16, |n, &u| n + u16::from(u == u16::from(b'\n'))) as usize)
        .sum()
}

/// Newline and pair-start bit masks of units `0..32` of `chunk` (33 units:
/// the last one only completes a pair begun at unit 31).
pub fn line_masks(chunk: &[u16; 33]) -> (u32, u32) {
    let mut newlines = 0u32;
    let mut pairs = 0u32;
    for i in 0..32 {
        newlines |= u32::from(chunk[i] == u16::from(b'\n')) << i;
        pairs |= u32::from(is_high_surrogate(chunk[i]) & is_low_surrogate(chunk[i + 1])) << i;
    }
    (newlines, pairs)
}

/// The line walk behind [`for_each_line`](super::for_each_line): 32 units at a time, a line's
/// code points are its units less the pairs that start inside it (a line
/// ends at `\n` or at the end, so no pair straddles two lines).
/// `masks` reads a chunk's newline and pair-start masks ([`line_masks`],
/// or a vector build of it).
#[inline(always)]
pub fn scan_lines(text: &[u16], f: &mut impl FnMut(Range<usize>, usize), masks: impl Fn(&[u16; 33]) -> (u32, u32)) {
    let mut start = 0;
    // Pairs starting before `start`, and before the current chunk.
    let mut pairs_before_line = 0usize;
    let mut pairs_seen = 0usize;
    let mut base = 0;
    while base + 33 <= text.len() {
        let chunk: &[u16; 33] = text[base..base + 33].try_into().expect("33 units");
        let (mut newlines, pairs) = masks(chunk);
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

/// Byte that stands for a failure glyph (`●`, `✕`, `✖`, `✗`, `×`, `✘`) in the
/// narrowed text, where such glyphs are found apart from the keywords.
pub const GLYPH: u8 = 1;

/// Byte that stands for a pass glyph (`✓`, `✔`, `√`) in the narrowed text.
pub const PASS_GLYPH: u8 = 2;

/// Byte that stands for a space right after a digit in the narrowed text:
/// a count (`12 passed` narrows to `00\x03passed`, which the anchor
/// `0 pass` narrows to). Digits followed by a space are everywhere in
/// logs; a multi-literal search keyed on a plain `0 ` would stop at each.
pub const COUNT_SPACE: u8 = 3;

/// The failure glyphs the rules read at the start of a line.
#[inline(always)]
fn is_glyph(u: u16) -> bool {
    // Bitwise, not short-circuit: one compare a glyph, vectorised.
    (u == 0x25CF) | (u == 0x2715) | (u == 0x2716) | (u == 0x2717) | (u == 0x00D7) | (u == 0x2718)
}

/// The pass glyphs the rules read.
#[inline(always)]
fn is_pass_glyph(u: u16) -> bool {
    (u == 0x2713) | (u == 0x2714) | (u == 0x221A)
}

/// One byte per code unit: ASCII lowercased with every digit as `0` (so an
/// anchor's `0` stands for any digit) and a space after a digit as
/// [`COUNT_SPACE`], failure glyphs as [`GLYPH`], pass glyphs as
/// [`PASS_GLYPH`], anything else (the control bytes those stand for
/// included) `0x80`, written into `out` (cleared first). Offsets equal
/// code-unit offsets; `before` is the unit before `text` (0 at a text's
/// start). Inlined into each CPU's build of it.
#[inline(always)]
pub fn narrow(text: &[u16], before: u16, out: &mut Vec<u8>) {
    out.clear();
    let Some(&first) = text.first() else { return };
    out.reserve(text.len());
    // Selects only, no branches, into the spare capacity by index: the
    // compiler vectorises this (with the caller's target features).
    let spare = &mut out.spare_capacity_mut()[..text.len()];
    spare[0].write(narrow_unit(first, before));
    for (o, (&u, &p)) in spare[1..].iter_mut().zip(text[1..].iter().zip(text)) {
        o.write(narrow_unit(u, p));
    }
    // SAFETY: the writes above initialised the first `text.len()` bytes.
    unsafe { out.set_len(text.len()) };
}

/// One byte per code unit: ASCII lower-cased, anything else `0x80`,
/// written into `out` (cleared first); offsets equal code-unit offsets.
/// The task's search reads text so, digits and all. Inlined into each
/// CPU's build of it.
#[inline(always)]
pub fn fold_ascii(text: &[u16], out: &mut Vec<u8>) {
    out.clear();
    out.reserve(text.len());
    // Selects only, no branches, into the spare capacity by index: the
    // compiler vectorises this (with the caller's target features).
    let spare = &mut out.spare_capacity_mut()[..text.len()];
    for (o, &u) in spare.iter_mut().zip(text) {
        o.write(if u < 0x80 { (u as u8).to_ascii_lowercase() } else { 0x80 });
    }
    // SAFETY: the writes above initialised the first `text.len()` bytes.
    unsafe { out.set_len(text.len()) };
}

/// One unit as [`narrow`] writes it, after unit `before`.
#[inline(always)]
fn narrow_unit(u: u16, before: u16) -> u8 {
    let lower = (u as u8).to_ascii_lowercase();
    let digit = lower.is_ascii_digit();
    let byte = if digit { b'0' } else { lower };
    let count = (u == 0x20) & (before.wrapping_sub(0x30) < 10);
    let byte = if count { COUNT_SPACE } else { byte };
    let byte = if (u >= 0x80) | (u.wrapping_sub(1) < 3) { 0x80 } else { byte };
    let byte = if is_glyph(u) { GLYPH } else { byte };
    if is_pass_glyph(u) { PASS_GLYPH } else { byte }
}

/// Writes the (W)UTF-8 bytes of `units` into `out` (room for three bytes a
/// unit and one more); returns how many. ASCII, most of any log, is
/// narrowed a group of units at a time, so a few non-ASCII characters (a
/// `✓`, an emoji) cost the general encoder only around them.
#[inline(always)]
pub fn encode(units: &[u16], out: &mut [u8]) -> usize {
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
pub fn encode_wtf8(units: &[u16], out: &mut [u8]) -> usize {
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

/// [`masks`] eight bytes at a time in a `u64` (SIMD within a register), for
/// CPUs this crate has no vector path for. Bytes are ASCII, so each byte's
/// top bit is free: a byte-wise compare sets it without carries between
/// bytes, and one multiply gathers the eight top bits into a byte.
pub fn masks_swar(chunk: &[u8]) -> (u64, u64) {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Top bit of each byte of `x` that equals `b`.
    let eq = |x: u64, b: u8| {
        let t = x ^ (LOW * u64::from(b));
        !(((t & !HIGH) + !HIGH) | t) & HIGH
    };
    // Top bit of each byte of `x` in `lo..=hi` (bytes below 0x80).
    let within = |x: u64, lo: u8, hi: u8| {
        let at_least = x + LOW * u64::from(0x80 - lo);
        let above = x + LOW * u64::from(0x7F - hi);
        at_least & !above & HIGH
    };
    // The eight top bits as bits 0..8, byte 0's first.
    let gather = |m: u64| (m >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    let (mut spaces, mut variables) = (0u64, 0u64);
    let mut eights = chunk.chunks_exact(8);
    let mut at = 0;
    for eight in &mut eights {
        let x = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
        let space = eq(x, b' ') | within(x, b'\t', b'\r');
        let variable = within(x, b'0', b'9') | eq(x, b'/') | eq(x, b'\\') | eq(x, b'"') | eq(x, b'\'') | eq(x, b'`');
        spaces |= gather(space) << at;
        variables |= gather(variable) << at;
        at += 8;
    }
    let (s, v) = masks_by_bytes(eights.remainder());
    // `at` is 64 only when nothing remains (`s` and `v` are then 0).
    (spaces | s << (at % 64), variables | v << (at % 64))
}

/// [`push_plain`]'s copy: appends `units` to `out` as bytes and says true
/// when every unit is ASCII and none is an escape, `\r`, `\n` or the `^`
/// of a `^[`; otherwise `out` is left as it was. Folds without branches,
/// which the compiler vectorises.
pub fn plain_bytes(units: &[u16], out: &mut Vec<u8>) -> bool {
    let high = units.iter().fold(0u16, |acc, &u| acc | u) >= 0x80;
    let special = units.iter().fold(false, |acc, &u| acc | matches!(u, 0x1B | 0x0D | 0x0A));
    let caret = units
        .iter()
        .zip(units.get(1..).unwrap_or_default())
        .fold(false, |acc, (&u, &v)| acc | ((u == 0x5E) & (v == 0x5B)));
    if high || special || caret {
        return false;
    }
    out.extend(units.iter().map(|&u| u as u8));
    true
}

/// Whether `a` and `b` are of one length and equal unit for unit but
/// where both hold a digit: one fold without branches.
pub fn same_but_digits(a: &[u16], b: &[u16]) -> bool {
    let digit = |u: u16| u.wrapping_sub(u16::from(b'0')) < 10;
    a.len() == b.len() && a.iter().zip(b).fold(true, |same, (&x, &y)| same & ((x == y) | (digit(x) & digit(y))))
}

/// [`masks_swar`] a byte at a time: the reference.
pub fn masks_by_bytes(chunk: &[u8]) -> (u64, u64) {
    let (mut spaces, mut variables) = (0u64, 0u64);
    for (i, &b) in chunk.iter().enumerate() {
        spaces |= u64::from(is_space(u16::from(b))) << i;
        variables |= u64::from(is_variable(b)) << i;
    }
    (spaces, variables)
}

/// ASCII white space as the rules' `\s` reads it: space, tab, line feed,
/// vertical tab, form feed, carriage return. The one white-space set of
/// the line walks (a view's words, blank lines, a JSON text's ends).
#[inline(always)]
pub fn is_space(unit: u16) -> bool {
    unit == 0x20 || (0x09..=0x0D).contains(&unit)
}

/// A byte a template's word varies by: a digit, a path separator or a quote.
#[inline(always)]
pub fn is_variable(b: u8) -> bool {
    (b.wrapping_sub(b'0') < 10) | (b == b'/') | (b == b'\\') | (b == b'"') | (b == b'\'') | (b == b'`')
}
