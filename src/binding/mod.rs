//! The Node-API surface: JS values in, core calls, JS values out. No
//! pruning logic lives here, and no config rule: the plugin validates the
//! config (with upstream's messages) and passes typed values; the core's
//! [`Budgets`] is valid by construction. Every export catches panics, so a
//! bug in Rust becomes a JS error instead of aborting the process.

// Test builds of the crate leave the exports unregistered, so they look unused.
#![cfg_attr(test, allow(dead_code))]

mod blocks;
mod dsh;
mod policy;
mod raw;
mod values;
mod zstd;

use std::collections::BTreeMap;

use napi::bindgen_prelude::{Either, Function, JsObjectValue, Object, Unknown, Utf16String};
use napi::{Env, JsValue, Result};
use napi_derive::napi;

use crate::config::{self, Budgets};
use crate::content::{Block, render_texts};
use crate::explain;
use crate::hash;
use crate::markers::find_markers;
use crate::pages::{self, Selection};
use crate::policy::{Policy, Rule, prune_session_with_policy};
use crate::session::{prune_session, retrieve as retrieve_from};
use crate::strategy::lines::{self, LineOptions};
use crate::strategy::{Pruner, Strategy};
use blocks::JsBlocks;
use dsh::JsSessionLog;
use policy::{SessionPressure, ToolRule};
use values::{array_len, number, range_error, safe_count, string_arg, type_error};

/// The marker head/tail puts in place of the removed middle.
#[napi]
pub const PRUNE_MARKER: &str = config::PRUNE_MARKER;
/// Default `thresholdChars`.
#[napi]
pub const DEFAULT_THRESHOLD_CHARS: u32 = config::DEFAULT_THRESHOLD_CHARS;
/// Default `headChars`.
#[napi]
pub const DEFAULT_HEAD_CHARS: u32 = config::DEFAULT_HEAD_CHARS;
/// Default `tailChars`.
#[napi]
pub const DEFAULT_TAIL_CHARS: u32 = config::DEFAULT_TAIL_CHARS;
/// Default `contextLines`.
#[napi]
pub const DEFAULT_CONTEXT_LINES: u32 = config::DEFAULT_CONTEXT_LINES;
/// Default `edgeLines`.
#[napi]
pub const DEFAULT_EDGE_LINES: u32 = config::DEFAULT_EDGE_LINES;

/// How over-budget text is cut.
#[napi(string_enum = "kebab-case")]
pub enum StrategyName {
    /// Upstream's head, marker and tail.
    HeadTail,
    /// Failure-aware lines with retrievable markers.
    Lines,
}

/// A config the plugin has resolved and validated.
#[napi(object)]
pub struct PrunerOptions {
    /// Prune when the text is longer than this many code points.
    pub threshold_chars: i64,
    /// Leading code points kept by head/tail.
    pub head_chars: i64,
    /// Trailing code points kept by head/tail.
    pub tail_chars: i64,
    /// Lines mode's output budget; `headChars + 39 + tailChars` when absent.
    pub keep_chars: Option<i64>,
    /// The transform.
    #[napi(ts_type = "'head-tail' | 'lines'")]
    pub strategy: StrategyName,
    /// Lines mode: neighbours kept around each kept line.
    pub context_lines: i64,
    /// Lines mode: lines kept at each end.
    pub edge_lines: i64,
    /// Meter tokens of the newest over-threshold results `pruneSession`
    /// leaves whole while the older ones relieve the pressure.
    pub recent_tokens: Option<i64>,
    /// Per-tool rules (ignored inside a rule).
    pub tools: Option<Vec<ToolRule>>,
}

/// The native pruner behind the `toolResultPruner` service.
#[napi]
pub struct NativePruner {
    pruner: Pruner,
    /// The session policy, when a key asks for one or lines mode names kinds by the call.
    policy: Option<Policy>,
}

/// A count from a typed option; a `RangeError` naming `name` when negative.
fn count(env: &Env, name: &str, value: i64) -> Result<u64> {
    u64::try_from(value).map_err(|_| range_error(env, &format!("PrunerOptions.{name} ({value}) must not be negative")))
}

