//! A JS dsh `Session` as a [`SessionLog`]: every method is a synchronous
//! call on the session object or on the plugin's host hooks.
//!
//! The host object carries what the shim owns: `estimateMessage(message)`
//! (the token meter's price) and `freezeMessage(message)` (dsh-llm's detach
//! and deep freeze).

use std::ffi::CStr;

use napi::Result;

use super::blocks::{JsBlocks, array_len};
use super::js::{Js, Value, safe_count};
use crate::head_tail::{Block, Pruned};
use crate::session::{BlockList, Seq, SessionLog};

pub(crate) struct JsSessionLog {
    js: Js,
    session: Value,
    host: Value,
    events: Option<(Value, u32)>,
}

/// A `tool/result` event found on the surface.
pub(crate) struct JsEvent {
    seq: Seq,
    value: Value,
}

/// The pieces of a `tool/result` event that its replacement rebuilds.
pub(crate) struct JsContent {
    data: Value,
    message: Value,
    result: Value,
    blocks: JsBlocks,
}

impl BlockList for JsContent {
    fn blocks(&self) -> Vec<Block<'_>> {
        self.blocks.core()
    }
}

impl JsSessionLog {
    pub fn new(js: Js, session: Value, host: Value) -> Result<Self> {
        if !js.is_object(session)? {
            return Err(js.type_error("pruneSession: session must be a Session object"));
        }
        Ok(JsSessionLog { js, session, host, events: None })
    }

    /// `object[name]`, where `object` must be an object; `path` names it in errors.
    fn member(&self, object: Value, path: &str, name: &CStr) -> Result<Value> {
        if !self.js.is_object(object)? {
            return Err(self.js.type_error(&format!("pruneSession: {path} must be an object")));
        }
        self.js.get(object, name)
    }

    fn event_path(seq: Seq) -> String {
        format!("session.events[{seq}]")
    }

    fn message_of(&self, event: &JsEvent) -> Result<(Value, Value)> {
        let path = Self::event_path(event.seq);
        let data = self.member(event.value, &path, c"data")?;
        let message = self.member(data, &format!("{path}.data"), c"message")?;
        Ok((data, message))
    }

    fn seq_value(&self, seq: Seq) -> Result<Value> {
        self.js.number(seq as f64)
    }

    /// `{ start: seq, end: seq }`, plus `op: 'replace'` first when `op`.
    fn range(&self, seq: Seq, op: bool) -> Result<Value> {
        let js = self.js;
        let range = js.object()?;
        if op {
            js.set(range, c"op", js.string("replace")?)?;
        }
        js.set(range, c"start", self.seq_value(seq)?)?;
        js.set(range, c"end", self.seq_value(seq)?)?;
        Ok(range)
    }
}

/// A sequence number read from JS: a non-negative safe integer.
fn as_seq(n: Option<f64>) -> Option<Seq> {
    n.and_then(safe_count)
}

impl SessionLog for JsSessionLog {
    type Event = JsEvent;
    type Content = JsContent;
    type CallId = Value;
    type Price = Value;
    type Replacement = Value;
    type Error = napi::Error;

    fn surface(&mut self) -> Result<Vec<Seq>> {
        let js = self.js;
        let surface = js.get(self.session, c"surface")?;
        let nodes = self.member(surface, "session.surface", c"nodes")?;
        let len = array_len(js, nodes, "pruneSession: session.surface.nodes")?;
        (0..len)
            .map(|i| {
                let node = js.get_index(nodes, i)?;
                as_seq(js.as_number(node)?).ok_or_else(|| {
                    js.type_error(&format!("pruneSession: session.surface.nodes[{i}] must be an event sequence number"))
                })
            })
            .collect()
    }

    fn tool_result(&mut self, seq: Seq) -> Result<Option<JsEvent>> {
        let js = self.js;
        let (events, len) = match self.events {
            Some(e) => e,
            None => {
                let events = js.get(self.session, c"events")?;
                let len = array_len(js, events, "pruneSession: session.events")?;
                *self.events.insert((events, len))
            }
        };
        if seq >= u64::from(len) {
            return Ok(None);
        }
        let value = js.get_index(events, seq as u32)?;
        if !is_tool_result(js, value)? {
            return Ok(None);
        }
        Ok(Some(JsEvent { seq, value }))
    }

    fn content(&mut self, event: &JsEvent) -> Result<JsContent> {
        let js = self.js;
        let (data, message) = self.message_of(event)?;
        let path = format!("{}.data.message", Self::event_path(event.seq));
        let content = self.member(message, &path, c"content")?;
        array_len(js, content, &format!("pruneSession: {path}.content"))?;
        let result = js.get_index(content, 0)?;
        let blocks = self.member(result, &format!("{path}.content[0]"), c"content")?;
        let blocks = JsBlocks::read(js, blocks, &format!("pruneSession: {path}.content[0].content"))?;
        Ok(JsContent { data, message, result, blocks })
    }

    fn build_replacement(&mut self, _event: &JsEvent, content: &JsContent, pruned: &Pruned) -> Result<Value> {
        let js = self.js;
        let blocks = content.blocks.build(js, pruned)?;
        let result = js.spread_with(content.result, c"content", blocks)?;
        let message = js.spread_with(content.message, c"content", js.array_of(&[result])?)?;
        let frozen = js.call_method(self.host, c"freezeMessage", &[message])?;
        js.spread_with(content.data, c"message", frozen)
    }

