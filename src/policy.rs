//! The session policy (opt-in): which results a pass prunes, and how.
//!
//! Upstream's pass rewrites every tool result over the threshold, the ones
//! the model has not read yet included. With a [`Policy`]:
//!
//! - a result is pruned by its tool's [`Rule`] (its own budgets and
//!   strategy, or never); `tool_result_retrieve` pages never are;
//! - in lines mode the call that produced a result names its kind where
//!   its command is unambiguous ([`crate::command_kind`]);
//! - with `recent_tokens`, the newest results over the threshold that the
//!   model has not read yet (no reply of its follows them on the surface;
//!   up to that many meter tokens of them, newest first) stay whole as long as
//!   pruning the older ones brings the session under the host's pressure
//!   threshold; when it does not, they are pruned too, oldest first and
//!   the newest last, until it does ([`select`]). So the host never finds
//!   the session over its threshold after a pass where upstream's pass
//!   would have brought it under; where not even upstream's would, the host
//!   summarises either way, and the recent ones stay whole. An unread
//!   result superseded by a later run of the same call takes no room in
//!   the window and goes first. A result the model has read is pruned at
//!   the pass, all of them together: keeping one longer only moves the
//!   rewrite, and the cache break it makes, later, when more of the prompt
//!   follows it (measured in docs/benchmarks.md); in lines mode it keeps
//!   its head as it was sent (`cached_head`), so the break comes after it,
//!   within [`Policy::read_keep`]: the model read it whole, so the cut is a
//!   shorter reminder than a first cut, and the room it frees puts off the
//!   next pass.
//!
//! The events a pass appends are those of [`crate::session::prune_session`],
//! for a subset of its results.

use std::collections::{BTreeMap, HashMap};

use crate::command_kind::{CallKind, call_command, kind_of_tool_command};
use crate::config::{Budgets, PRUNE_MARKER_LEN};
use crate::content::{Pruned, measure};
use crate::session::{BlockList, PruneLog, Seq};
use crate::strategy::lines::{self, Kind};
use crate::strategy::{Pruner, Strategy};

/// The retrieval tool's name: its pages are never pruned.
pub const RETRIEVE_TOOL: &str = "tool_result_retrieve";

/// How the results of one tool are pruned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// With these budgets and this strategy.
    Prune(Pruner),
    /// Never.
    Keep,
}

/// A pass's rules: the default, per-tool rules, the recent window and the
/// budget of a result the model has read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Policy {
    /// The rule of a tool without its own, and of a result whose call is not found.
    pub default: Pruner,
    /// Tool name (UTF-16) → its rule.
    pub tools: Vec<(Vec<u16>, Rule)>,
    /// Meter tokens of the newest over-threshold results, not yet read by
    /// the model, a pass leaves whole while the others relieve the
    /// pressure; `None`: none.
    pub recent_tokens: Option<u64>,
    /// With a recent window, lines mode's output budget for a result the
    /// model has read (at most its rule's `keep`, at least the marker's
    /// length); `None`: its rule's. It read the text whole, so the cut is a
    /// reminder: a shorter one frees more room per pass, and a pass, which
    /// breaks the prompt cache after its first rewrite, comes less often.
    pub read_keep: Option<u64>,
}

impl Policy {
    /// The rule for results of `tool` (`None`: the call was not found).
    pub fn rule(&self, tool: Option<&[u16]>) -> Rule {
        let Some(tool) = tool else { return Rule::Prune(self.default) };
        if tool.iter().copied().eq(RETRIEVE_TOOL.encode_utf16()) {
            return Rule::Keep;
        }
        self.tools.iter().find(|(name, _)| name == tool).map_or(Rule::Prune(self.default), |(_, rule)| *rule)
    }
}

/// The host's pressure when the pass began, in the meter's tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pressure {
    /// The session's measure (`tokenMeter.measure(session).totalTokens`).
    pub total_tokens: u64,
    /// The host compacts at or over this many (`floor(window * ratio)`).
    pub threshold_tokens: u64,
}

