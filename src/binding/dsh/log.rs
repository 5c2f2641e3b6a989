//! The command line's questions about a session log's records and events,
//! answered here so that it need not know dsh's shapes.

use napi::Result;
use napi::bindgen_prelude::{Either, Unknown, Utf16String};
use napi_derive::napi;

use super::tool_call::ToolCall;
use super::types::CallId;
use super::{SESSION_HEADER, TOOL_CALL, TOOL_RESULT, as_seq, has_type, replaces_a_node, tool_result_texts};
use crate::binding::values::{as_object, get, string_units};

/// Whether `record` is a session log's header line (`{ type: 'session',
/// id }` with a string id), as dsh-session-persistence-jsonl writes it.
#[napi(catch_unwind)]
pub fn is_session_header(record: Unknown) -> Result<bool> {
    let Some(header) = as_object(&record)? else { return Ok(false) };
    Ok(has_type(&record, SESSION_HEADER)? && string_units(&get(&header, c"id")?)?.is_some())
}

/// Whether `value` is a session event with sequence number `seq`: an
/// object whose `type` is a string and whose `seq` is `seq`.
#[napi(catch_unwind)]
pub fn is_event_at(value: Unknown, seq: f64) -> Result<bool> {
    let Some(event) = as_object(&value)? else { return Ok(false) };
    let typed = string_units(&get(&event, c"type")?)?.is_some();
    Ok(typed && as_seq(&get(&event, c"seq")?)?.is_some_and(|s| s as f64 == seq))
}

/// Whether `event` is an original tool result: a `tool/result` that does
/// not replace a surface node (a replacement's `surfaceOp.op` is `'replace'`).
#[napi(catch_unwind)]
pub fn is_original_tool_result(event: Unknown) -> Result<bool> {
    let Some(object) = as_object(&event)? else { return Ok(false) };
    Ok(has_type(&event, TOOL_RESULT)? && !replaces_a_node(&object)?)
}

/// The text of a `tool/result` event: its text blocks joined, exactly;
/// `undefined` for any other event.
#[napi(catch_unwind)]
pub fn tool_result_text(event: Unknown) -> Result<Either<Utf16String, ()>> {
    Ok(match tool_result_texts(&event)? {
        Some(texts) => Either::A(Utf16String::from(texts.concat())),
        None => Either::B(()),
    })
}

/// The call id and tool name of a `tool/call` event; `undefined` for any
/// other event, or one whose name is not a string.
#[napi(catch_unwind)]
pub fn tool_call<'env>(event: Unknown<'env>) -> Result<Either<ToolCall<'env>, ()>> {
    if !has_type(&event, TOOL_CALL)? {
        return Ok(Either::B(()));
    }
    let Some(data) = as_object(&get(&as_object(&event)?.expect("a typed event"), c"data")?)? else {
        return Ok(Either::B(()));
    };
    let Some(name) = string_units(&get(&data, c"name")?)? else { return Ok(Either::B(())) };
    Ok(Either::A(ToolCall { call_id: CallId(get(&data, c"callId")?), name: Utf16String::from(name) }))
}
