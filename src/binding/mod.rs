//! The Node-API surface: glue over the core, one file per JS type.
//!
//! Each export reads its JS arguments (checked, naming the field in a
//! `TypeError`/`RangeError`), calls the core, and returns the core's answer
//! as a typed napi-rs value: an `#[napi(object)]` per result type, a
//! `string_enum` per set of words, each beside its conversion from the core
//! type. napi-rs generates index.d.ts from them, and the plugin's types are
//! that file's. Text crosses as UTF-16 both ways, exactly: lone surrogates
//! survive. No rule lives here: the config is resolved by
//! [`crate::config`], pages by [`crate::pages`], explanations by
//! [`crate::explain`], zstd frames by [`crate::zstd`]. Every export catches
//! panics, so a bug in Rust becomes a JS error instead of aborting the
//! process.

// Test builds of the crate leave the exports unregistered, so they look unused.
#![cfg_attr(test, allow(dead_code))]

// Arguments and the JS values behind them.
mod blocks;
mod raw;
mod values;

// dsh's shapes, in one module.
mod dsh;

// Exports: constants, functions and the pruner class.
mod command_kind;
mod config;
mod config_key;
mod constants;
mod policy;
mod pruner;
mod retrieve;
mod text;
mod zstd;

// Result and option types, one a file, each with its conversion.
mod explained_line;
mod line_plan;
mod page_options;
mod prune_result;
mod pruned_entry;
mod resolved_config;
mod strategy_name;
mod text_kind;
mod text_page;

// The test and bench hooks: only in the `testing` build.
#[cfg(feature = "testing")]
mod hooks;
