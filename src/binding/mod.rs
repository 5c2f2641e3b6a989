//! The Node-API surface: JS values in, core calls, JS values out. No
//! pruning logic lives here; every export catches panics so a bug in Rust
//! becomes a JS error instead of aborting the process.

// Test builds of the crate leave the exports unregistered, so they look unused.
#![cfg_attr(test, allow(dead_code))]

mod blocks;
mod js;
mod lines;
mod session;
mod zstd;

use napi::bindgen_prelude::Unknown;
use napi::{Env, JsValue, Result};
use napi_derive::napi;

use crate::config::Budgets;
use crate::select::LineOptions;
use crate::session::prune_session;
use crate::strategy::{Pruner, Strategy};
use blocks::JsBlocks;
use js::{Js, Raw};
use session::JsSessionLog;

/// The config as the plugin resolved it (already validated in JS).
#[napi(object)]
pub struct PrunerOptions {
    pub threshold_chars: f64,
    pub head_chars: f64,
    pub tail_chars: f64,
    /// `'head-tail'` (default) or `'lines'`.
    #[napi(ts_type = "'head-tail' | 'lines'")]
    pub strategy: Option<String>,
    pub context_lines: Option<f64>,
    pub edge_lines: Option<f64>,
}

/// The native pruner behind the `toolResultPruner` service.
#[napi]
pub struct NativePruner {
    pruner: Pruner,
}

fn js(env: &Env) -> Js {
    Js(env.raw())
}

/// A budget as an integer count; values past any string's length saturate.
fn budget(env: &Env, name: &str, value: f64, min: f64) -> Result<u64> {
    if !(value.fract() == 0.0 && value >= min) {
        return Err(
            js(env).range_error(&format!("ToolResultPruneConfig: {name} ({value}) must be an integer >= {min}"))
        );
    }
    Ok(value as u64)
}

#[napi]
impl NativePruner {
    #[napi(constructor, catch_unwind)]
    pub fn new(env: Env, options: PrunerOptions) -> Result<Self> {
        let threshold = budget(&env, "thresholdChars", options.threshold_chars, 1.0)?;
        let head = budget(&env, "headChars", options.head_chars, 0.0)?;
        let tail = budget(&env, "tailChars", options.tail_chars, 0.0)?;
        let budgets = Budgets::new(threshold, head, tail).map_err(|e| js(&env).range_error(&e.to_string()))?;
        let strategy = match options.strategy.as_deref() {
            None | Some("head-tail") => Strategy::HeadTail,
            Some("lines") => Strategy::Lines(LineOptions {
                context: budget(&env, "contextLines", options.context_lines.unwrap_or(2.0), 0.0)? as usize,
                edge: budget(&env, "edgeLines", options.edge_lines.unwrap_or(2.0), 0.0)? as usize,
            }),
            Some(other) => {
                return Err(js(&env)
                    .type_error(&format!("ToolResultPruneConfig: strategy ({other}) must be 'head-tail' or 'lines'")));
            }
        };
        Ok(NativePruner { pruner: Pruner { budgets, strategy } })
    }

    /// Code points of the text blocks.
    #[napi(catch_unwind, ts_args_type = "blocks: ReadonlyArray<object>")]
    pub fn measure_content(&self, env: Env, blocks: Unknown) -> Result<f64> {
        Ok(blocks::measure(js(&env), blocks.raw(), "measureContent: blocks")? as f64)
    }

    /// The pruned block array, or `null` when within the threshold.
    #[napi(catch_unwind, ts_args_type = "blocks: ReadonlyArray<object>", ts_return_type = "Array<object> | null")]
    pub fn prune_content(&self, env: Env, blocks: Unknown) -> Result<Raw> {
        let js = js(&env);
        let read = JsBlocks::read(js, blocks.raw(), "pruneContent: blocks")?;
        match self.pruner.prune(&read.core()) {
            Some(pruned) => Ok(Raw(read.build(js, &pruned)?)),
            None => Ok(Raw(js.null()?)),
        }
    }

