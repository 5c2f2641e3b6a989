//! Test and bench hooks, built only with the `testing` feature into the
//! addon under `target/testing/addon/` (`npm run build:testing`), never into the
//! published one.

use napi::bindgen_prelude::Unknown;
use napi::{Env, Result};
use napi_derive::napi;

use super::blocks::JsBlocks;
use crate::content::Block;

/// The copy limit, for benchmarks: receives every text block's string as
/// UTF-16 exactly as the pruner does, and returns the total length. No
/// pruner can be faster than receiving its input.
#[napi(catch_unwind, ts_args_type = "blocks: ReadonlyArray<ContentBlock>")]
pub fn receive_texts(env: Env, blocks: Unknown) -> Result<f64> {
    let read = JsBlocks::read(&env, &blocks, "receiveTexts: blocks")?;
    Ok(read.core().iter().map(|b| if let Block::Text(t) = b { t.len() as f64 } else { 0.0 }).sum())
}

/// Panics on purpose: the test suite checks that a Rust panic reaches JS as
/// an `Error` and the process goes on (every export catches panics).
#[napi(catch_unwind, js_name = "__testPanic")]
pub fn test_panic(message: String) -> Result<()> {
    panic!("{message}")
}
