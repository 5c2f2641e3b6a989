//! A JS dsh `Session` as a [`SessionLog`]: everything the package knows of
//! dsh's event shapes is here.
//!
//! - the surface is `session.surface.nodes` (event seqs) and the log is
//!   `session.events` (indexed by seq);
//! - a tool result is `{ type: 'tool/result', data: { message } }` whose
//!   blocks are `message.content[0].content` and whose call is
//!   `message.source.callId`;
//! - pruning appends `compaction/prune` with
//!   `{ shadowedRange: { start, end }, shadowedSeqs: [seq], shadowedTokenCount }`,
//!   then `tool/result` with `{ ...data, message }` and the options
//!   `{ surfaceOp: { op: 'replace', start, end }, sourceEventSeqs: [seq] }`.
//!
//! The host object carries what the plugin owns: `estimateMessage(message)`
//! (the token meter's price) and `freezeMessage(message)` (dsh-llm's detach
//! and deep freeze).

use napi::bindgen_prelude::{FnArgs, JsObjectValue, Object, Unknown};
use napi::{Env, JsValue, Result};

use super::blocks::JsBlocks;
use super::raw::is_str;
use super::values::{
    args3, array_len, array_of, as_object, call_method, get, number, object, safe_count, spread_with, string_units,
    type_error,
};
use crate::content::{Block, Pruned};
use crate::session::{BlockList, EventKind, Seq, SessionLog};

/// A dsh `Session` and the plugin's host hooks, for one native call.
pub struct JsSessionLog<'env> {
    pub(super) env: &'env Env,
    session: Object<'env>,
    pub(super) host: Object<'env>,
    /// `session.events`, read once.
    events: Option<(Object<'env>, u32)>,
    /// The call id of each replaced result, in the order replaced.
    pub call_ids: Vec<Unknown<'env>>,
    /// Call id → `tool/call` event seq, read once when a call is looked up
    /// by id (see `super::calls`).
    pub(super) calls_by_id: Option<std::collections::HashMap<Vec<u16>, u32>>,
}

/// The pieces of a `tool/result` event that its replacement rebuilds.
pub struct JsContent<'env> {
    data: Object<'env>,
    pub(super) message: Object<'env>,
    pub(super) result: Object<'env>,
    pub(super) blocks: JsBlocks<'env>,
}

impl BlockList for JsContent<'_> {
    fn blocks(&self) -> Vec<Block<'_>> {
        self.blocks.core()
    }
}

impl<'env> JsSessionLog<'env> {
    /// The log of `session`; `what` names the caller in errors.
    pub fn new(env: &'env Env, session: &Unknown<'env>, host: Object<'env>, what: &str) -> Result<Self> {
        let Some(session) = as_object(session)? else {
            return Err(type_error(env, &format!("{what}: session must be a Session object")));
        };
        Ok(JsSessionLog { env, session, host, events: None, call_ids: Vec::new(), calls_by_id: None })
    }

    pub(super) fn events(&mut self, what: &str) -> Result<(Object<'env>, u32)> {
        if let Some(events) = self.events {
            return Ok(events);
        }
        let events = array_len(self.env, &get(&self.session, c"events")?, &format!("{what}: session.events"))?;
        Ok(*self.events.insert(events))
    }

    /// The event at `seq`, if the log has one.
    pub(super) fn event(&mut self, seq: Seq, what: &str) -> Result<Option<Unknown<'env>>> {
        let (events, len) = self.events(what)?;
        Ok(if seq < u64::from(len) { Some(events.get_element(seq as u32)?) } else { None })
    }

    /// `{ start: seq, end: seq }`, or with `op` first `{ op, start, end }`.
    fn range(&self, seq: Seq, op: Option<&str>) -> Result<Object<'env>> {
        let mut range = Object::new(self.env)?;
        if let Some(op) = op {
            range.set_named_property("op", op)?;
        }
        range.set_named_property("start", seq as f64)?;
        range.set_named_property("end", seq as f64)?;
        Ok(range)
    }

    /// `data` and `data.message` of the tool result at `seq`, checked.
    fn message_of(&mut self, seq: Seq) -> Result<(Object<'env>, Object<'env>)> {
        let env = self.env;
        let path = format!("pruneSession: session.events[{seq}]");
        let event = self.event(seq, "pruneSession")?.expect("a surface tool result");
        let event = object(env, &event, &path)?;
        let data = object(env, &get(&event, c"data")?, &format!("{path}.data"))?;
        let message = object(env, &get(&data, c"message")?, &format!("{path}.data.message"))?;
        Ok((data, message))
    }
}

