//! `PrunedEntry`: one landed replacement of `pruneSession`.

use std::collections::BTreeMap;

use napi::bindgen_prelude::Utf16String;
use napi_derive::napi;

use super::dsh::types::CallId;
use super::text::{SAMPLE, recoverable};
use super::text_kind::TextKind;
use crate::policy::PolicyEntry;
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
    /// Under a session policy (always in lines mode): the exact text behind
    /// every `<<ccr:HASH …>>` marker in the replacement, by hash.
    #[napi(readonly)]
    pub recoverable: Option<BTreeMap<String, Utf16String>>,
    /// Under a session policy: the meter's price of the original message.
    #[napi(readonly)]
    pub tokens_before: Option<f64>,
    /// Under a session policy: the meter's price of the replacement message.
    #[napi(readonly)]
    pub tokens_after: Option<f64>,
    /// Lines mode: what each text block was planned as.
    #[napi(readonly)]
    pub kinds: Option<Vec<TextKind>>,
    /// Lines mode: the call that named the kind (``bash `git diff` ``), or `'sample'`.
    #[napi(readonly)]
    pub kind_from: Option<String>,
    /// Lines mode: the words read from the task the session gave the
    /// result (the newest request, the model's words before the call, the
    /// call's arguments), which raised the lines holding them; absent when
    /// the session gave none.
    pub task_words: Option<Vec<String>>,
}

impl<'env> PrunedEntry<'env> {
    /// The entry of a head/tail pass for `entry`, whose result answered `call_id`.
    pub fn new(entry: session::PrunedEntry, call_id: CallId<'env>) -> Self {
        let seqs = (entry.original_seq, entry.replacement_seq);
        Self::upstreams(seqs, call_id, (entry.chars_before, entry.chars_after))
    }

    /// The entry of a policy pass for `entry`, whose result answered `call_id`.
    pub fn from_policy(entry: PolicyEntry, call_id: CallId<'env>) -> Self {
        let seqs = (entry.original_seq, entry.replacement_seq);
        let mut out = Self::upstreams(seqs, call_id, (entry.chars_before, entry.chars_after));
        out.recoverable = Some(recoverable(entry.recoverable));
        out.tokens_before = Some(entry.tokens_before as f64);
        out.tokens_after = Some(entry.tokens_after as f64);
        if let Some((kinds, named)) = entry.kinds {
            out.kinds = Some(kinds.into_iter().map(TextKind::from).collect());
            out.kind_from = Some(named.map_or_else(|| SAMPLE.to_owned(), |n| n.reason));
        }
        out.task_words = (!entry.task_words.is_empty()).then_some(entry.task_words);
        out
    }

    /// Upstream's fields only: `(original, replacement)` seqs and `(before, after)` code points.
    fn upstreams(seqs: (u64, u64), call_id: CallId<'env>, chars: (u64, u64)) -> Self {
        PrunedEntry {
            original_seq: seqs.0 as f64,
            replacement_seq: seqs.1 as f64,
            call_id,
            chars_before: chars.0 as f64,
            chars_after: chars.1 as f64,
            recoverable: None,
            tokens_before: None,
            tokens_after: None,
            kinds: None,
            kind_from: None,
            task_words: None,
        }
    }
}
