//! `ResolvedConfig`: a config as the core resolved it.

use napi_derive::napi;

use super::strategy_name::StrategyName;
use crate::config;

/// Validated, detached pruning configuration (the plugin freezes it).
#[napi(object, object_from_js = false)]
pub struct ResolvedConfig {
    /// Prune when total text exceeds this many Unicode code points.
    #[napi(readonly)]
    pub threshold_chars: f64,
    /// Leading Unicode code points head/tail keeps.
    #[napi(readonly)]
    pub head_chars: f64,
    /// Trailing Unicode code points head/tail keeps.
    #[napi(readonly)]
    pub tail_chars: f64,
    /// The transform.
    #[napi(readonly)]
    pub strategy: StrategyName,
    /// Lines mode: code points a pruned result keeps at most.
    #[napi(readonly)]
    pub keep_chars: f64,
    /// Lines mode: neighbours kept on each side of a kept line.
    #[napi(readonly)]
    pub context_lines: f64,
    /// Lines mode: lines kept at the start and at the end.
    #[napi(readonly)]
    pub edge_lines: f64,
}

impl From<config::ResolvedConfig> for ResolvedConfig {
    fn from(c: config::ResolvedConfig) -> Self {
        ResolvedConfig {
            threshold_chars: c.threshold_chars,
            head_chars: c.head_chars,
            tail_chars: c.tail_chars,
            strategy: c.strategy.into(),
            keep_chars: c.keep_chars,
            context_lines: c.context_lines,
            edge_lines: c.edge_lines,
        }
    }
}