    fn shadow_price(&mut self, event: &JsEvent) -> Result<Value> {
        let (_, message) = self.message_of(event)?;
        self.js.call_method(self.host, c"estimateMessage", &[message])
    }

    fn append_prune(&mut self, seq: Seq, price: Value) -> Result<()> {
        let js = self.js;
        let data = js.object()?;
        js.set(data, c"shadowedRange", self.range(seq, false)?)?;
        js.set(data, c"shadowedSeqs", js.array_of(&[self.seq_value(seq)?])?)?;
        js.set(data, c"shadowedTokenCount", price)?;
        js.call_method(self.session, c"append", &[js.string("compaction/prune")?, data])?;
        Ok(())
    }

    fn append_replacement(&mut self, seq: Seq, replacement: Value) -> Result<Seq> {
        let js = self.js;
        let opts = js.object()?;
        js.set(opts, c"surfaceOp", self.range(seq, true)?)?;
        js.set(opts, c"sourceEventSeqs", js.array_of(&[self.seq_value(seq)?])?)?;
        let appended = js.call_method(self.session, c"append", &[js.string("tool/result")?, replacement, opts])?;
        let new_seq = if js.is_object(appended)? { as_seq(js.as_number(js.get(appended, c"seq")?)?) } else { None };
        new_seq.ok_or_else(|| js.type_error("pruneSession: session.append must return the appended event with its seq"))
    }

    fn call_id(&mut self, event: &JsEvent) -> Result<Value> {
        let (_, message) = self.message_of(event)?;
        let path = format!("{}.data.message", Self::event_path(event.seq));
        let source = self.member(message, &path, c"source")?;
        self.member(source, &format!("{path}.source"), c"callId")
    }
}

/// The exact text behind the marker `hash` in any replacement `tool/result`
/// of `session`, recovered from the original event that replacement cites;
/// `None` when no replacement holds a verifiable marker with that hash.
/// Events of another shape are passed over, never trusted.
pub(crate) fn retrieve(js: Js, session: Value, hash: &str) -> Result<Option<Vec<u16>>> {
    if !js.is_object(session)? {
        return Err(js.type_error("retrieve: session must be a Session object"));
    }
    let events = js.get(session, c"events")?;
    let len = array_len(js, events, "retrieve: session.events")?;
    let needle: Vec<u16> = format!("<<ccr:{hash} ").encode_utf16().collect();
    for i in 0..len {
        let event = js.get_index(events, i)?;
        let Some(source) = replaced_source(js, event)? else { continue };
        if source >= u64::from(len) {
            continue;
        }
        // Only a replacement that names the hash has its original read.
        let Some(pruned) = result_texts(js, event)? else { continue };
        let naming: Vec<&Vec<u16>> = pruned.iter().filter(|p| p.windows(needle.len()).any(|w| w == needle)).collect();
        if naming.is_empty() {
            continue;
        }
        let Some(original) = result_texts(js, js.get_index(events, source as u32)?)? else { continue };
        for p in naming {
            for o in &original {
                if let Some(text) = crate::markers::recover(o, p, hash) {
                    return Ok(Some(text));
                }
            }
        }
    }
    Ok(None)
}

/// True for an object whose `type` is `'tool/result'`.
fn is_tool_result(js: Js, value: Value) -> Result<bool> {
    Ok(js.is_object(value)? && js.is_ascii_string(js.get(value, c"type")?, "tool/result")?)
}

/// For a `tool/result` that replaces exactly one earlier event, that event's seq.
fn replaced_source(js: Js, event: Value) -> Result<Option<Seq>> {
    if !is_tool_result(js, event)? {
        return Ok(None);
    }
    let op = js.get(event, c"surfaceOp")?;
    if !js.is_object(op)? || !js.is_ascii_string(js.get(op, c"op")?, "replace")? {
        return Ok(None);
    }
    let sources = js.get(event, c"sourceEventSeqs")?;
    if !js.is_array(sources)? || js.array_len(sources)? != 1 {
        return Ok(None);
    }
    Ok(as_seq(js.as_number(js.get_index(sources, 0)?)?))
}

/// The text blocks of a `tool/result` event's content, if it has that shape.
fn result_texts(js: Js, event: Value) -> Result<Option<Vec<Vec<u16>>>> {
    let mut at = event;
    if !is_tool_result(js, at)? {
        return Ok(None);
    }
    for name in [c"data", c"message", c"content"] {
        at = js.get(at, name)?;
        if !js.is_object(at)? {
            return Ok(None);
        }
    }
    if !js.is_array(at)? || js.array_len(at)? == 0 {
        return Ok(None);
    }
    let result = js.get_index(at, 0)?;
    if !js.is_object(result)? {
        return Ok(None);
    }
    let blocks = js.get(result, c"content")?;
    if !js.is_array(blocks)? {
        return Ok(None);
    }
    let mut texts = Vec::new();
    for i in 0..js.array_len(blocks)? {
        let block = js.get_index(blocks, i)?;
        if !js.is_object(block)? || !js.is_ascii_string(js.get(block, c"type")?, "text")? {
            continue;
        }
        let text = js.get(block, c"text")?;
        if js.is_string(text)? {
            let mut units = Vec::new();
            js.read_utf16(text, &mut units)?;
            texts.push(units);
        }
    }
    Ok(Some(texts))
}
