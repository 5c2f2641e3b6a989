//! The session policy's glue: per-tool rules and the pressure reading in,
//! the calls and prices a policy pass reads from a dsh `Session`, and its
//! result out. What a pass does is [`crate::policy`]'s.
//!
//! A result's call is the `tool/call` event `{ data: { callId, name,
//! arguments } }` with the result's `message.source.callId`: the event the
//! result cites first (`sourceEventSeqs[0]`, as dsh-agent-loop appends it),
//! else any with that call id. A price is `host.estimateMessage(message)`,
//! of the original message or of its replacement (built as the replacement
//! is, not frozen).

use std::collections::HashMap;

use napi::bindgen_prelude::{JsObjectValue, Object, Unknown, Utf16String};
use napi::{Env, JsValue, Result};
use napi_derive::napi;

use super::PrunerOptions;
use super::dsh::{JsContent, JsSessionLog, as_seq, has_type};
use super::values::{array_of, as_object, call_method, get, number, safe_count, spread_with, string_units, type_error};
use crate::command_kind::CallKind;
use crate::content::Pruned;
use crate::policy::{Call, CallLog, PolicyReport, Pressure};
use crate::session::Seq;
use crate::strategy::Strategy;
use crate::strategy::lines::LineOptions;

/// One tool's rule, as the plugin resolved it.
#[napi(object)]
pub struct ToolRule {
    /// The tool's name.
    #[napi(ts_type = "string")]
    pub name: Utf16String,
    /// Its budgets and strategy; absent: its results are never pruned.
    pub options: Option<PrunerOptions>,
}

/// The host's pressure when `pruneSession` was called, in the meter's tokens.
#[napi(object)]
pub struct SessionPressure {
    /// `tokenMeter.measure(session).totalTokens`.
    pub total_tokens: f64,
    /// Where the host compacts: `floor(contextWindow * thresholdRatio)`.
    pub threshold_tokens: f64,
}

impl SessionPressure {
    /// The core's reading; `None` unless both are non-negative safe integers.
    pub fn core(&self) -> Option<Pressure> {
        Some(Pressure {
            total_tokens: safe_count(self.total_tokens)?,
            threshold_tokens: safe_count(self.threshold_tokens)?,
        })
    }
}

impl<'env> JsSessionLog<'env> {
    /// `name` and `arguments` of the `tool/call` event at `seq` if it is one with call id `id`.
    fn call_at(&mut self, seq: Seq, id: &[u16]) -> Result<Option<Call>> {
        let Some(event) = self.event(seq, "pruneSession")? else { return Ok(None) };
        if !has_type(&event, "tool/call")? {
            return Ok(None);
        }
        let Some(data) = as_object(&get(&as_object(&event)?.expect("typed events are objects"), c"data")?)? else {
            return Ok(None);
        };
        if string_units(&get(&data, c"callId")?)?.as_deref() != Some(id) {
            return Ok(None);
        }
        let tool = string_units(&get(&data, c"name")?)?;
        let args = string_units(&get(&data, c"arguments")?)?;
        Ok(tool.map(|tool| Call { tool, args: args.unwrap_or_default() }))
    }

    /// The seq of the `tool/call` event with call id `id`, from one scan of the log.
    fn call_seq_by_id(&mut self, id: &[u16]) -> Result<Option<Seq>> {
        if self.calls_by_id.is_none() {
            let (events, len) = self.events("pruneSession")?;
            let mut map = HashMap::new();
            for seq in 0..len {
                let event: Unknown = events.get_element(seq)?;
                if !has_type(&event, "tool/call")? {
                    continue;
                }
                let Some(data) = as_object(&get(&as_object(&event)?.expect("typed events are objects"), c"data")?)?
                else {
                    continue;
                };
                if let Some(call_id) = string_units(&get(&data, c"callId")?)? {
                    map.entry(call_id).or_insert(seq);
                }
            }
            self.calls_by_id = Some(map);
        }
        Ok(self.calls_by_id.as_ref().and_then(|m| m.get(id)).map(|&s| Seq::from(s)))
    }
}

impl<'env> CallLog for JsSessionLog<'env> {
    fn call(&mut self, seq: Seq, content: &JsContent<'env>) -> Result<Option<Call>> {
        let Some(source) = as_object(&get(&content.message, c"source")?)? else { return Ok(None) };
        let Some(id) = string_units(&get(&source, c"callId")?)? else { return Ok(None) };
        let cited = match self.event(seq, "pruneSession")?.map(|e| as_object(&e)).transpose()?.flatten() {
            Some(event) => {
                let seqs = get(&event, c"sourceEventSeqs")?;
                match as_object(&seqs)? {
                    Some(array) if seqs.is_array()? && array.get_array_length()? > 0 => as_seq(&array.get_element(0)?)?,
                    _ => None,
                }
            }
            None => None,
        };
        if let Some(cited) = cited
            && let Some(call) = self.call_at(cited, &id)?
        {
            return Ok(Some(call));
        }
        match self.call_seq_by_id(&id)? {
            Some(at) => self.call_at(at, &id),
            None => Ok(None),
        }
    }

