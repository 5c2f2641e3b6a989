//! Every x86-64-specific build of a hot loop, in one place.
//!
//! Most functions here are a portable loop of the core (`#[inline(always)]`
//! where it is written) compiled again with AVX2 enabled, which doubles the
//! lanes the compiler vectorises to; three are written with intrinsics. Each
//! says when it may be called; the dispatcher ([`super`]) decides, once per
//! process, and one property test holds each to its portable reference.

use std::arch::x86_64::*;
use std::ops::Range;

use super::portable::masks_swar;

/// [`code_point_len`](super::portable::code_point_len) with AVX2.
///
/// # Safety
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn code_point_len(text: &[u16]) -> usize {
    super::portable::code_point_len(text)
}

/// [`count_newlines`](super::portable::count_newlines) with AVX2.
///
/// # Safety
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn count_newlines(text: &[u16]) -> usize {
    super::portable::count_newlines(text)
}

/// [`for_each_line`](super::for_each_line) with AVX2 masks.
///
/// # Safety
/// The CPU must have AVX2 and POPCNT (the dispatcher checks both).
#[target_feature(enable = "avx2,popcnt")]
pub(crate) unsafe fn for_each_line(text: &[u16], f: &mut impl FnMut(Range<usize>, usize)) {
    super::portable::scan_lines(text, f, |chunk| {
        // SAFETY: this function runs with AVX2, which the closure inherits.
        unsafe { line_masks(chunk) }
    });
}

/// The newline and pair-start bit masks of units `0..32` of `chunk`, as
/// [`line_masks`](super::portable::line_masks) gives them, with AVX2 compares.
///
/// # Safety
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn line_masks(chunk: &[u16; 33]) -> (u32, u32) {
    // SAFETY: every load reads 16 units inside `chunk` (at 0, 1, 16, 17).
    unsafe {
        let load = |at: usize| _mm256_loadu_si256(chunk.as_ptr().add(at).cast());
        // 16-bit lane masks of two halves to one bit per unit: pack to bytes
        // (per 128-bit lane), put the 64-bit quarters back in order, take the
        // byte signs.
        let bits = |lo: __m256i, hi: __m256i| {
            _mm256_movemask_epi8(_mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packs_epi16(lo, hi))) as u32
        };
        let newline = _mm256_set1_epi16(b'\n' as i16);
        let top6 = _mm256_set1_epi16(0xFC00u16 as i16);
        let high = _mm256_set1_epi16(0xD800u16 as i16);
        let low = _mm256_set1_epi16(0xDC00u16 as i16);
        let (a, b, a1, b1) = (load(0), load(16), load(1), load(17));
        let newlines = bits(_mm256_cmpeq_epi16(a, newline), _mm256_cmpeq_epi16(b, newline));
        let starts = |this: __m256i, next: __m256i| {
            _mm256_and_si256(
                _mm256_cmpeq_epi16(_mm256_and_si256(this, top6), high),
                _mm256_cmpeq_epi16(_mm256_and_si256(next, top6), low),
            )
        };
        (newlines, bits(starts(a, a1), starts(b, b1)))
    }
}

/// [`narrow`](super::portable::narrow) with AVX2.
///
/// # Safety
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn narrow(text: &[u16], before: u16, out: &mut Vec<u8>) {
    super::portable::narrow(text, before, out);
}

/// [`fold_ascii`](super::portable::fold_ascii) with AVX2.
///
/// # Safety
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn fold_ascii(text: &[u16], out: &mut Vec<u8>) {
    super::portable::fold_ascii(text, out);
}

/// [`encode`](super::portable::encode) with AVX2.
///
/// # Safety
/// The CPU must have AVX2; `out` must hold three
/// bytes per unit and one more.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn encode(units: &[u16], out: &mut [u8]) -> usize {
    super::portable::encode(units, out)
}

/// The white-space and variable-byte masks of a template's words , sixteen bytes at a time with SSE2, which
/// every x86-64 CPU has: safe to call on any of them.
pub(crate) fn word_masks(view: &[u8], base: usize) -> (u64, u64) {
    let n = (view.len() - base).min(64);
    if view.len() < 16 {
        return masks_swar(&view[base..base + n]);
    }
    // SAFETY: SSE2 is baseline on x86-64; every load reads 16 bytes inside `view`.
    let group = |at: usize| unsafe {
        let v = _mm_loadu_si128(view.as_ptr().add(at).cast());
        let byte = |b: u8| _mm_set1_epi8(b as i8);
        // ASCII bytes are non-negative, so signed compares order them.
        let between = |lo: u8, hi: u8| _mm_and_si128(_mm_cmpgt_epi8(v, byte(lo - 1)), _mm_cmplt_epi8(v, byte(hi + 1)));
        let space = _mm_or_si128(_mm_cmpeq_epi8(v, byte(b' ')), between(b'\t', b'\r'));
        let mut variable = between(b'0', b'9');
        for c in [b'/', b'\\', b'"', b'\'', b'`'] {
            variable = _mm_or_si128(variable, _mm_cmpeq_epi8(v, byte(c)));
        }
        (_mm_movemask_epi8(space) as u16 as u64, _mm_movemask_epi8(variable) as u16 as u64)
    };
    let (mut spaces, mut variables) = (0u64, 0u64);
    let mut at = 0;
    while at + 16 <= n {
        let (s, v) = group(base + at);
        spaces |= s << at;
        variables |= v << at;
        at += 16;
    }
    if at < n {
        // The view's last sixteen bytes, of which the first `16 - (n - at)` are before the tail.
        let (s, v) = group(view.len() - 16);
        let skip = 16 - (n - at);
        spaces |= (s >> skip) << at;
        variables |= (v >> skip) << at;
    }
    (spaces, variables)
}

