//! `LinePlan`: the plan of one text, without a session (`planLines`).

use std::collections::BTreeMap;

use napi::bindgen_prelude::Utf16String;
use napi_derive::napi;

use super::text::{SAMPLE, recoverable};
use super::text_kind::TextKind;
use crate::strategy::lines::Task;
use crate::text_plan::TextPlan;

/// A line plan: the pruned text and the means to undo it.
#[napi(object, object_from_js = false)]
pub struct LinePlan {
    /// Kept lines verbatim, one `<<ccr:HASH N_lines_offloaded>>` line per
    /// dropped run; the text itself when it is within the threshold.
    pub content: Utf16String,
    /// Hash → exact dropped text, for every marker in `content`.
    pub recoverable: BTreeMap<String, Utf16String>,
    /// Input lines replaced by markers.
    pub dropped_lines: f64,
    /// What the text was taken to be, which decides how it is outlined.
    pub kinds: Vec<TextKind>,
    /// What decided the kind: the command's words (`` `git diff` ``), or `'sample'`.
    pub kind_from: String,
    /// The words read from the task and the command, as searched for;
    /// absent when no task was given.
    pub task_words: Option<Vec<String>>,
}

impl LinePlan {
    /// The binding's plan of `text` from the core's.
    pub fn new(plan: TextPlan, text: Vec<u16>, task: &Task) -> Self {
        LinePlan {
            content: Utf16String::from(plan.content.unwrap_or(text)),
            recoverable: recoverable(plan.recoverable),
            dropped_lines: plan.dropped_lines as f64,
            kinds: plan.kinds.into_iter().map(TextKind::from).collect(),
            kind_from: plan.kind_from.unwrap_or_else(|| SAMPLE.to_owned()),
            task_words: (!task.is_empty()).then(|| task.terms().map(str::to_owned).collect()),
        }
    }
}