    fn price(&mut self, content: &JsContent<'env>, pruned: Option<&Pruned>) -> Result<u64> {
        let env = self.env;
        let message = match pruned {
            None => content.message.to_unknown(),
            Some(pruned) => {
                let result = spread_with(env, &content.result, "content", content.blocks.build(env, pruned)?)?;
                let blocks = array_of(env, vec![result.to_unknown()])?.to_unknown();
                spread_with(env, &content.message, "content", blocks)?.to_unknown()
            }
        };
        let price = call_method(env, &self.host, c"estimateMessage", "host.estimateMessage", message)?;
        number(&price)?
            .and_then(safe_count)
            .ok_or_else(|| type_error(env, "pruneSession: host.estimateMessage must return a non-negative integer"))
    }
}

/// The JS result of a policy pass: upstream's fields, then on every entry
/// `recoverable`, `tokensBefore` and `tokensAfter`, and in lines mode `kinds`
/// and `kindFrom` (the command that named the kind, or `'sample'`); and
/// with `recentTokens` (`recent`), `keptRecent`, the results left whole as recent.
pub fn report_object<'env>(
    env: &'env Env,
    report: &PolicyReport,
    call_ids: &[Unknown<'env>],
    recent: bool,
) -> Result<Object<'env>> {
    let mut entries = Vec::with_capacity(report.pruned.len());
    for (entry, call_id) in report.pruned.iter().zip(call_ids) {
        let mut item = Object::new(env)?;
        item.set_named_property("originalSeq", entry.original_seq as f64)?;
        item.set_named_property("replacementSeq", entry.replacement_seq as f64)?;
        item.set_named_property("callId", *call_id)?;
        item.set_named_property("charsBefore", entry.chars_before as f64)?;
        item.set_named_property("charsAfter", entry.chars_after as f64)?;
        item.set_named_property("recoverable", super::recoverable_object(env, &entry.recoverable)?)?;
        item.set_named_property("tokensBefore", entry.tokens_before as f64)?;
        item.set_named_property("tokensAfter", entry.tokens_after as f64)?;
        if let Some((kinds, named)) = &entry.kinds {
            item.set_named_property("kinds", kinds.iter().map(|k| k.name()).collect::<Vec<_>>())?;
            item.set_named_property("kindFrom", named.as_ref().map_or("sample", |n| n.reason.as_str()))?;
        }
        entries.push(item.to_unknown());
    }
    let mut out = Object::new(env)?;
    out.set_named_property("pruned", array_of(env, entries)?)?;
    out.set_named_property("charsRemoved", report.chars_removed as f64)?;
    if recent {
        out.set_named_property("keptRecent", report.kept_recent.iter().map(|&s| s as f64).collect::<Vec<_>>())?;
    }
    Ok(out)
}

/// The kind a shell command names for its output.
#[napi(object)]
pub struct CommandKind {
    /// `log`, `code`, `diff`, `search`, `json` or `listing`.
    #[napi(ts_type = "'log' | 'code' | 'diff' | 'search' | 'json' | 'listing'")]
    pub kind: String,
    /// The words that decided, such as `` `git diff` ``.
    pub reason: String,
}

/// The kind the shell command `command` names for what it prints, or
/// `null` when it is ambiguous (the sample decides).
#[napi(catch_unwind, ts_args_type = "command: string")]
pub fn kind_of_command(env: Env, command: Unknown) -> Result<Option<CommandKind>> {
    Ok(command_kind(&env, Some(&command), "kindOfCommand: command")?
        .map(|c| CommandKind { kind: c.kind.name().to_owned(), reason: c.reason }))
}

/// The kind an optional command argument names; a `TypeError` naming
/// `what` for a value that is neither a string nor `undefined`, and `None`
/// for a command with a lone surrogate (never read lossily).
pub fn command_kind(env: &Env, command: Option<&Unknown>, what: &str) -> Result<Option<CallKind>> {
    let Some(command) = command else { return Ok(None) };
    if command.get_type()? == napi::ValueType::Undefined {
        return Ok(None);
    }
    let units = super::values::string_arg(env, command, what)?;
    Ok(String::from_utf16(&units).ok().and_then(|c| crate::command_kind::kind_of_command(&c)))
}

/// `strategy` planning every text as `named` says, in lines mode.
pub fn hinted(strategy: Strategy, named: Option<&CallKind>) -> Strategy {
    match strategy {
        Strategy::Lines(options) => Strategy::Lines(LineOptions { kind: named.map(|n| n.kind), ..options }),
        other => other,
    }
}