/// The call that produced a tool result, as the log holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// The tool's name.
    pub tool: Vec<u16>,
    /// Its raw JSON arguments.
    pub args: Vec<u16>,
}

/// What a policy pass needs of a log beyond [`PruneLog`]; errors are the host's.
pub trait CallLog: PruneLog {
    /// The call that produced the tool result at `seq` (whose content is
    /// `content`), joined by call id; `None` when the log has none.
    fn call(&mut self, seq: Seq, content: &Self::Content) -> Result<Option<Call>, Self::Error>;
    /// Whether the surface node at `seq` is the model's own message (an
    /// `assistant/message`): the results before it were in a request it answered.
    fn is_reply(&mut self, seq: Seq) -> Result<bool, Self::Error>;
    /// The meter's price of the result's message: as it is (`None`), or
    /// with its content rebuilt as `pruned` says.
    fn price(&mut self, content: &Self::Content, pruned: Option<&Pruned>) -> Result<u64, Self::Error>;
    /// What the result at `seq` was asked for, as the session says it: the
    /// newest user message before it and the text of the model's newest
    /// message before it (the step that made the call). Asked in surface
    /// order. `None` (the default): the log does not say.
    fn task(&mut self, seq: Seq) -> Result<Option<Vec<Vec<u16>>>, Self::Error> {
        let _ = seq;
        Ok(None)
    }
}

/// One landed replacement of a policy pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyEntry {
    /// The result replaced.
    pub original_seq: Seq,
    /// Its replacement.
    pub replacement_seq: Seq,
    /// Code points of the original's text.
    pub chars_before: u64,
    /// Code points of the replacement's text.
    pub chars_after: u64,
    /// The meter's price of the original message.
    pub tokens_before: u64,
    /// The meter's price of the replacement message.
    pub tokens_after: u64,
    /// Hash → exact text behind each marker (empty for head/tail).
    pub recoverable: BTreeMap<String, Vec<u16>>,
    /// Lines mode: each text block's kind as planned, and the command that
    /// named it (`None`: the sample decided). `None` for head/tail.
    pub kinds: Option<(Vec<Kind>, Option<CallKind>)>,
    /// Lines mode: the words read from the task the session gave the result
    /// (its request, the model's words, the call), as searched for; empty
    /// when the session gave none.
    pub task_words: Vec<String>,
}

/// The outcome of a policy pass.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PolicyReport {
    /// The replacements, in surface order.
    pub pruned: Vec<PolicyEntry>,
    /// Code points removed by all of them.
    pub chars_removed: u64,
    /// Results over their threshold left whole as recent, in surface order.
    pub kept_recent: Vec<Seq>,
}

/// Which of the candidates (in surface order, oldest first; each the
/// meter's price before and after pruning) a pass prunes; those from
/// `unread_from` on are the ones the model has not read, and
/// `superseded[i]` says a later result on the surface came from the same
/// call (tool and arguments) as candidate `i`.
///
/// Without a recent window or a pressure reading, or when the session is
/// already under the threshold (the host prunes for another reason, such
/// as a context overflow), all of them, as upstream. Otherwise the newest
/// unread ones whose prices fit in `recent_tokens` together are kept whole,
/// an unread one superseded by a later run of the same call excepted (it is
/// pruned before anything else: the model reads the newer run), unless
/// pruning the rest leaves the session at or over the threshold: then the
/// kept ones are pruned too, oldest first, until it is under. When not even
/// pruning all of them would bring it under, the host summarises whatever
/// this pass does, so the recent ones stay whole.
///
/// What this costs a prompt cache: every result the model has read is
/// pruned in the same pass (one rewrite, from the oldest of them, instead
/// of one per pass, each from further back); an unread one was never sent,
/// so pruning it invalidates nothing. One walk over the candidates.
pub fn select(
    prices: &[(u64, u64)],
    unread_from: usize,
    superseded: &[bool],
    recent_tokens: Option<u64>,
    pressure: Option<Pressure>,
) -> Vec<bool> {
    let mut chosen = vec![true; prices.len()];
    let (Some(recent), Some(p)) = (recent_tokens, pressure) else { return chosen };
    if p.total_tokens < p.threshold_tokens {
        return chosen;
    }
    let mut used = 0u64;
    let mut kept = vec![false; prices.len()];
    for (i, &(before, _)) in prices.iter().enumerate().skip(unread_from).rev() {
        if superseded.get(i).copied().unwrap_or(false) {
            continue;
        }
        match used.checked_add(before) {
            Some(sum) if sum <= recent => used = sum,
            _ => break,
        }
        kept[i] = true;
    }
    let saving = |&(before, after): &(u64, u64)| before.saturating_sub(after);
    if p.total_tokens.saturating_sub(prices.iter().map(saving).sum()) >= p.threshold_tokens {
        for (c, k) in chosen.iter_mut().zip(&kept) {
            *c = !k;
        }
        return chosen;
    }
    let others: u64 = prices.iter().zip(&kept).filter(|(_, k)| !**k).map(|(p, _)| saving(p)).sum();
    let mut total = p.total_tokens.saturating_sub(others);
    for (i, price) in prices.iter().enumerate() {
        if !kept[i] {
            continue;
        }
        if total < p.threshold_tokens {
            chosen[i] = false;
        } else {
            total = total.saturating_sub(saving(price));
        }
    }
    chosen
}

