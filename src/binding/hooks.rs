//! Test and bench hooks, built only with the `testing` feature into the
//! addon under `target/testing/addon/` (`npm run build:testing`), never into the
//! published one.

use napi::bindgen_prelude::Unknown;
use napi::{Env, Result};
use napi_derive::napi;

use super::blocks::JsBlocks;
use super::explained_line::{KeepReason, LineClass, LineFate};
use super::strategy_name::StrategyName;
use super::text_kind::TextKind;
use crate::config;
use crate::content::Block;
use crate::explain::{Class, Why};
use crate::markers::Unit;
use crate::strategy::lines::{Fate, Kind};

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

/// Every word list the core names. A list the binding writes to JS pairs
/// each variant's spelling in the core with the value the binding converts
/// it to, as napi-rs writes it (the two must be the same string); `units`,
/// which JS writes, holds the core's names alone.
#[napi(object, object_from_js = false)]
pub struct WordLists {
    /// Every [`config::StrategyName`].
    pub strategies: Vec<(&'static str, StrategyName)>,
    /// Every [`Kind`].
    pub kinds: Vec<(&'static str, TextKind)>,
    /// Every [`Why`], each kept reason first.
    pub reasons: Vec<(&'static str, KeepReason)>,
    /// Every [`Class`].
    pub classes: Vec<(&'static str, LineClass)>,
    /// Every [`Fate`].
    pub fates: Vec<(&'static str, LineFate)>,
    /// Every marker [`Unit`]'s name.
    pub units: Vec<&'static str>,
}

/// The core's word lists and their JS spellings (see [`WordLists`]).
#[napi(js_name = "__wordLists")]
pub fn word_lists() -> WordLists {
    fn spelled<C: Copy, B: From<C>>(
        all: impl IntoIterator<Item = C>,
        name: fn(C) -> &'static str,
    ) -> Vec<(&'static str, B)> {
        all.into_iter().map(|c| (name(c), B::from(c))).collect()
    }
    WordLists {
        strategies: spelled(config::StrategyName::ALL, config::StrategyName::name),
        kinds: spelled(Kind::ALL, Kind::name),
        reasons: spelled(Why::all(), Why::name),
        classes: spelled(Class::ALL, Class::name),
        fates: spelled(Fate::ALL, Fate::name),
        units: Unit::ALL.map(Unit::name).to_vec(),
    }
}