#[napi]
impl NativePruner {
    /// A pruner for a resolved config.
    #[napi(constructor, catch_unwind)]
    pub fn new(env: Env, options: PrunerOptions) -> Result<Self> {
        let keep = options.keep_chars.map(|k| count(&env, "keepChars", k)).transpose()?;
        let budgets = Budgets::new(
            count(&env, "thresholdChars", options.threshold_chars)?,
            count(&env, "headChars", options.head_chars)?,
            count(&env, "tailChars", options.tail_chars)?,
        )
        .and_then(|b| match keep {
            Some(keep) => b.with_keep(keep),
            None => Ok(b),
        })
        .map_err(|e| range_error(&env, &format!("PrunerOptions: {e}")))?;
        let strategy = match options.strategy {
            StrategyName::HeadTail => Strategy::HeadTail,
            StrategyName::Lines => Strategy::Lines(LineOptions {
                context: usize::try_from(count(&env, "contextLines", options.context_lines)?).unwrap_or(usize::MAX),
                edge: usize::try_from(count(&env, "edgeLines", options.edge_lines)?).unwrap_or(usize::MAX),
                kind: None,
            }),
        };
        let pruner = Pruner { budgets, strategy };
        let recent_tokens = options.recent_tokens.map(|r| count(&env, "recentTokens", r)).transpose()?;
        let mut tools = Vec::new();
        for rule in options.tools.into_iter().flatten() {
            let as_rule = match rule.options {
                Some(options) => Rule::Prune(NativePruner::new(env, options)?.pruner),
                None => Rule::Keep,
            };
            tools.push((rule.name.to_vec(), as_rule));
        }
        let wanted = recent_tokens.is_some() || !tools.is_empty() || matches!(strategy, Strategy::Lines(_));
        let policy = wanted.then_some(Policy { default: pruner, tools, recent_tokens });
        Ok(NativePruner { pruner, policy })
    }

    /// Code points of the text blocks.
    #[napi(catch_unwind, ts_args_type = "blocks: ReadonlyArray<object>")]
    pub fn measure_content(&self, env: Env, blocks: Unknown) -> Result<f64> {
        Ok(blocks::measure(&env, &blocks, "measureContent: blocks")? as f64)
    }

    /// The pruned block array, or `null` when within the threshold.
    #[napi(catch_unwind, ts_args_type = "blocks: ReadonlyArray<object>", ts_return_type = "Array<object> | null")]
    pub fn prune_content<'env>(&self, env: &'env Env, blocks: Unknown<'env>) -> Result<Option<Unknown<'env>>> {
        let read = JsBlocks::read(env, &blocks, "pruneContent: blocks")?;
        self.pruner.prune(&read.core()).map(|pruned| read.build(env, &pruned)).transpose()
    }