/// A sequence number read from JS: a non-negative safe integer.
pub(super) fn as_seq(value: &Unknown<'_>) -> Result<Option<Seq>> {
    Ok(number(value)?.and_then(safe_count))
}

/// True for an object whose `type` is the string `kind`.
pub(super) fn has_type(value: &Unknown<'_>, kind: &str) -> Result<bool> {
    let Some(event) = as_object(value)? else { return Ok(false) };
    is_str(&get(&event, c"type")?, kind)
}

impl<'env> SessionLog for JsSessionLog<'env> {
    type Content = JsContent<'env>;
    type Error = napi::Error;

    fn surface(&mut self) -> Result<Vec<Seq>> {
        let env = self.env;
        let surface = object(env, &get(&self.session, c"surface")?, "pruneSession: session.surface")?;
        let (nodes, len) = array_len(env, &get(&surface, c"nodes")?, "pruneSession: session.surface.nodes")?;
        let mut seqs = Vec::new();
        for i in 0..len {
            let seq = as_seq(&nodes.get_element(i)?)?;
            seqs.push(seq.ok_or_else(|| {
                type_error(env, &format!("pruneSession: session.surface.nodes[{i}] must be an event sequence number"))
            })?);
        }
        Ok(seqs)
    }

    fn event_count(&mut self) -> Result<Seq> {
        Ok(u64::from(self.events("retrieve")?.1))
    }

    fn is_tool_result(&mut self, seq: Seq) -> Result<bool> {
        match self.event(seq, "pruneSession")? {
            Some(event) => has_type(&event, "tool/result"),
            None => Ok(false),
        }
    }

