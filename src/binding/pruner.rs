//! `NativePruner`: the pruner behind the `toolResultPruner` service, one
//! method per service call. Each reads its JS arguments, calls the core,
//! and returns the core's answer as its JS type.

use std::ops::Range;

use napi::bindgen_prelude::{Function, Object, Unknown, Utf16String};
use napi::{Env, JsValue, Result, ValueType};
use napi_derive::napi;

use super::blocks::{self, JsBlocks};
use super::command_kind::command_kind;
use super::config::resolved;
use super::dsh::session::JsPruneLog;
use super::dsh::types::ContentBlock;
use super::explained_line::ExplainedLine;
use super::line_plan::LinePlan;
use super::policy::{self, SessionPressure};
use super::prune_result::PruneResult;
use super::text_kind::TextKind;
use super::values::{array_len, number, safe_count, string_arg, type_error};
use crate::explain::{self, explain_text};
use crate::policy::{Policy, prune_session_with_policy};
use crate::session::prune_session;
use crate::strategy::Pruner;
use crate::text_plan::plan_text;

/// The native pruner behind the `toolResultPruner` service.
#[napi]
pub struct NativePruner {
    pruner: Pruner,
    /// The session policy, when a key asks for one or lines mode names kinds by the call.
    policy: Option<Policy>,
}

#[napi]
impl NativePruner {
    /// A pruner for `config`, resolved and validated as `resolveConfig`
    /// does (the same errors), under the session policy its keys give.
    #[napi(constructor, catch_unwind, ts_args_type = "config?: ToolResultPruneConfig")]
    pub fn new(env: Env, config: Unknown) -> Result<Self> {
        let resolved = resolved(&env, &config)?;
        let pruner = Pruner::from(&resolved.config);
        Ok(NativePruner { pruner, policy: policy::policy(pruner, &resolved.policy) })
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
    /// the contract. Under a session policy (lines mode, `tools` or
    /// `recentTokens`) entries carry more (`PrunedEntry`); `pressure` is
    /// the host's reading, which `recentTokens` needs.
    #[napi(
        catch_unwind,
        ts_args_type = "session: Session, host: { estimateMessage(message: Message): number; freezeMessage(message: Message): Message }, pressure?: SessionPressure"
    )]
    pub fn prune_session<'env>(
        &self,
        env: &'env Env,
        session: Unknown<'env>,
        host: Object<'env>,
        pressure: Option<SessionPressure>,
    ) -> Result<PruneResult<'env>> {
        let mut log = JsPruneLog::new(env, &session, host)?;
        if let Some(policy) = &self.policy {
            let report =
                prune_session_with_policy(&mut log, policy, pressure.as_ref().and_then(SessionPressure::core))?;
            return Ok(PruneResult::from_policy(report, log.call_ids, policy.recent_tokens.is_some()));
        }
        let pruner = self.pruner;
        let report = prune_session(&mut log, |blocks| pruner.prune(blocks))?;
        Ok(PruneResult::new(report, log.call_ids))
    }

    /// The plan for one text as this pruner makes it: the content the model
    /// sees, the text behind each marker, and the lines dropped. `spans`
    /// (`[start, end)` UTF-16 offsets) are lines the caller wants kept first
    /// in lines mode; `command`, the shell command that printed the text,
    /// names its kind where it is unambiguous (`kindFrom` says which decided).
    #[napi(
        catch_unwind,
        ts_args_type = "text: string, spans?: ReadonlyArray<readonly [number, number]>, command?: string"
    )]
    pub fn plan(&self, env: Env, text: Unknown, spans: Option<Unknown>, command: Option<Unknown>) -> Result<LinePlan> {
        let named = command_kind(&env, command.as_ref(), "planLines: options.command")?;
        let units = string_arg(&env, &text, "planLines: text")?;
        let spans = match spans {
            Some(spans) if spans.get_type()? != ValueType::Undefined => spans_arg(&env, &spans)?,
            _ => Vec::new(),
        };
        let plan = plan_text(&self.pruner, &units, &spans, named.as_ref());
        Ok(LinePlan::new(plan, units))
    }

    /// Each line of `text` with its class and fate in lines mode; `null` when
    /// the text is within the threshold or gets upstream's cut. `command`
    /// names the kind as in `plan`.
    #[napi(catch_unwind, ts_args_type = "text: string, command?: string")]
    pub fn explain(&self, env: Env, text: Unknown, command: Option<Unknown>) -> Result<Option<Vec<ExplainedLine>>> {
        let units = string_arg(&env, &text, "explain: text")?;
        let named = command_kind(&env, command.as_ref(), "explain: command")?;
        let explained = explain_text(&self.pruner, &units, named.as_ref());
        Ok(explained.map(|lines| lines.iter().map(ExplainedLine::from).collect()))
    }

    /// `--explain`'s rows for `text` (see `src/explain.rs`), handed to
    /// `write` a chunk of rows at a time, so no row or object per line is
    /// held; returns the text's kind, or `null` (nothing written) as
    /// `explain` does. An exception `write` throws ends the rows and is
    /// rethrown. `command` names the kind as in `plan`.
    #[napi(catch_unwind, ts_args_type = "text: string, write: (rows: string) => void, command?: string")]
    pub fn explain_rows(
        &self,
        env: Env,
        text: Unknown,
        write: Function<Utf16String, Unknown>,
        command: Option<Unknown>,
    ) -> Result<Option<TextKind>> {
        let units = string_arg(&env, &text, "explainRows: text")?;
        let named = command_kind(&env, command.as_ref(), "explainRows: command")?;
        let explaining = explain::Explaining::of(&self.pruner, named.as_ref());
        // Each call in its own handle scope: otherwise every chunk written
        // stays reachable until the rows are done.
        let kind = explain::rows(&units, &self.pruner.budgets, &explaining, |chunk| {
            env.run_in_scope(|| write.call(Utf16String::from(chunk.to_vec())).map(drop))
        })?;
        Ok(kind.map(TextKind::from))
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
