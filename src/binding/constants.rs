//! The facts the plugin, the command line and the tests read from the
//! addon instead of writing them again. Each is the core's.

use napi_derive::napi;

use crate::{config, hash, pages, zstd};

/// The marker head/tail puts in place of the removed middle (upstream's).
#[napi]
pub const PRUNE_MARKER: &str = config::PRUNE_MARKER;
/// Length of `PRUNE_MARKER` in code points (and UTF-16 units: it is ASCII).
#[napi]
pub const PRUNE_MARKER_LEN: u32 = config::PRUNE_MARKER_LEN as u32;
/// Hex digits in a retrieval hash (lowercase; `findHash` finds one in text).
#[napi]
pub const HASH_LEN: u32 = hash::HASH_LEN as u32;
/// Neighbours a page shows on each side of a line that matches `search`.
#[napi]
pub const SEARCH_CONTEXT: u32 = pages::SEARCH_CONTEXT as u32;
/// The most bytes the command line reads from one input (a file, stdin, a
/// decompressed log); see the core's `zstd::MAX_INPUT_BYTES`.
#[napi]
pub const MAX_INPUT_BYTES: u32 = zstd::MAX_INPUT_BYTES as u32;