    fn content(&mut self, seq: Seq) -> Result<JsContent<'env>> {
        let env = self.env;
        let (data, message) = self.message_of(seq)?;
        let path = format!("pruneSession: session.events[{seq}].data.message.content");
        let (content, _) = array_len(env, &get(&message, c"content")?, &path)?;
        let result = object(env, &content.get_element(0)?, &format!("{path}[0]"))?;
        let blocks = JsBlocks::read(env, &get(&result, c"content")?, &format!("{path}[0].content"))?;
        Ok(JsContent { data, message, result, blocks })
    }

    fn replace(&mut self, seq: Seq, content: &JsContent<'env>, pruned: &Pruned) -> Result<Seq> {
        let env = self.env;
        // The replacement: { ...data, message: freeze({ ...message, content: [{ ...result, content }] }) }.
        let blocks = content.blocks.build(env, pruned)?;
        let result = spread_with(env, &content.result, "content", blocks)?;
        let message =
            spread_with(env, &content.message, "content", array_of(env, vec![result.to_unknown()])?.to_unknown())?;
        let frozen = call_method(env, &self.host, c"freezeMessage", "host.freezeMessage", message.to_unknown())?;
        let replacement = spread_with(env, &content.data, "message", frozen)?;
        let price =
            call_method(env, &self.host, c"estimateMessage", "host.estimateMessage", content.message.to_unknown())?;

        let mut shadow = Object::new(env)?;
        shadow.set_named_property("shadowedRange", self.range(seq, None)?)?;
        shadow.set_named_property("shadowedSeqs", array_of(env, vec![env.create_double(seq as f64)?.to_unknown()])?)?;
        shadow.set_named_property("shadowedTokenCount", price)?;
        let prune_type = env.create_string("compaction/prune")?.to_unknown();
        call_method(env, &self.session, c"append", "session.append", FnArgs::from((prune_type, shadow.to_unknown())))?;

        let mut options = Object::new(env)?;
        options.set_named_property("surfaceOp", self.range(seq, Some("replace"))?)?;
        options
            .set_named_property("sourceEventSeqs", array_of(env, vec![env.create_double(seq as f64)?.to_unknown()])?)?;
        let result_type = env.create_string("tool/result")?.to_unknown();
        let appended = call_method(
            env,
            &self.session,
            c"append",
            "session.append",
            args3(result_type, replacement.to_unknown(), options.to_unknown()),
        )?;
        let new_seq = match as_object(&appended)? {
            Some(event) => as_seq(&get(&event, c"seq")?)?,
            None => None,
        };
        let new_seq = new_seq.ok_or_else(|| {
            type_error(env, "pruneSession: session.append must return the appended event with its seq")
        })?;

        let path = format!("pruneSession: session.events[{seq}].data.message.source");
        let source = object(env, &get(&content.message, c"source")?, &path)?;
        self.call_ids.push(get(&source, c"callId")?);
        Ok(new_seq)
    }

    fn kind(&mut self, seq: Seq) -> Result<EventKind> {
        let Some(event) = self.event(seq, "retrieve")? else { return Ok(EventKind::Other) };
        if has_type(&event, "compaction/prune")? {
            let event = as_object(&event)?.expect("typed events are objects");
            return Ok(shadowed_one(&event)?.map_or(EventKind::Other, |shadowed| EventKind::Prune { shadowed }));
        }
        if !has_type(&event, "tool/result")? {
            return Ok(EventKind::Other);
        }
        let event = as_object(&event)?.expect("typed events are objects");
        let replaces = replaced_source(&event)?;
        Ok(EventKind::ToolResult { replaces })
    }

    fn texts(&mut self, seq: Seq) -> Result<Option<Vec<Vec<u16>>>> {
        let Some(event) = self.event(seq, "retrieve")? else { return Ok(None) };
        if !has_type(&event, "tool/result")? {
            return Ok(None);
        }
        let mut at = event;
        for name in [c"data", c"message", c"content"] {
            let Some(object) = as_object(&at)? else { return Ok(None) };
            at = get(&object, name)?;
        }
        if !at.is_array()? {
            return Ok(None);
        }
        let Some(result) = as_object(&as_object(&at)?.expect("an array").get_element::<Unknown>(0)?)? else {
            return Ok(None);
        };
        let blocks = get(&result, c"content")?;
        if !blocks.is_array()? {
            return Ok(None);
        }
        let blocks = as_object(&blocks)?.expect("an array");
        let mut texts = Vec::new();
        for i in 0..blocks.get_array_length()? {
            let Some(block) = as_object(&blocks.get_element(i)?)? else { continue };
            if !is_str(&get(&block, c"type")?, "text")? {
                continue;
            }
            if let Some(units) = string_units(&get(&block, c"text")?)? {
                texts.push(units);
            }
        }
        Ok(Some(texts))
    }
}

/// The one event a `compaction/prune` event shadows (`data.shadowedSeqs`
/// of length one), if that is its shape.
fn shadowed_one(event: &Object<'_>) -> Result<Option<Seq>> {
    let Some(data) = as_object(&get(event, c"data")?)? else { return Ok(None) };
    only_seq(&get(&data, c"shadowedSeqs")?)
}

/// For a `tool/result` that replaces exactly one earlier event, that event's seq.
fn replaced_source(event: &Object<'_>) -> Result<Option<Seq>> {
    let Some(op) = as_object(&get(event, c"surfaceOp")?)? else { return Ok(None) };
    if !is_str(&get(&op, c"op")?, "replace")? {
        return Ok(None);
    }
    only_seq(&get(event, c"sourceEventSeqs")?)
}

/// The seq in an array holding exactly one, if that is what `value` is.
fn only_seq(value: &Unknown<'_>) -> Result<Option<Seq>> {
    if !value.is_array()? {
        return Ok(None);
    }
    let array = as_object(value)?.expect("an array");
    if array.get_array_length()? != 1 {
        return Ok(None);
    }
    as_seq(&array.get_element(0)?)
}