    /// Prunes one stable snapshot of `session.surface`; see the plugin for
    /// the contract. Under a session policy (lines mode, `tools` or
    /// `recentTokens`) entries carry more (`PrunedEntry` in the plugin);
    /// `pressure` is the host's reading, which `recentTokens` needs.
    #[napi(
        catch_unwind,
        ts_args_type = "session: object, host: { estimateMessage(message: object): number; freezeMessage(message: object): object }, pressure?: SessionPressure",
        ts_return_type = "{ pruned: Array<{ originalSeq: number; replacementSeq: number; callId: unknown; charsBefore: number; charsAfter: number; recoverable?: Record<string, string>; tokensBefore?: number; tokensAfter?: number; kinds?: Array<'log' | 'code' | 'diff' | 'search' | 'json' | 'listing'>; kindFrom?: string }>; charsRemoved: number; keptRecent?: number[] }"
    )]
    pub fn prune_session<'env>(
        &self,
        env: &'env Env,
        session: Unknown<'env>,
        host: Object<'env>,
        pressure: Option<SessionPressure>,
    ) -> Result<Object<'env>> {
        let mut log = JsSessionLog::new(env, &session, host, "pruneSession")?;
        if let Some(policy) = &self.policy {
            let report =
                prune_session_with_policy(&mut log, policy, pressure.as_ref().and_then(SessionPressure::core))?;
            return policy::report_object(env, &report, &log.call_ids, policy.recent_tokens.is_some());
        }
        let pruner = self.pruner;
        let report = prune_session(&mut log, |blocks| pruner.prune(blocks))?;
        let lines_mode = matches!(pruner.strategy, Strategy::Lines(_));
        let mut entries = Vec::with_capacity(report.pruned.len());
        for (entry, call_id) in report.pruned.iter().zip(&log.call_ids) {
            let mut item = Object::new(env)?;
            item.set_named_property("originalSeq", entry.original_seq as f64)?;
            item.set_named_property("replacementSeq", entry.replacement_seq as f64)?;
            item.set_named_property("callId", *call_id)?;
            item.set_named_property("charsBefore", entry.chars_before as f64)?;
            item.set_named_property("charsAfter", entry.chars_after as f64)?;
            if lines_mode {
                item.set_named_property("recoverable", recoverable_object(env, &entry.recoverable)?)?;
            }
            entries.push(item.to_unknown());
        }
        let mut out = Object::new(env)?;
        out.set_named_property("pruned", values::array_of(env, entries)?)?;
        out.set_named_property("charsRemoved", report.chars_removed as f64)?;
        Ok(out)
    }

    /// The plan for one text as this pruner makes it: the content the model
    /// sees, the text behind each marker, and the lines dropped. `spans`
    /// (`[start, end)` UTF-16 offsets) are lines the caller wants kept first
    /// in lines mode; `command`, the shell command that printed the text,
    /// names its kind where it is unambiguous (`kindFrom` says which decided).
    #[napi(
        catch_unwind,
        ts_args_type = "text: string, spans?: ReadonlyArray<readonly [number, number]>, command?: string",
        ts_return_type = "{ content: string; recoverable: Record<string, string>; droppedLines: number; kinds: Array<'log' | 'code' | 'diff' | 'search' | 'json' | 'listing'>; kindFrom: string }"
    )]
    pub fn plan<'env>(
        &self,
        env: &'env Env,
        text: Unknown<'env>,
        spans: Option<Unknown<'env>>,
        command: Option<Unknown<'env>>,
    ) -> Result<Object<'env>> {
        let named = policy::command_kind(env, command.as_ref(), "planLines: options.command")?;
        let units = string_arg(env, &text, "planLines: text")?;
        let spans = match spans {
            Some(spans) if spans.get_type()? != napi::ValueType::Undefined => spans_arg(env, &spans)?,
            _ => Vec::new(),
        };
        let blocks = [Block::Text(&units)];
        let (pruned, kinds) = match policy::hinted(self.pruner.strategy, named.as_ref()) {
            Strategy::Lines(options) => lines::plan_blocks(&blocks, &self.pruner.budgets, &options, &spans),
            Strategy::HeadTail => {
                (self.pruner.prune(&blocks), named.as_ref().map_or_else(|| lines::kinds(&blocks), |n| vec![n.kind]))
            }
        };
        let kinds: Vec<&str> = kinds.into_iter().map(|k| k.name()).collect();
        let mut out = Object::new(env)?;
        match pruned {
            Some(p) => {
                let content = render_texts(&blocks, &p).collect::<Vec<_>>().concat();
                out.set_named_property("content", env.create_string_utf16(&content)?)?;
                out.set_named_property("recoverable", recoverable_object(env, &p.recovered(&blocks))?)?;
                out.set_named_property("droppedLines", p.dropped_lines as f64)?;
                out.set_named_property("kinds", kinds)?;
            }
            None => {
                out.set_named_property("content", text)?;
                out.set_named_property("recoverable", Object::new(env)?)?;
                out.set_named_property("droppedLines", 0.0)?;
                out.set_named_property("kinds", kinds)?;
            }
        }
        out.set_named_property("kindFrom", named.as_ref().map_or("sample", |n| n.reason.as_str()))?;
        Ok(out)
    }
}

