//! A JS dsh `Session` as a [`SessionLog`]: every method is a synchronous
//! call on the session object or on the plugin's host hooks.
//!
//! The host object carries what the shim owns: `estimateMessage(message)`
//! (the token meter's price) and `freezeMessage(message)` (dsh-llm's detach
//! and deep freeze).

use std::ffi::CStr;

use napi::Result;

use super::blocks::{JsBlocks, array_len};
use super::js::{Js, Value};
use crate::head_tail::{Block, Pruned};
use crate::session::{BlockList, Seq, SessionLog};

/// Largest integer a JS number holds exactly.
const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

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
    n.filter(|n| *n >= 0.0 && *n <= MAX_SAFE && n.fract() == 0.0).map(|n| n as Seq)
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
        if !js.is_object(value)? || !js.is_ascii_string(js.get(value, c"type")?, "tool/result")? {
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
