//! The CPU kernels: the hot loops over code units and bytes, and the one
//! place that knows which CPU runs them.
//!
//! Each kernel has a portable reference ([`portable`]), written so the
//! compiler vectorises it; on x86-64 some are also built for AVX2 or
//! written with SSE2 intrinsics ([`x86_64`]) where the benchmark showed a
//! gain. The functions here are the kernels the rest of the crate calls:
//! each picks its build from the [`Level`] decided once per process. One
//! property test per vector kernel holds it to its reference. This is the
//! only module with `cfg(target_arch)`, and it imports nothing of the
//! domain: text, signals and hashing call it, never the reverse.
//!
//! Setting the environment variable `TOOL_RESULT_PRUNER_PORTABLE` (to any
//! value) before the first prune turns the vector builds off, so the
//! portable code can be measured on any machine (`npm run bench:portable`).

use std::ops::Range;
use std::sync::OnceLock;

pub mod literals;
pub mod portable;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "x86_64")]
mod x86_64;

pub use portable::{COUNT_SPACE, GLYPH, PASS_GLYPH, is_high_surrogate, is_low_surrogate, is_space, is_variable};

/// The environment variable that forces the portable kernels.
pub const PORTABLE_ENV: &str = "TOOL_RESULT_PRUNER_PORTABLE";

/// Which builds of the kernels this process runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// The portable references only (any CPU, or forced).
    Portable,
    /// x86-64's baseline: the SSE2 kernels.
    Sse2,
    /// x86-64 with AVX2 and POPCNT: every vector kernel.
    Avx2,
}

/// The level of this process: read once, later calls are a load.
#[inline]
pub fn level() -> Level {
    static LEVEL: OnceLock<Level> = OnceLock::new();
    *LEVEL.get_or_init(|| if std::env::var_os(PORTABLE_ENV).is_some() { Level::Portable } else { detect() })
}

#[cfg(target_arch = "x86_64")]
fn detect() -> Level {
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("popcnt") {
        Level::Avx2
    } else {
        Level::Sse2
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> Level {
    Level::Portable
}

/// Number of code points in `text`; a lone surrogate counts as one.
#[inline]
pub fn code_point_len(text: &[u16]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if level() == Level::Avx2 {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { x86_64::code_point_len(text) };
    }
    portable::code_point_len(text)
}

/// Number of `\n` units in `text`.
#[inline]
pub fn count_newlines(text: &[u16]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if level() == Level::Avx2 {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { x86_64::count_newlines(text) };
    }
    portable::count_newlines(text)
}

/// Calls `f` with each line of `text` (split after each `\n`, the last
/// line possibly without one) and its code points, in order.
#[inline]
pub fn for_each_line(text: &[u16], f: &mut impl FnMut(Range<usize>, usize)) {
    #[cfg(target_arch = "x86_64")]
    if level() == Level::Avx2 {
        // SAFETY: the CPU has AVX2 and POPCNT, checked just above.
        return unsafe { x86_64::for_each_line(text, f) };
    }
    portable::scan_lines(text, f, portable::line_masks);
}

/// Writes `text` narrowed to one byte a unit into `out` (cleared first),
/// `before` being the unit before it (see [`portable::narrow`]).
#[inline]
pub fn narrow(text: &[u16], before: u16, out: &mut Vec<u8>) {
    #[cfg(target_arch = "x86_64")]
    if level() == Level::Avx2 {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { x86_64::narrow(text, before, out) };
    }
    portable::narrow(text, before, out);
}

/// Writes `text` as one byte a unit into `out` (cleared first): ASCII
/// lower-cased, anything else `0x80` (see [`portable::fold_ascii`]).
#[inline]
pub fn fold_ascii(text: &[u16], out: &mut Vec<u8>) {
    #[cfg(target_arch = "x86_64")]
    if level() == Level::Avx2 {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { x86_64::fold_ascii(text, out) };
    }
    portable::fold_ascii(text, out);
}

/// Writes the (W)UTF-8 bytes of `units` into `out` (room for three bytes
/// a unit and one more); returns how many (see [`portable::encode`]).
#[inline]
pub fn encode(units: &[u16], out: &mut [u8]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if level() == Level::Avx2 {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { x86_64::encode(units, out) };
    }
    portable::encode(units, out)
}

/// The white-space and variable-byte masks of the (up to) 64 ASCII bytes
/// of `view` from `base` (bit `i` for byte `base + i`; see
/// [`portable::masks_swar`]).
#[inline]
pub fn word_masks(view: &[u8], base: usize) -> (u64, u64) {
    #[cfg(target_arch = "x86_64")]
    if level() >= Level::Sse2 {
        return x86_64::word_masks(view, base);
    }
    portable::masks_swar(&view[base..(base + 64).min(view.len())])
}

/// Appends `units` to `out` as bytes and says true when every unit is
/// ASCII and none is an escape, `\r`, `\n` or the `^` of a `^[`; otherwise
/// `out` is left as it was (see [`portable::plain_bytes`]).
#[inline]
pub fn plain_bytes(units: &[u16], out: &mut Vec<u8>) -> bool {
    #[cfg(target_arch = "x86_64")]
    if level() >= Level::Sse2 {
        return x86_64::plain_bytes(units, out);
    }
    portable::plain_bytes(units, out)
}

/// Whether `a` and `b` are of one length and equal unit for unit but
/// where both hold a digit.
#[inline]
pub fn same_but_digits(a: &[u16], b: &[u16]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    if a.len() >= 16 && level() == Level::Avx2 {
        // SAFETY: the CPU has AVX2; both slices are of one length, at least 16.
        return unsafe { x86_64::same_but_digits(a, b) };
    }
    portable::same_but_digits(a, b)
}