/// One line of an explained plan, as `--explain` prints it.
#[napi(object)]
pub struct ExplainedLine {
    /// What the line carries: `pass` (a pass verdict), `failure`, `weak`, `cause`,
    /// `summary`, `frame`, `flood` (a failure or summary line repeating a
    /// template), or `''`.
    pub class: String,
    /// What the plan does with it: `keep`, `cut` or `drop`.
    pub fate: String,
    /// Why: the reason it was kept (`failure`, `cause`, `summary`, `frame`,
    /// `repeat`, `weak`, `start`, `end`, `context`, `fill`, `span`), or for a
    /// dropped line `no room` when it carries signal, else `''`.
    pub why: String,
    /// The kind of the text: `log`, `code`, `diff`, `search`, `json` or `listing`.
    pub kind: String,
}

#[napi]
impl NativePruner {
    /// Each line of `text` with its class and fate in lines mode; `null` when
    /// the text is within the threshold or gets upstream's cut. `command`
    /// names the kind as in `plan`.
    #[napi(catch_unwind, ts_args_type = "text: string, command?: string")]
    pub fn explain(&self, env: Env, text: Unknown, command: Option<Unknown>) -> Result<Option<Vec<ExplainedLine>>> {
        let units = string_arg(&env, &text, "explain: text")?;
        let named = policy::command_kind(&env, command.as_ref(), "explain: command")?;
        let mut out = Vec::new();
        let planned = lines::explain(&units, &self.pruner.budgets, &self.line_options(named.as_ref()), |_, line| {
            let [class, fate, why] = explain::words(&line);
            let kind = line.kind.name().to_owned();
            out.push(ExplainedLine { class: class.to_owned(), fate: fate.to_owned(), why: why.to_owned(), kind });
        });
        Ok(planned.then_some(out))
    }

    /// `--explain`'s rows for `text` (see `src/explain.rs`), handed to
    /// `write` a chunk of rows at a time, so no row or object per line is
    /// held; returns the text's kind, or `null` (nothing written) as
    /// `explain` does. An exception `write` throws ends the rows and is
    /// rethrown. `command` names the kind as in `plan`.
    #[napi(
        catch_unwind,
        ts_args_type = "text: string, write: (rows: string) => void, command?: string",
        ts_return_type = "string | null"
    )]
    pub fn explain_rows(
        &self,
        env: Env,
        text: Unknown,
        write: Function<Utf16String, Unknown>,
        command: Option<Unknown>,
    ) -> Result<Option<String>> {
        let units = string_arg(&env, &text, "explainRows: text")?;
        let named = policy::command_kind(&env, command.as_ref(), "explainRows: command")?;
        // Each call in its own handle scope: otherwise every chunk written
        // stays reachable until the rows are done.
        let kind = explain::rows(&units, &self.pruner.budgets, &self.line_options(named.as_ref()), |chunk| {
            env.run_in_scope(|| write.call(Utf16String::from(chunk.to_vec())).map(drop))
        })?;
        Ok(kind.map(|k| k.name().to_owned()))
    }

    /// The line options lines mode plans with (the defaults under
    /// head/tail), the kind as `named` says.
    fn line_options(&self, named: Option<&crate::command_kind::CallKind>) -> LineOptions {
        match policy::hinted(self.pruner.strategy, named) {
            Strategy::Lines(options) => options,
            Strategy::HeadTail => LineOptions::default(),
        }
    }
}

/// `[start, end)` spans from a JS array of `[start, end]` pairs.
fn spans_arg(env: &Env, value: &Unknown<'_>) -> Result<Vec<std::ops::Range<usize>>> {
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

/// `{ [hash]: text }` as a plain object.
fn recoverable_object<'env>(env: &'env Env, map: &BTreeMap<String, Vec<u16>>) -> Result<Object<'env>> {
    let mut out = Object::new(env)?;
    for (hash, text) in map {
        out.set_named_property(hash, env.create_string_utf16(text)?)?;
    }
    Ok(out)
}