/// The budgets of a lines plan under the policy: the rule's, with
/// [`Policy::read_keep`] for a result the model has read.
fn plan_budgets(policy: &Policy, pruner: &Pruner, read: bool) -> Budgets {
    let budgets = pruner.budgets;
    match policy.read_keep {
        Some(keep) if read && policy.recent_tokens.is_some() => {
            budgets.with_keep(keep.clamp(PRUNE_MARKER_LEN, budgets.keep())).unwrap_or(budgets)
        }
        _ => budgets,
    }
}

/// The keep-spans of a lines plan under the policy: for a result the model
/// has read (it was sent whole, so a provider's prefix cache holds it), its
/// first lines up to the head upstream's cut keeps within lines mode's
/// budget, kept as they are. The rewrite then differs from what the cache
/// holds only after them, where a plan that drops an early line would
/// re-bill the result from that line on; the rest of the budget is the
/// plan's as before. Nothing for an unread result (never sent, nothing
/// cached) or without a recent window (the plan as before).
fn cached_head(policy: &Policy, budgets: &Budgets, read: bool) -> Option<std::ops::Range<usize>> {
    if policy.recent_tokens.is_none() || !read {
        return None;
    }
    let head = usize::try_from(budgets.head_tail_within_keep().head()).unwrap_or(usize::MAX);
    (head > 0).then_some(0..head)
}

/// A result the pass may prune, planned before anything is appended.
struct Planned<C> {
    seq: Seq,
    content: C,
    pruned: Pruned,
    chars_before: u64,
    tokens: (u64, u64),
    kinds: Option<(Vec<Kind>, Option<CallKind>)>,
    task_words: Vec<String>,
    /// Its call (tool and arguments) and its place among the candidates,
    /// to tell a run a later one of the same call superseded.
    call: (Option<CallKey>, usize),
}

/// A call as a later run of it is told apart: its tool and its arguments.
type CallKey = (Vec<u16>, Vec<u16>);

