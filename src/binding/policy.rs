//! The session policy's glue: the resolved policy keys and the pressure
//! reading in, and the calls and prices a policy pass reads from a dsh
//! `Session`. What a
//! pass does is [`crate::policy`]'s; its result is [`PruneResult`]'s.
//!
//! A result's call is the `tool/call` event `{ data: { callId, name,
//! arguments } }` with the result's `message.source.callId`: the event the
//! result cites first (`sourceEventSeqs[0]`, as dsh-agent-loop appends it),
//! else any with that call id. A price is `host.estimateMessage(message)`,
//! of the original message or of its replacement (built as the replacement
//! is, not frozen).
//!
//! [`PruneResult`]: super::prune_result::PruneResult

use std::collections::HashMap;

use napi::bindgen_prelude::{JsObjectValue, Unknown};
use napi::{JsValue, Result};
use napi_derive::napi;

use super::dsh::session::{JsContent, JsPruneLog};
use super::dsh::{ASSISTANT_MESSAGE, TOOL_CALL, USER_MESSAGE};
use super::dsh::{as_seq, has_type};
use super::values::type_error;
use super::values::{array_of, as_object, call_method, get, number, safe_count, spread_with, string_units};
use crate::config::{DEFAULT_READ_KEEP_CHARS, ResolvedPolicy, ToolRule};
use crate::content::Pruned;
use crate::policy::{Call, CallLog, Policy, Pressure, Rule};
use crate::session::Seq;
use crate::strategy::{Pruner, Strategy};

/// The host's pressure when `pruneSession` was called, in the meter's tokens.
#[napi(object, object_to_js = false)]
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

/// The policy of a pruner whose default is `pruner`, from the config's
/// resolved policy keys: `None` unless a key asks for one or lines mode
/// names kinds by the call. A `recentTokens` past 2^64 is as good as no
/// bound; it saturates.
pub fn policy(pruner: Pruner, resolved: &ResolvedPolicy) -> Option<Policy> {
    // A non-negative integer: the cast is exact below 2^64 and saturates above.
    let recent_tokens = resolved.recent_tokens.map(|n| n as u64);
    // An integer of at least the marker's length: exact below 2^64, saturating above.
    let read_keep = Some(resolved.read_keep_chars.map_or(u64::from(DEFAULT_READ_KEEP_CHARS), |n| n as u64));
    let tools: Vec<(Vec<u16>, Rule)> = resolved
        .tools
        .iter()
        .map(|(name, rule)| {
            let rule = match rule {
                ToolRule::Prune(config) => Rule::Prune(Pruner::from(config)),
                ToolRule::Keep => Rule::Keep,
            };
            (name.clone(), rule)
        })
        .collect();
    let wanted = recent_tokens.is_some() || !tools.is_empty() || matches!(pruner.strategy, Strategy::Lines(_));
    wanted.then_some(Policy { default: pruner, tools, recent_tokens, read_keep })
}

