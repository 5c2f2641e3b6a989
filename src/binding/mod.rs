//! The Node-API surface: JS values in, core calls, JS values out. No
//! pruning logic lives here; every export catches panics so a bug in Rust
//! becomes a JS error instead of aborting the process.

mod blocks;
mod js;
mod session;

use napi::bindgen_prelude::Unknown;
use napi::{Env, JsValue, Result};
use napi_derive::napi;

use crate::config::Budgets;
use crate::head_tail;
use crate::session::prune_session;
use blocks::JsBlocks;
use js::{Js, Raw};
use session::JsSessionLog;

/// Budgets as the plugin resolved them (already validated in JS).
#[napi(object)]
pub struct PrunerOptions {
    pub threshold_chars: f64,
    pub head_chars: f64,
    pub tail_chars: f64,
}

/// The native pruner behind the `toolResultPruner` service.
#[napi]
pub struct NativePruner {
    budgets: Budgets,
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
        Ok(NativePruner { budgets })
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
        match head_tail::prune(&read.core(), &self.budgets) {
            Some(pruned) => Ok(Raw(read.build(js, &pruned)?)),
            None => Ok(Raw(js.null()?)),
        }
    }

    /// Prunes one stable snapshot of `session.surface`; see the shim for the contract.
    #[napi(
        catch_unwind,
        ts_args_type = "session: object, host: { estimateMessage(message: object): number; freezeMessage(message: object): object }",
        ts_return_type = "{ pruned: Array<{ originalSeq: number; replacementSeq: number; callId: unknown; charsBefore: number; charsAfter: number }>; charsRemoved: number }"
    )]
    pub fn prune_session(&self, env: Env, session: Unknown, host: Unknown) -> Result<Raw> {
        let js = js(&env);
        let mut log = JsSessionLog::new(js, session.raw(), host.raw())?;
        let budgets = self.budgets;
        let report = prune_session(&mut log, |blocks| head_tail::prune(blocks, &budgets))?;
        let mut entries = Vec::with_capacity(report.pruned.len());
        for entry in &report.pruned {
            let item = js.object()?;
            js.set(item, c"originalSeq", js.number(entry.original_seq as f64)?)?;
            js.set(item, c"replacementSeq", js.number(entry.replacement_seq as f64)?)?;
            js.set(item, c"callId", entry.call_id)?;
            js.set(item, c"charsBefore", js.number(entry.chars_before as f64)?)?;
            js.set(item, c"charsAfter", js.number(entry.chars_after as f64)?)?;
            entries.push(item);
        }
        let out = js.object()?;
        js.set(out, c"pruned", js.array_of(&entries)?)?;
        js.set(out, c"charsRemoved", js.number(report.chars_removed as f64)?)?;
        Ok(Raw(out))
    }
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