/// Prunes one snapshot of the surface under `policy`: every result is
/// planned by its rule first, [`select`] picks which to prune, then each
/// chosen one is replaced in surface order, as
/// [`crate::session::prune_session`] replaces it. An error stops the pass at
/// once; appends that landed before it stay.
pub fn prune_session_with_policy<L: CallLog>(
    log: &mut L,
    policy: &Policy,
    pressure: Option<Pressure>,
) -> Result<PolicyReport, L::Error> {
    let mut candidates = Vec::new();
    // Candidates before this one were followed by a reply of the model's.
    let mut unread_from = 0;
    for seq in log.surface()? {
        if log.is_tool_result(seq)? {
            candidates.push(seq);
        } else if policy.recent_tokens.is_some() && log.is_reply(seq)? {
            unread_from = candidates.len();
        }
    }
    let mut planned = Vec::new();
    // The planned ones the model has read (they come first).
    let mut read_planned = 0;
    // Each call (tool and arguments) → the position of its newest result.
    let mut newest: HashMap<CallKey, usize> = HashMap::new();
    for (i, seq) in candidates.into_iter().enumerate() {
        // A result the log cannot give as text is left, as in `prune_session`.
        let Some(content) = log.content(seq)? else { continue };
        let call = log.call(seq, &content)?;
        let key = call.as_ref().map(|c| (c.tool.clone(), c.args.clone()));
        if let Some(key) = &key {
            newest.insert(key.clone(), i);
        }
        let Rule::Prune(pruner) = policy.rule(call.as_ref().map(|c| c.tool.as_slice())) else { continue };
        let blocks = content.blocks();
        let mut task_words = Vec::new();
        let (pruned, kinds) = match pruner.strategy {
            Strategy::HeadTail => (pruner.prune(&blocks), None),
            Strategy::Lines(mut options) => {
                // The call's shell command, read once: it names the kind and is part of the task.
                let command = call.as_ref().and_then(|c| call_command(&String::from_utf16(&c.args).ok()?));
                let named = call
                    .as_ref()
                    .zip(command.as_deref())
                    .and_then(|(c, command)| kind_of_tool_command(&String::from_utf16(&c.tool).ok()?, command));
                options.kind = named.as_ref().map(|n| n.kind);
                let budgets = plan_budgets(policy, &pruner, i < unread_from);
                let head = cached_head(policy, &budgets, i < unread_from);
                // The task: the request and the step's words, then the
                // call's arguments; read only for a result the plan cuts.
                let over =
                    !crate::text::code_points_at_most(crate::content::texts(&blocks), pruner.budgets.threshold());
                let asked = if over { log.task(seq)?.unwrap_or_default() } else { Vec::new() };
                let task = if asked.is_empty() {
                    lines::Task::default()
                } else {
                    let texts: Vec<&[u16]> = asked.iter().map(Vec::as_slice).collect();
                    let args = call.as_ref().map(|c| c.args.as_slice());
                    let command = command.as_ref().map(|c| c.encode_utf16().collect::<Vec<u16>>());
                    lines::Task::of_call(&texts, command.as_deref(), args.filter(|_| command.is_none()))
                };
                task_words = task.terms().map(str::to_owned).collect();
                let (pruned, kinds) = lines::plan_blocks(&blocks, &budgets, &options, head.as_slice(), &task);
                (pruned, Some((kinds, named)))
            }
        };
        let Some(pruned) = pruned else { continue };
        let chars_before = measure(&blocks);
        drop(blocks);
        let tokens = (log.price(&content, None)?, log.price(&content, Some(&pruned))?);
        read_planned += usize::from(i < unread_from);
        planned.push(Planned { seq, content, pruned, chars_before, tokens, kinds, task_words, call: (key, i) });
    }
    let prices: Vec<(u64, u64)> = planned.iter().map(|p| p.tokens).collect();
    let superseded: Vec<bool> = planned
        .iter()
        .map(|p| p.call.0.as_ref().is_some_and(|k| newest.get(k).is_some_and(|&n| n > p.call.1)))
        .collect();
    let chosen = select(&prices, read_planned, &superseded, policy.recent_tokens, pressure);
    let mut report = PolicyReport::default();
    for (p, chosen) in planned.into_iter().zip(chosen) {
        if !chosen {
            report.kept_recent.push(p.seq);
            continue;
        }
        let replacement_seq = log.replace(p.seq, &p.content, &p.pruned)?;
        report.chars_removed += p.chars_before - p.pruned.chars_after;
        report.pruned.push(PolicyEntry {
            original_seq: p.seq,
            replacement_seq,
            chars_before: p.chars_before,
            chars_after: p.pruned.chars_after,
            tokens_before: p.tokens.0,
            tokens_after: p.tokens.1,
            recoverable: p.pruned.recovered(&p.content.blocks()),
            kinds: p.kinds,
            task_words: p.task_words,
        });
    }
    Ok(report)
}

#[cfg(test)]
mod tests;
