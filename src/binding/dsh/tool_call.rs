//! `ToolCall`: what a `tool/call` event says, for the command line's table.

use napi::bindgen_prelude::Utf16String;
use napi_derive::napi;

use super::types::CallId;

/// A `tool/call` event's call id and tool name.
#[napi(object, object_from_js = false)]
pub struct ToolCall<'env> {
    /// The call's id, as the log holds it.
    pub call_id: CallId<'env>,
    /// The tool called, exactly (UTF-16).
    pub name: Utf16String,
}