/// [`plain_bytes`](super::portable::plain_bytes) with SSE2, which every x86-64 CPU has:
/// safe to call on any of them. Appends `units` to `out` as bytes and says
/// true when every unit is ASCII and none is an escape, `\r`, `\n` or the
/// `^` of a `^[`; otherwise `out` is left as it was (bytes past its length
/// may have been written). Lines shorter than a vector and the unit after
/// it go to the portable copy.
pub(crate) fn plain_bytes(units: &[u16], out: &mut Vec<u8>) -> bool {
    let n = units.len();
    if n < 9 {
        return super::portable::plain_bytes(units, out);
    }
    out.reserve(n);
    let dst = out.spare_capacity_mut().as_mut_ptr().cast::<u8>();
    // SAFETY: SSE2 is baseline on x86-64. Every load reads 8 units at `at`
    // or `at + 1` with `at + 9 <= n`, inside `units`; every store writes 8
    // bytes ending at or before `n`, inside the `n` bytes of spare capacity
    // reserved above.
    unsafe {
        let unit = |u: u8| _mm_set1_epi16(i16::from(u));
        let load = |at: usize| _mm_loadu_si128(units.as_ptr().add(at).cast());
        // Non-zero lanes: a unit over 0x7F, an escape, `\r` or `\n`.
        let bad = |w: __m128i| {
            let controls = _mm_or_si128(
                _mm_cmpeq_epi16(w, unit(0x1B)),
                _mm_or_si128(_mm_cmpeq_epi16(w, unit(b'\r')), _mm_cmpeq_epi16(w, unit(b'\n'))),
            );
            _mm_or_si128(_mm_and_si128(w, _mm_set1_epi16(0xFF80u16 as i16)), controls)
        };
        // Lanes of `v` that are the `^` of a `^[` (`next`: the units one on).
        let caret = |v: __m128i, next: __m128i| {
            _mm_and_si128(_mm_cmpeq_epi16(v, unit(b'^')), _mm_cmpeq_epi16(next, unit(b'[')))
        };
        let mut flags = _mm_setzero_si128();
        let mut at = 0;
        while at + 9 <= n {
            let (v, next) = (load(at), load(at + 1));
            flags = _mm_or_si128(flags, _mm_or_si128(bad(v), caret(v, next)));
            _mm_storel_epi64(dst.add(at).cast(), _mm_packus_epi16(v, v));
            at += 8;
        }
        if at < n {
            // The units the loop left are among the last eight.
            let (v, last) = (load(n - 9), load(n - 8));
            flags = _mm_or_si128(flags, _mm_or_si128(bad(last), caret(v, last)));
            _mm_storel_epi64(dst.add(n - 8).cast(), _mm_packus_epi16(last, last));
        }
        if _mm_movemask_epi8(_mm_cmpeq_epi16(flags, _mm_setzero_si128())) != 0xFFFF {
            return false;
        }
        out.set_len(out.len() + n);
    }
    true
}

/// [`same_but_digits`](super::portable::same_but_digits) with AVX2
/// intrinsics, sixteen units a compare (the last sixteen for the tail, one
/// mask at the end), for slices of sixteen units or more (a flood's lines
/// mostly are).
///
/// # Safety
/// The CPU must have AVX2, and `a` and `b` must be
/// of one length, at least 16.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn same_but_digits(a: &[u16], b: &[u16]) -> bool {
    let n = a.len();
    debug_assert!(n >= 16 && b.len() == n);
    // SAFETY: every load reads 16 units at `at` with `at + 16 <= n`, inside
    // both slices (the caller's contract).
    unsafe {
        let load = |s: &[u16], at: usize| _mm256_loadu_si256(s.as_ptr().add(at).cast());
        let (zero, nine) = (_mm256_set1_epi16(i16::from(b'0')), _mm256_set1_epi16(9));
        // Lanes holding a digit: `u - '0'` (wrapping) is at most 9.
        let digits =
            |v: __m256i| _mm256_cmpeq_epi16(_mm256_subs_epu16(_mm256_sub_epi16(v, zero), nine), _mm256_setzero_si256());
        let alike = |at: usize| {
            let (x, y) = (load(a, at), load(b, at));
            _mm256_or_si256(_mm256_cmpeq_epi16(x, y), _mm256_and_si256(digits(x), digits(y)))
        };
        // The last sixteen units first: the loop then stops short of them.
        let mut all = alike(n - 16);
        let mut at = 0;
        while at + 16 < n {
            all = _mm256_and_si256(all, alike(at));
            at += 16;
        }
        _mm256_movemask_epi8(all) == -1
    }
}
