//! `PruneResult`: the outcome of one `pruneSession` pass.

use napi_derive::napi;

use super::dsh::types::CallId;
use super::pruned_entry::PrunedEntry;
use crate::session::PruneReport;

/// Aggregate outcome of one stable-surface pruning pass.
#[napi(object, object_from_js = false)]
pub struct PruneResult<'env> {
    /// Replacements in the snapshotted surface order.
    #[napi(readonly)]
    pub pruned: Vec<PrunedEntry<'env>>,
    /// Total Unicode code points removed across replacements.
    #[napi(readonly)]
    pub chars_removed: f64,
}

impl<'env> PruneResult<'env> {
    /// The result of `report`, whose replacements answered `call_ids` in
    /// order; in lines mode every entry carries `recoverable`.
    pub fn new(report: PruneReport, call_ids: Vec<CallId<'env>>, lines_mode: bool) -> Self {
        let pruned =
            report.pruned.into_iter().zip(call_ids).map(|(e, id)| PrunedEntry::new(e, id, lines_mode)).collect();
        PruneResult { pruned, chars_removed: report.chars_removed as f64 }
    }
}
