//! `PruneResult`: the outcome of one `pruneSession` pass.

use napi_derive::napi;

use super::dsh::types::CallId;
use super::pruned_entry::PrunedEntry;
use crate::policy::PolicyReport;
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
    /// With `recentTokens`: over-threshold results left whole as the newest, by seq.
    #[napi(readonly)]
    pub kept_recent: Option<Vec<f64>>,
}

impl<'env> PruneResult<'env> {
    /// The result of a head/tail pass `report`, whose replacements answered
    /// `call_ids` in order: upstream's fields.
    pub fn new(report: PruneReport, call_ids: Vec<CallId<'env>>) -> Self {
        let pruned = report.pruned.into_iter().zip(call_ids).map(|(e, id)| PrunedEntry::new(e, id)).collect();
        PruneResult { pruned, chars_removed: report.chars_removed as f64, kept_recent: None }
    }

    /// The result of a policy pass `report`; `recent` (a `recentTokens`
    /// window) adds `keptRecent`.
    pub fn from_policy(report: PolicyReport, call_ids: Vec<CallId<'env>>, recent: bool) -> Self {
        let pruned = report.pruned.into_iter().zip(call_ids).map(|(e, id)| PrunedEntry::from_policy(e, id)).collect();
        let kept_recent = recent.then(|| report.kept_recent.iter().map(|&s| s as f64).collect());
        PruneResult { pruned, chars_removed: report.chars_removed as f64, kept_recent }
    }
}