impl<'env> JsPruneLog<'env> {
    /// `name` and `arguments` of the `tool/call` event at `seq` if it is one with call id `id`.
    fn call_at(&mut self, seq: Seq, id: &[u16]) -> Result<Option<Call>> {
        let Some(event) = self.log.event(seq)? else { return Ok(None) };
        if !has_type(&event, TOOL_CALL)? {
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
            let (events, len) = self.log.events()?;
            let mut map = HashMap::new();
            for seq in 0..len {
                let event: Unknown = events.get_element(seq)?;
                if !has_type(&event, TOOL_CALL)? {
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

impl<'env> JsPruneLog<'env> {
    /// Whether `event` is a `user/message` the user wrote (its source's
    /// kind `user`, or no source), not one a plugin adds (dsh's runtime
    /// context snapshot).
    fn users_own(&self, event: &Unknown<'_>) -> Result<bool> {
        if !has_type(event, USER_MESSAGE)? {
            return Ok(false);
        }
        let Some(data) = as_object(&get(&as_object(event)?.expect("typed events are objects"), c"data")?)? else {
            return Ok(false);
        };
        let Some(source) = as_object(&get(&data, c"source")?)? else { return Ok(true) };
        let kind = get(&source, c"kind")?;
        Ok(kind.get_type()? == napi::ValueType::Undefined
            || string_units(&kind)?.is_some_and(|k| k.iter().copied().eq("user".encode_utf16())))
    }

    /// The texts of the newest user message `user` and of the model's
    /// newest message `model` when it answers that request (the step that
    /// made the call).
    fn asked_texts(&mut self, user: Option<Seq>, model: Option<Seq>) -> Result<Option<Vec<Vec<u16>>>> {
        let mut texts = Vec::new();
        if let Some(u) = user {
            texts.extend(self.message_text(u, false)?);
        }
        if let Some(m) = model.filter(|&m| user.is_none_or(|u| m > u)) {
            texts.extend(self.message_text(m, true)?);
        }
        Ok((!texts.is_empty()).then_some(texts))
    }

    /// The text blocks of the message at `seq` (a `user/message`'s `data`,
    /// an `assistant/message`'s `data.message`), joined by newlines;
    /// `None` when it holds no text. A string `content` is its text.
    fn message_text(&mut self, seq: Seq, nested: bool) -> Result<Option<Vec<u16>>> {
        let Some(event) = self.log.event(seq)?.map(|e| as_object(&e)).transpose()?.flatten() else { return Ok(None) };
        let Some(mut message) = as_object(&get(&event, c"data")?)? else { return Ok(None) };
        if nested {
            let Some(inner) = as_object(&get(&message, c"message")?)? else { return Ok(None) };
            message = inner;
        }
        let content = get(&message, c"content")?;
        if let Some(text) = string_units(&content)? {
            return Ok(Some(text));
        }
        let Some(blocks) = as_object(&content)?.filter(|_| content.is_array().unwrap_or(false)) else {
            return Ok(None);
        };
        let mut text = Vec::new();
        for i in 0..blocks.get_array_length()? {
            let Some(block) = as_object(&blocks.get_element(i)?)? else { continue };
            if let Some(t) = string_units(&get(&block, c"text")?)? {
                text.extend(t);
                text.push(u16::from(b'\n'));
            }
        }
        Ok((!text.is_empty()).then_some(text))
    }
}

impl<'env> CallLog for JsPruneLog<'env> {
    fn task(&mut self, seq: Seq) -> Result<Option<Vec<Vec<u16>>>> {
        // One forward walk over the log for the whole pass: results are
        // asked in surface order. A result before the walk (a replacement
        // sits where its original was) is read by a walk back of its own.
        let (mut next, mut user, mut model) = self.asked;
        if seq < next {
            (user, model) = (None, None);
            for back in (0..seq).rev() {
                let Some(event) = self.log.event(back)? else { continue };
                if model.is_none() && has_type(&event, ASSISTANT_MESSAGE)? {
                    model = Some(back);
                }
                if self.users_own(&event)? {
                    user = Some(back);
                    break;
                }
            }
            return self.asked_texts(user, model);
        }
        while next < seq {
            if let Some(event) = self.log.event(next)? {
                if self.users_own(&event)? {
                    user = Some(next);
                } else if has_type(&event, ASSISTANT_MESSAGE)? {
                    model = Some(next);
                }
            }
            next += 1;
        }
        self.asked = (next, user, model);
        self.asked_texts(user, model)
    }

    fn call(&mut self, seq: Seq, content: &JsContent<'env>) -> Result<Option<Call>> {
        let Some(source) = as_object(&get(&content.message, c"source")?)? else { return Ok(None) };
        let Some(id) = string_units(&get(&source, c"callId")?)? else { return Ok(None) };
        let cited = match self.log.event(seq)?.map(|e| as_object(&e)).transpose()?.flatten() {
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

    fn is_reply(&mut self, seq: Seq) -> Result<bool> {
        match self.log.event(seq)? {
            Some(event) => has_type(&event, ASSISTANT_MESSAGE),
            None => Ok(false),
        }
    }

    fn price(&mut self, content: &JsContent<'env>, pruned: Option<&Pruned>) -> Result<u64> {
        let env = self.log.env;
        let message = match pruned {
            None => content.message.to_unknown(),
            Some(pruned) => {
                let blocks = array_of(env, content.blocks.build(env, pruned)?)?.to_unknown();
                let result = spread_with(env, &content.result, "content", blocks)?;
                let results = array_of(env, vec![result.to_unknown()])?.to_unknown();
                spread_with(env, &content.message, "content", results)?.to_unknown()
            }
        };
        let price = call_method(env, &self.host, c"estimateMessage", "host.estimateMessage", message)?;
        number(&price)?
            .and_then(safe_count)
            .ok_or_else(|| type_error(env, "pruneSession: host.estimateMessage must return a non-negative integer"))
    }
}
