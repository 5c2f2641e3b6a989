//! dsh's shapes: everything the package knows of a dsh `Session`, its
//! events and its logs is in this module, and the command line asks it too.
//!
//! - the surface is `session.surface.nodes` (event seqs) and the log is
//!   `session.events` (indexed by seq);
//! - a tool result is `{ type: 'tool/result', data: { message } }` whose
//!   blocks are `message.content[0].content` and whose call is
//!   `message.source.callId`; a tool call is `{ type: 'tool/call', data:
//!   { callId, name } }`; the model's reply is an `assistant/message` on
//!   the surface (the results before one have been read);
//! - pruning appends `compaction/prune` with [`PruneEventData`], then
//!   `tool/result` with `{ ...data, message }` and [`ReplacementOptions`];
//! - a log file (dsh-session-persistence-jsonl) opens with a
//!   `{ type: 'session', id }` header, and its events carry `seq` in order.
//!
//! [`session`] reads a live `Session` for the core's pruning and retrieval
//! traits; [`log`] answers the command line's questions about events;
//! [`types`] names dsh's own types for index.d.ts.

pub mod log;
pub mod session;
pub mod tool_call;
pub mod types;

use napi::bindgen_prelude::{JsObjectValue, Object, Unknown};
use napi::{JsValue, Result};
use napi_derive::napi;

use super::raw::is_str;
use super::values::{as_object, get, number, safe_count, string_units};
use crate::session::Seq;

/// The `type` of a tool result event.
const TOOL_RESULT: &str = "tool/result";
/// The `type` of a tool call event.
pub(in crate::binding) const TOOL_CALL: &str = "tool/call";
/// The `type` of the user's message on the surface.
pub(in crate::binding) const USER_MESSAGE: &str = "user/message";
/// The `type` of the model's own message on the surface.
pub(in crate::binding) const ASSISTANT_MESSAGE: &str = "assistant/message";
/// The `type` of the shadow-price event pruning appends before a replacement.
const COMPACTION_PRUNE: &str = "compaction/prune";
/// The `surfaceOp.op` of a replacement.
const REPLACE: &str = "replace";
/// The `type` of a session log's header line.
const SESSION_HEADER: &str = "session";

/// `{ start: seq, end: seq }`: the one node a prune shadows.
#[napi(object, object_from_js = false)]
pub struct SeqRange {
    /// The node's seq.
    pub start: f64,
    /// The same seq: one node.
    pub end: f64,
}

/// The data of the `compaction/prune` event appended before each
/// replacement: the node it shadows and that node's price in tokens.
#[napi(object, object_from_js = false)]
pub struct PruneEventData<'env> {
    /// The shadowed node, as a range.
    pub shadowed_range: SeqRange,
    /// The shadowed node, as a list.
    pub shadowed_seqs: Vec<f64>,
    /// The original message's price, as the token meter gives it.
    pub shadowed_token_count: Unknown<'env>,
}

/// `{ op: 'replace', start: seq, end: seq }`: the surface op of a replacement.
#[napi(object, object_from_js = false)]
pub struct SurfaceReplace {
    /// Always `'replace'`.
    pub op: &'static str,
    /// The replaced node's seq.
    pub start: f64,
    /// The same seq: one node.
    pub end: f64,
}

/// The append options of a replacement `tool/result`: it replaces the one
/// node on the surface and cites it as its only source.
#[napi(object, object_from_js = false)]
pub struct ReplacementOptions {
    /// Replaces `seq..=seq`.
    pub surface_op: SurfaceReplace,
    /// `[seq]`.
    pub source_event_seqs: Vec<f64>,
}

impl<'env> PruneEventData<'env> {
    /// The shadow-price event's data for the node `seq`.
    fn new(seq: Seq, price: Unknown<'env>) -> Self {
        let at = seq as f64;
        PruneEventData {
            shadowed_range: SeqRange { start: at, end: at },
            shadowed_seqs: vec![at],
            shadowed_token_count: price,
        }
    }
}

impl ReplacementOptions {
    /// The options of the replacement of the node `seq`.
    fn new(seq: Seq) -> Self {
        let at = seq as f64;
        ReplacementOptions {
            surface_op: SurfaceReplace { op: REPLACE, start: at, end: at },
            source_event_seqs: vec![at],
        }
    }
}

/// A sequence number read from JS: a non-negative safe integer.
pub(in crate::binding) fn as_seq(value: &Unknown<'_>) -> Result<Option<Seq>> {
    Ok(number(value)?.and_then(safe_count))
}

/// True for an object whose `type` is the string `kind`.
pub(in crate::binding) fn has_type(value: &Unknown<'_>, kind: &str) -> Result<bool> {
    let Some(event) = as_object(value)? else { return Ok(false) };
    is_str(&get(&event, c"type")?, kind)
}

/// The one event a `compaction/prune` event shadows (`data.shadowedSeqs`
/// of length one), if that is its shape.
fn shadowed_one(event: &Object<'_>) -> Result<Option<Seq>> {
    let Some(data) = as_object(&get(event, c"data")?)? else { return Ok(None) };
    only_seq(&get(&data, c"shadowedSeqs")?)
}

/// Whether a `tool/result` event replaces a surface node (`surfaceOp.op`
/// is `'replace'`), whatever it cites.
fn replaces_a_node(event: &Object<'_>) -> Result<bool> {
    let Some(op) = as_object(&get(event, c"surfaceOp")?)? else { return Ok(false) };
    is_str(&get(&op, c"op")?, REPLACE)
}

/// For a `tool/result` that replaces exactly one earlier event, that event's seq.
fn replaced_source(event: &Object<'_>) -> Result<Option<Seq>> {
    if !replaces_a_node(event)? {
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

/// The texts of a `tool/result` event (its text blocks' `text`s, in
/// order), or `None` for an event of any other shape.
fn tool_result_texts(event: &Unknown<'_>) -> Result<Option<Vec<Vec<u16>>>> {
    if !has_type(event, TOOL_RESULT)? {
        return Ok(None);
    }
    let mut at = *event;
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
