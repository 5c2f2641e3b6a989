//! `NativePruner`: the pruner behind the `toolResultPruner` service, one
//! method per service call. Each reads its JS arguments, calls the core,
//! and returns the core's answer as its JS type.

use std::ops::Range;

use napi::bindgen_prelude::{Function, Object, Unknown, Utf16String};
use napi::{Env, JsValue, Result, ValueType};
use napi_derive::napi;

use super::blocks::{self, JsBlocks};
use super::command_kind::named_by_units;
use super::config::resolved;
use super::dsh::session::JsPruneLog;
use super::dsh::types::ContentBlock;
use super::explained_line::ExplainedLine;
use super::line_plan::LinePlan;
use super::policy::{self, SessionPressure};
use super::prune_result::PruneResult;
use super::text_kind::TextKind;
use super::values::{array_len, get, number, object, safe_count, string_arg, type_error};
use crate::explain::{self, explain_text};
use crate::policy::{Policy, prune_session_with_policy};
use crate::session::prune_session;
use crate::strategy::Pruner;
use crate::strategy::lines::Task;
use crate::text_plan::plan_text;

/// What a call asks of `pruneContent`, beyond upstream's one argument.
/// Read field by field (a string or `undefined` each), so a lone surrogate
/// is never converted; this type gives the declaration.
#[napi(object, object_from_js = false, object_to_js = false)]
#[allow(dead_code)] // Declares the type; the values are read by `asked`.
pub struct PruneOptions {
    /// The shell command that printed the blocks: names their kind where it
    /// is unambiguous, in lines mode.
    pub command: Option<String>,
    /// What the output was asked for (the user's request, the call): in
    /// lines mode its rare words raise the lines that hold them.
    pub task: Option<String>,
}

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
    /// with their new text), or `null` when within the threshold. In lines
    /// mode `options.command` (the call that printed the blocks) names
    /// their kind where it is unambiguous, and the rare words of
    /// `options.task` (what was asked) and of the command raise the lines
    /// that hold them; head/tail ignores both.
    #[napi(catch_unwind, ts_args_type = "blocks: ReadonlyArray<ContentBlock>, options?: PruneOptions")]
    pub fn prune_content<'env>(
        &self,
        env: &'env Env,
        blocks: Unknown<'env>,
        options: Option<Unknown<'env>>,
    ) -> Result<Option<Vec<ContentBlock<'env>>>> {
        let read = JsBlocks::read(env, &blocks, "pruneContent: blocks")?;
        let asked = match options.filter(|o| o.get_type().is_ok_and(|t| t != ValueType::Undefined)) {
            Some(options) => {
                let options = object(env, &options, "pruneContent: options")?;
                let command = get(&options, c"command")?;
                let task = get(&options, c"task")?;
                Some(asked(env, Some(&command), Some(&task), "pruneContent: options")?)
            }
            None => None,
        };
        let pruned = match &asked {
            Some((named, task)) => self.pruner.prune_asked(&read.core(), named.as_ref().map(|n| n.kind), task),
            None => self.pruner.prune(&read.core()),
        };
        let Some(pruned) = pruned else { return Ok(None) };
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
    /// names its kind where it is unambiguous (`kindFrom` says which
    /// decided); `task`, what the text was asked for, raises the lines
    /// holding its rare words (`taskWords` lists the words read).
    #[napi(
        catch_unwind,
        ts_args_type = "text: string, spans?: ReadonlyArray<readonly [number, number]>, command?: string, task?: string"
    )]
    pub fn plan(
        &self,
        env: Env,
        text: Unknown,
        spans: Option<Unknown>,
        command: Option<Unknown>,
        task: Option<Unknown>,
    ) -> Result<LinePlan> {
        let (named, task) = asked(&env, command.as_ref(), task.as_ref(), "planLines: options")?;
        let units = string_arg(&env, &text, "planLines: text")?;
        let spans = match spans {
            Some(spans) if spans.get_type()? != ValueType::Undefined => spans_arg(&env, &spans)?,
            _ => Vec::new(),
        };
        let plan = plan_text(&self.pruner, &units, &spans, named.as_ref(), &task);
        Ok(LinePlan::new(plan, units, &task))
    }

    /// Each line of `text` with its class and fate in lines mode; `null` when
    /// the text is within the threshold or gets upstream's cut. `command`
    /// and `task` are read as in `plan`.
    #[napi(catch_unwind, ts_args_type = "text: string, command?: string, task?: string")]
    pub fn explain(
        &self,
        env: Env,
        text: Unknown,
        command: Option<Unknown>,
        task: Option<Unknown>,
    ) -> Result<Option<Vec<ExplainedLine>>> {
        let units = string_arg(&env, &text, "explain: text")?;
        let (named, task) = asked(&env, command.as_ref(), task.as_ref(), "explain:")?;
        let explained = explain_text(&self.pruner, &units, named.as_ref(), &task);
        Ok(explained.map(|lines| lines.iter().map(ExplainedLine::from).collect()))
    }

    /// `--explain`'s rows for `text` (see `src/explain.rs`), handed to
    /// `write` a chunk of rows at a time, so no row or object per line is
    /// held; returns the text's kind, or `null` (nothing written) as
    /// `explain` does. An exception `write` throws ends the rows and is
    /// rethrown. `command` and `task` are read as in `plan`; a row of a
    /// line holding the task's words names them.
    #[napi(catch_unwind, ts_args_type = "text: string, write: (rows: string) => void, command?: string, task?: string")]
    pub fn explain_rows(
        &self,
        env: Env,
        text: Unknown,
        write: Function<Utf16String, Unknown>,
        command: Option<Unknown>,
        task: Option<Unknown>,
    ) -> Result<Option<TextKind>> {
        let units = string_arg(&env, &text, "explainRows: text")?;
        let (named, task) = asked(&env, command.as_ref(), task.as_ref(), "explainRows:")?;
        let explaining = explain::Explaining::of(&self.pruner, named.as_ref(), &task);
        // Each call in its own handle scope: otherwise every chunk written
        // stays reachable until the rows are done.
        let kind = explain::rows(&units, &self.pruner.budgets, &explaining, |chunk| {
            env.run_in_scope(|| write.call(Utf16String::from(chunk.to_vec())).map(drop))
        })?;
        Ok(kind.map(TextKind::from))
    }
}

/// What a call asks of a text: the kind its `command` names and the task
/// read from the words of `task` and of the command. `what` names the
/// arguments in a `TypeError` (`what` `command`, `what` `task`): each is a
/// string or `undefined`. A lone surrogate is never read lossily: words
/// are read from ASCII only.
fn asked(
    env: &Env,
    command: Option<&Unknown>,
    task: Option<&Unknown>,
    what: &str,
) -> Result<(Option<crate::command_kind::CallKind>, Task)> {
    let sep = if what.ends_with(':') { " " } else { "." };
    let given = |value: Option<&Unknown>, name: &str| -> Result<Option<Vec<u16>>> {
        match value {
            Some(v) if v.get_type()? != ValueType::Undefined => {
                Ok(Some(string_arg(env, v, &format!("{what}{sep}{name}"))?))
            }
            _ => Ok(None),
        }
    };
    // The command is read once, before the task, as `command_kind` reads it.
    let command_units = given(command, "command")?;
    let named = command_units.as_deref().and_then(named_by_units);
    let task_units = given(task, "task")?;
    // No task words: no task, so the plan is what it is without one.
    let Some(task_units) = task_units else { return Ok((named, Task::default())) };
    Ok((named, Task::asked(&task_units, command_units.as_deref())))
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
