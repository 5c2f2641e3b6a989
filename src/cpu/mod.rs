//! Which CPU-specific paths may run, decided once per process.
//!
//! The core has one portable version of every loop. On x86-64 a few of them
//! are also compiled for AVX2, or written with SSE2 intrinsics, where the
//! benchmark showed a gain: all of those live in [`x86_64`], each with the
//! condition under which it may run. Everything else, Apple Silicon
//! included, runs the portable code, and property tests compare every fast
//! path against it.
//!
//! Setting the environment variable `TOOL_RESULT_PRUNER_PORTABLE` (to any
//! value) before the first prune turns the fast paths off, so the portable
//! code can be measured on any machine (`npm run bench:portable`).

use std::sync::OnceLock;

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

/// The environment variable that forces the portable paths.
pub const PORTABLE_ENV: &str = "TOOL_RESULT_PRUNER_PORTABLE";

/// True when this CPU has AVX2 (and POPCNT) and the portable paths are not
/// forced. Read once; later calls are a load.
#[inline]
pub fn avx2() -> bool {
    static AVX2: OnceLock<bool> = OnceLock::new();
    *AVX2.get_or_init(|| std::env::var_os(PORTABLE_ENV).is_none() && detect_avx2())
}

/// True on x86-64 (where SSE2 is baseline) unless the portable paths are
/// forced: for the few loops written with SSE2 intrinsics.
#[inline]
pub fn sse2() -> bool {
    static SSE2: OnceLock<bool> = OnceLock::new();
    cfg!(target_arch = "x86_64") && *SSE2.get_or_init(|| std::env::var_os(PORTABLE_ENV).is_none())
}

#[cfg(target_arch = "x86_64")]
fn detect_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("popcnt")
}

#[cfg(not(target_arch = "x86_64"))]
fn detect_avx2() -> bool {
    false
}
