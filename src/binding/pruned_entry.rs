//! `PrunedEntry`: one landed replacement of `pruneSession`.

use std::collections::BTreeMap;

use napi::bindgen_prelude::Utf16String;
use napi_derive::napi;

use super::dsh::types::CallId;
use super::text::recoverable;
use crate::session;

/// Cited source event and size accounting for one landed surface replacement.
#[napi(object, object_from_js = false)]
pub struct PrunedEntry<'env> {
    /// Full-fidelity tool-result event shadowed by the replacement.
    #[napi(readonly)]
    pub original_seq: f64,
    /// Newly appended pruned tool-result event.
    #[napi(readonly)]
    pub replacement_seq: f64,
    /// Tool call shared by the original and replacement.
    #[napi(readonly)]
    pub call_id: CallId<'env>,
    /// Original text size in Unicode code points.
    #[napi(readonly)]
    pub chars_before: f64,
    /// Replacement text size in Unicode code points.
    #[napi(readonly)]
    pub chars_after: f64,
    /// Lines mode only (absent for head/tail): the exact text behind every
    /// `<<ccr:HASH …>>` marker in the replacement, by hash.
    #[napi(readonly)]
    pub recoverable: Option<BTreeMap<String, Utf16String>>,
}

impl<'env> PrunedEntry<'env> {
    /// The entry for `entry`, whose result answered `call_id`; `lines_mode`
    /// says whether it carries `recoverable`.
    pub fn new(entry: session::PrunedEntry, call_id: CallId<'env>, lines_mode: bool) -> Self {
        PrunedEntry {
            original_seq: entry.original_seq as f64,
            replacement_seq: entry.replacement_seq as f64,
            call_id,
            chars_before: entry.chars_before as f64,
            chars_after: entry.chars_after as f64,
            recoverable: lines_mode.then(|| recoverable(entry.recoverable)),
        }
    }
}
