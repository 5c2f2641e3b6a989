//! `NativePruner`: the pruner behind the `toolResultPruner` service, one
//! method per service call. Each reads its JS arguments, calls the core,
//! and returns the core's answer as its JS type.

use std::ops::Range;

use napi::bindgen_prelude::{Object, Unknown};
use napi::{Env, JsValue, Result, ValueType};
use napi_derive::napi;

use super::blocks::{self, JsBlocks};
use super::config::resolved;
use super::dsh::session::JsPruneLog;
use super::dsh::types::ContentBlock;
use super::explained_line::ExplainedLine;
use super::line_plan::LinePlan;
use super::prune_result::PruneResult;
use super::values::{array_len, number, safe_count, string_arg, type_error};
use crate::explain::explain_text;
use crate::session::prune_session;
use crate::strategy::{Pruner, Strategy};
use crate::text_plan::plan_text;

/// The native pruner behind the `toolResultPruner` service.
#[napi]
pub struct NativePruner {
    pruner: Pruner,
}

#[napi]
impl NativePruner {
    /// A pruner for `config`, resolved and validated as `resolveConfig`
    /// does (the same errors).
    #[napi(constructor, catch_unwind, ts_args_type = "config?: ToolResultPruneConfig")]
    pub fn new(env: Env, config: Unknown) -> Result<Self> {
        Ok(NativePruner { pruner: resolved(&env, &config)?.pruner() })
    }

    /// Code points of the text blocks.
    #[napi(catch_unwind, ts_args_type = "blocks: ReadonlyArray<ContentBlock>")]
    pub fn measure_content(&self, env: Env, blocks: Unknown) -> Result<f64> {
        Ok(blocks::measure(&env, &blocks, "measureContent: blocks")? as f64)
    }

    /// The pruned blocks (rich blocks the same objects, text blocks copies
    /// with their new text), or `null` when within the threshold.
    #[napi(catch_unwind, ts_args_type = "blocks: ReadonlyArray<ContentBlock>")]
    pub fn prune_content<'env>(
        &self,
        env: &'env Env,
        blocks: Unknown<'env>,
    ) -> Result<Option<Vec<ContentBlock<'env>>>> {
        let read = JsBlocks::read(env, &blocks, "pruneContent: blocks")?;
        let Some(pruned) = self.pruner.prune(&read.core()) else { return Ok(None) };
        Ok(Some(read.build(env, &pruned)?.into_iter().map(ContentBlock).collect()))
    }

    /// Prunes one stable snapshot of `session.surface`; see the plugin for
    /// the contract. In lines mode each entry also carries `recoverable`.
    #[napi(
        catch_unwind,
        ts_args_type = "session: Session, host: { estimateMessage(message: Message): number; freezeMessage(message: Message): Message }"
    )]
    pub fn prune_session<'env>(
        &self,
        env: &'env Env,
        session: Unknown<'env>,
        host: Object<'env>,
    ) -> Result<PruneResult<'env>> {
        let mut log = JsPruneLog::new(env, &session, host)?;
        let pruner = self.pruner;
        let report = prune_session(&mut log, |blocks| pruner.prune(blocks))?;
        let lines_mode = matches!(pruner.strategy, Strategy::Lines(_));
        Ok(PruneResult::new(report, log.call_ids, lines_mode))
    }

    /// The plan for one text as this pruner makes it: the content the model
    /// sees, the text behind each marker, and the lines dropped. `spans`
    /// (`[start, end)` UTF-16 offsets) are lines the caller wants kept first
    /// in lines mode.
    #[napi(catch_unwind, ts_args_type = "text: string, spans?: ReadonlyArray<readonly [number, number]>")]
    pub fn plan(&self, env: Env, text: Unknown, spans: Option<Unknown>) -> Result<LinePlan> {
        let units = string_arg(&env, &text, "planLines: text")?;
        let spans = match spans {
            Some(spans) if spans.get_type()? != ValueType::Undefined => spans_arg(&env, &spans)?,
            _ => Vec::new(),
        };
        let plan = plan_text(&self.pruner, &units, &spans);
        Ok(LinePlan::new(plan, units))
    }

    /// Each line of `text` with its class and fate in lines mode; `null` when
    /// the text is within the threshold or gets upstream's cut.
    #[napi(catch_unwind, ts_args_type = "text: string")]
    pub fn explain(&self, env: Env, text: Unknown) -> Result<Option<Vec<ExplainedLine>>> {
        let units = string_arg(&env, &text, "explain: text")?;
        Ok(explain_text(&self.pruner, &units).map(|lines| lines.iter().map(ExplainedLine::from).collect()))
    }
}

/// `[start, end)` spans from a JS array of `[start, end]` pairs.
fn spans_arg(env: &Env, value: &Unknown<'_>) -> Result<Vec<Range<usize>>> {
    use napi::bindgen_prelude::JsObjectValue;
    let what = "planLines: options.spans";
    let (array, len) = array_len(env, value, what)?;
    let mut spans = Vec::new();
    for i in 0..len {
        let pair: Unknown = array.get_element(i)?;
        let path = format!("{what}[{i}]");
        let bad = || type_error(env, &format!("{path} must be a [start, end] pair of non-negative integers"));
        if !pair.is_array()? {
            return Err(bad());
        }
        let (pair, n) = array_len(env, &pair, &path)?;
        if n != 2 {
            return Err(bad());
        }
        let mut ends = [0usize; 2];
        for (k, end) in ends.iter_mut().enumerate() {
            let n = number(&pair.get_element(k as u32)?)?.and_then(safe_count).ok_or_else(bad)?;
            *end = usize::try_from(n).unwrap_or(usize::MAX);
        }
        spans.push(ends[0]..ends[1]);
    }
    Ok(spans)
}