/// The exact text a `<<ccr:HASH …>>` marker in one of `session`'s pruned
/// tool results stands for, found from the log (the replacement and the
/// original it cites); `undefined` for any hash the pruner did not write.
#[napi(catch_unwind, ts_args_type = "session: object, hash: string", ts_return_type = "string | undefined")]
pub fn retrieve(env: Env, session: Unknown, hash: Unknown) -> Result<Either<Utf16String, ()>> {
    Ok(match retrieved(&env, &session, &hash, "retrieve")? {
        Some((_, text)) => Either::A(Utf16String::from(text)),
        None => Either::B(()),
    })
}

/// The hash and the text behind it in `session`, for `retrieve` and
/// `retrievePage` (`what` names the caller in errors).
fn retrieved(env: &Env, session: &Unknown, hash: &Unknown, what: &str) -> Result<Option<(String, Vec<u16>)>> {
    let hash = String::from_utf16_lossy(&string_arg(env, hash, &format!("{what}: hash"))?);
    let mut log = JsSessionLog::new(env, session, Object::new(env)?, what)?;
    if !hash::is_hash(&hash) {
        return Ok(None);
    }
    Ok(retrieve_from(&mut log, &hash)?.map(|text| (hash, text)))
}

/// The retrieval tool's name, as the model calls it (its header names it).
#[napi]
pub const RETRIEVE_TOOL_NAME: &str = pages::TOOL_NAME;

/// What part of a retrieved text to page through, and within what.
#[napi(object)]
pub struct PageOptions {
    /// The pruner's `thresholdChars`: each page and its header fit in it.
    pub threshold_chars: f64,
    /// The page wanted, from 1 (default 1).
    pub page: Option<i64>,
    /// With `lastLine`: only lines `firstLine..=lastLine`, counted from 1.
    pub first_line: Option<i64>,
    /// See `firstLine`.
    pub last_line: Option<i64>,
    /// Only the lines holding this text, with their neighbours.
    #[napi(ts_type = "string")]
    pub search: Option<Unknown<'static>>,
}

/// One page of a retrieved text (see `src/pages/`).
#[napi(object)]
pub struct TextPage {
    /// The page's first line, ending in a line feed: which lines, which
    /// page, how to go on. The tool's result is `header + text`.
    pub header: Utf16String,
    /// The page: whole lines of the text, byte for byte.
    pub text: Utf16String,
    /// First line on the page, from 1.
    pub first_line: u32,
    /// Last line on the page.
    pub last_line: u32,
    /// Lines in the whole text.
    pub total_lines: u32,
    /// This page's number, from 1.
    pub page: u32,
    /// Pages the selection takes.
    pub pages: u32,
    /// Lines that matched `search` (0 without one).
    pub matches: u32,
}