    /// Prunes one stable snapshot of `session.surface`; see the shim for the
    /// contract. In lines mode each entry also carries `recoverable`.
    #[napi(
        catch_unwind,
        ts_args_type = "session: object, host: { estimateMessage(message: object): number; freezeMessage(message: object): object }",
        ts_return_type = "{ pruned: Array<{ originalSeq: number; replacementSeq: number; callId: unknown; charsBefore: number; charsAfter: number; recoverable?: Record<string, string> }>; charsRemoved: number }"
    )]
    pub fn prune_session(&self, env: Env, session: Unknown, host: Unknown) -> Result<Raw> {
        let js = js(&env);
        let mut log = JsSessionLog::new(js, session.raw(), host.raw())?;
        let pruner = self.pruner;
        let report = prune_session(&mut log, |blocks| pruner.prune(blocks))?;
        let lines_mode = matches!(pruner.strategy, Strategy::Lines(_));
        let mut entries = Vec::with_capacity(report.pruned.len());
        for entry in &report.pruned {
            let item = js.object()?;
            js.set(item, c"originalSeq", js.number(entry.original_seq as f64)?)?;
            js.set(item, c"replacementSeq", js.number(entry.replacement_seq as f64)?)?;
            js.set(item, c"callId", entry.call_id)?;
            js.set(item, c"charsBefore", js.number(entry.chars_before as f64)?)?;
            js.set(item, c"charsAfter", js.number(entry.chars_after as f64)?)?;
            if lines_mode {
                js.set(item, c"recoverable", lines::recoverable_object(js, &entry.recoverable)?)?;
            }
            entries.push(item);
        }
        let out = js.object()?;
        js.set(out, c"pruned", js.array_of(&entries)?)?;
        js.set(out, c"charsRemoved", js.number(report.chars_removed as f64)?)?;
        Ok(Raw(out))
    }
}

/// The exact text a `<<ccr:HASH …>>` marker in one of `session`'s pruned
/// tool results stands for, found from the log (the replacement and the
/// original it cites); `undefined` for any hash the pruner did not write.
#[napi(catch_unwind, ts_args_type = "session: object, hash: string", ts_return_type = "string | undefined")]
pub fn retrieve(env: Env, session: Unknown, hash: Unknown) -> Result<Raw> {
    let js = js(&env);
    let hash = String::from_utf16_lossy(&lines::string_arg(js, hash.raw(), "retrieve: hash")?);
    let found = if crate::markers::is_hash(&hash) { session::retrieve(js, session.raw(), &hash)? } else { None };
    Ok(Raw(match found {
        Some(text) => js.string_utf16(&text)?,
        None => js.undefined()?,
    }))
}

/// The copy limit, for benchmarks: receives every text block's string as
/// UTF-16 exactly as the pruner does, and returns the total length. No
/// pruner can be faster than receiving its input.
#[napi(catch_unwind, ts_args_type = "blocks: ReadonlyArray<object>")]
pub fn receive_texts(env: Env, blocks: Unknown) -> Result<f64> {
    let read = JsBlocks::read(js(&env), blocks.raw(), "receiveTexts: blocks")?;
    Ok(read
        .core()
        .iter()
        .map(|b| match b {
            crate::content::Block::Text(t) => t.len() as f64,
            crate::content::Block::Other => 0.0,
        })
        .sum())
}

/// Panics on purpose: the test suite checks that a Rust panic reaches JS as
/// an `Error` and the process goes on (every export catches panics).
#[napi(catch_unwind, js_name = "__testPanic")]
pub fn test_panic(message: String) -> Result<()> {
    panic!("{message}")
}

/// Code points in `text`, counted as `Array.from(text).length` does.
#[napi(catch_unwind, ts_args_type = "text: string")]
pub fn code_point_length(env: Env, text: Unknown) -> Result<f64> {
    let js = js(&env);
    let value = text.raw();
    if !js.is_string(value)? {
        return Err(js.type_error("codePointLength: text must be a string"));
    }
    let mut units = Vec::new();
    js.read_utf16(value, &mut units)?;
    Ok(crate::text::code_point_len(&units) as f64)
}