/// Page `options.page` of the exact text behind `hash` in `session` (as
/// `retrieve` finds it) under its header, the two within
/// `options.thresholdChars` code points: whole lines, optionally narrowed
/// to a line range or a search; `undefined` for a hash the pruner did not
/// write. Paged here, so the whole dropped text never crosses into JS. A
/// `RangeError` for a page past the last, a selection with no line, or a
/// threshold with no room for a page.
#[napi(
    catch_unwind,
    ts_args_type = "session: object, hash: string, options: PageOptions",
    ts_return_type = "TextPage | undefined"
)]
pub fn retrieve_page(env: Env, session: Unknown, hash: Unknown, options: PageOptions) -> Result<Either<TextPage, ()>> {
    let threshold = threshold_arg(&env, options.threshold_chars, "retrievePage: options.thresholdChars")?;
    let Some((hash, units)) = retrieved(&env, &session, &hash, "retrievePage")? else { return Ok(Either::B(())) };
    let count = |name: &str, v: i64| {
        usize::try_from(v)
            .map_err(|_| range_error(&env, &format!("retrievePage: options.{name} ({v}) must not be negative")))
    };
    let selection = match (options.first_line, options.last_line, &options.search) {
        (_, _, Some(search)) => Selection::Search(string_arg(&env, search, "retrievePage: options.search")?),
        (Some(first), Some(last), None) => {
            Selection::Lines { first: count("firstLine", first)?, last: count("lastLine", last)? }
        }
        (None, None, None) => Selection::All,
        _ => return Err(type_error(&env, "retrievePage: options.firstLine and options.lastLine go together")),
    };
    let wanted = count("page", options.page.unwrap_or(1))?;
    let found = pages::retrieval(&units, &hash, threshold, &selection, wanted).map_err(|e| {
        // The too-small message begins with the field's own name.
        let field = if matches!(e, pages::PageError::ThresholdTooSmall { .. }) { "options." } else { "" };
        range_error(&env, &format!("retrievePage: {field}{e}"))
    })?;
    let (header, page) = (found.header, found.page);
    let small = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    Ok(Either::A(TextPage {
        header: Utf16String::from(header),
        text: Utf16String::from(page.text),
        first_line: small(page.first),
        last_line: small(page.last),
        total_lines: small(page.total_lines),
        page: small(page.page),
        pages: small(page.pages),
        matches: small(page.matches),
    }))
}

/// Throws the `RangeError` `retrievePage` would for `thresholdChars` too
/// small for a page of any retrieval, so the tool can refuse it at load.
#[napi(catch_unwind, ts_args_type = "thresholdChars: number")]
pub fn check_retrieval_threshold(env: Env, threshold_chars: f64) -> Result<()> {
    let threshold = threshold_arg(&env, threshold_chars, "thresholdChars")?;
    let needed = pages::min_threshold();
    if threshold < needed {
        return Err(range_error(&env, &pages::PageError::ThresholdTooSmall { threshold, needed }.to_string()));
    }
    Ok(())
}

/// A positive integer threshold (any size a double holds), else a `RangeError` naming `what`.
fn threshold_arg(env: &Env, value: f64, what: &str) -> Result<usize> {
    if value >= 1.0 && value.fract() == 0.0 {
        // Saturates past usize::MAX: no page is that long.
        return Ok(value as usize);
    }
    Err(range_error(env, &format!("{what} ({value}) must be a positive integer")))
}

/// Code points in `text`, counted as `Array.from(text).length` does.
#[napi(catch_unwind, ts_args_type = "text: string")]
pub fn code_point_length(env: Env, text: Unknown) -> Result<f64> {
    Ok(crate::text::code_point_len(&string_arg(&env, &text, "codePointLength: text")?) as f64)
}

/// The 24-hex-digit retrieval hash of `text`.
#[napi(catch_unwind, ts_args_type = "text: string")]
pub fn content_hash(env: Env, text: Unknown) -> Result<String> {
    Ok(hash::content_hash(&string_arg(&env, &text, "contentHash: text")?))
}

/// Retrieval markers in `text`, as this package writes them.
#[napi(catch_unwind, ts_args_type = "text: string")]
pub fn count_markers(env: Env, text: Unknown) -> Result<u32> {
    Ok(find_markers(&string_arg(&env, &text, "countMarkers: text")?).len() as u32)
}

/// The copy limit, for benchmarks: receives every text block's string as
/// UTF-16 exactly as the pruner does, and returns the total length. No
/// pruner can be faster than receiving its input.
#[napi(catch_unwind, ts_args_type = "blocks: ReadonlyArray<object>")]
pub fn receive_texts(env: Env, blocks: Unknown) -> Result<f64> {
    let read = JsBlocks::read(&env, &blocks, "receiveTexts: blocks")?;
    Ok(read.core().iter().map(|b| if let Block::Text(t) = b { t.len() as f64 } else { 0.0 }).sum())
}

/// Panics on purpose: the test suite checks that a Rust panic reaches JS as
/// an `Error` and the process goes on (every export catches panics).
#[napi(catch_unwind, js_name = "__testPanic")]
pub fn test_panic(message: String) -> Result<()> {
    panic!("{message}")
}
