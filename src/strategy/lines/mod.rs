//! The line plan under a hard budget (`strategy: 'lines'`): which lines of
//! a tool output to keep. This is the file to read for the order in which
//! lines are kept; [`budget`] decides what fits.
//!
//! Lines mode keeps at most `keep` code points (by default what head/tail
//! keeps, so switching strategy changes what is kept, not how much). The
//! budget is shared, not spent down one list:
//!
//! 1. **Protected ends.** The first line, and the last lines up to a share
//!    of the budget ([`END_SHARE`]): the verdict of a test run, a build or
//!    a CI job is at the end.
//! 2. **Failure detail**, while a share for the start ([`START_SHARE`]) is
//!    held back: lines a caller's spans touch; distinct failure lines, each
//!    with the lines that explain it (the block under it, the lines just
//!    above); clusters ranked last, first, then inwards; summaries, the
//!    closing ones first; stack traces by meaning (the first frame in the
//!    project's own code, the first and the last frame); failure lines
//!    repeating a template, spread over the output; weak failure words,
//!    capped at [`WEAK_SHARE`] and spread.
//! 3. **The start**, up to its share.
//! 4. **Context** around failures, then more of both ends, the end first.
//!
//! A line longer than a sixteenth of the budget (at least 256 code points),
//! or too long for what is left, is cut inside by the head:tail ratio with
//! a retrievable inline marker; a text with no line structure (fewer than
//! three lines) is one such cut. When not even one marker per text block
//! fits, the result is upstream's head/tail within the same budget.

mod budget;
pub mod doc;
pub mod outline;
pub mod render;

use std::collections::HashSet;
use std::ops::Range;

use crate::config::{Budgets, DEFAULT_CONTEXT_LINES, DEFAULT_EDGE_LINES};
use crate::content::{self, Block, Pruned};
use crate::signals::{self, Failure, Frame, LineSignal};
use crate::strategy::head_tail;
use crate::text::code_points_at_most;
use budget::Selection;
use doc::Doc;
use outline::Kind;
use render::{Fate, render_blocks};

/// Share of the budget kept for the last lines.
pub const END_SHARE: f64 = 0.25;
/// How many lines from the end the last verdict may be and still anchor
/// the end's share when no CI runner's verdict does (a CI runner prints its
/// cleanup after a job's verdict, which anchors the share wherever it is).
const VERDICT_REACH: usize = 200;
/// Share of the budget held back for the first lines while failures are chosen.
pub const START_SHARE: f64 = 0.08;
/// Most of the budget weak failure words may take.
pub const WEAK_SHARE: f64 = 0.125;
/// Most of the budget summary lines may take before failure lines.
pub const SUMMARY_SHARE: f64 = 0.15;
/// A line longer than this share of the budget (but at least 256 code
/// points) is cut when it is kept for its signal.
const LONG_LINE_SHARE: usize = 16;
/// Failure lines closer than this many lines belong to one cluster.
const CLUSTER_GAP: usize = 8;
/// How far context grows around failure lines when budget is left.
const WIDE_CONTEXT: usize = 12;
/// Lines of the block under a failure kept with it at most (as the scan reads them).
const CAUSE_LINES: usize = 16;
/// Cause lines kept right after their failure line; the rest come once
/// every distinct failure has its first ones.
const NEAREST_CAUSES: usize = 1;
/// Value lines (`Expected:`, `Received:`) kept right after their failure at most.
const VALUE_LINES: usize = 2;
/// Lines of each outline tier kept in order before the rest is spread.
const OUTLINE_HEAD: usize = 4;
/// Lines of a failure's key frames kept right after it.
const KEY_FRAME_LINES: usize = 4;

/// How lines mode widens what it keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineOptions {
    /// Neighbours kept on each side of every failure line.
    pub context: usize,
    /// Lines kept at least at the start and at the end.
    pub edge: usize,
}

impl Default for LineOptions {
    fn default() -> Self {
        LineOptions { context: DEFAULT_CONTEXT_LINES as usize, edge: DEFAULT_EDGE_LINES as usize }
    }
}

/// Why a line was kept, as `--explain` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A caller's span touches it.
    Span,
    /// A failure line.
    Failure,
    /// It explains a failure line (the block under it, the lines above).
    Cause,
    /// A summary line.
    Summary,
    /// A stack frame kept for its meaning.
    Frame,
    /// A failure line repeating a template already kept.
    Repeat,
    /// A weak failure word.
    Weak,
    /// Among the first lines.
    Start,
    /// Among the last lines.
    End,
    /// A neighbour of a failure line.
    Context,
    /// Budget was left.
    Fill,
    /// Part of the outline of a text that is not a log (a definition, a
    /// diff header, a file's first search hit, a shallow JSON key).
    Outline,
}

/// Lines mode over a block list, or `None` when the text is within the
/// threshold. When `Some`, the text is at most `keep` code points (so within
/// the threshold) and smaller than before, and `recoverable` undoes every
/// marker.
pub fn prune(blocks: &[Block<'_>], budgets: &Budgets, options: &LineOptions) -> Option<Pruned> {
    prune_with_spans(blocks, budgets, options, &[])
}

/// [`prune`] with caller keep-spans: code-unit ranges over the text blocks
/// taken together, in block order.
pub fn prune_with_spans(
    blocks: &[Block<'_>],
    budgets: &Budgets,
    options: &LineOptions,
    spans: &[Range<usize>],
) -> Option<Pruned> {
    plan_blocks(blocks, budgets, options, spans).0
}

/// [`prune_with_spans`], and the kind of each text block as the plan took
/// it (for a text within the threshold, as it would take it).
pub fn plan_blocks(
    blocks: &[Block<'_>],
    budgets: &Budgets,
    options: &LineOptions,
    spans: &[Range<usize>],
) -> (Option<Pruned>, Vec<Kind>) {
    // A long text is over the threshold without counting; the line pass
    // counts it.
    if code_points_at_most(content::texts(blocks), budgets.threshold()) {
        return (None, kinds(blocks));
    }
    let fallback = || (head_tail::prune(blocks, &budgets.head_tail_within_keep()), kinds(blocks));
    let Some(doc) = Doc::new(blocks) else { return fallback() };
    let Some(plan) = select(&doc, budgets, options, spans) else {
        // Not even one marker per text fits: upstream's cut, which always does.
        return fallback();
    };
    let pruned = render_blocks(blocks, &doc, &plan.fates);
    let guaranteed = pruned.chars_after <= budgets.keep() && pruned.chars_after < doc.total();
    debug_assert!(guaranteed, "selection kept its budget: {} <= {}", pruned.chars_after, budgets.keep());
    if guaranteed { (Some(pruned), plan.kinds) } else { fallback() }
}

/// The kind of each text block of `blocks` (see [`outline`]), in order.
pub fn kinds(blocks: &[Block<'_>]) -> Vec<Kind> {
    let Some(doc) = Doc::new(blocks) else { return Vec::new() };
    let signals = scan(&doc);
    (0..doc.texts.len()).map(|t| detect_kind(&doc, t, &signals)).collect()
}

/// The kind of text `t` of `doc`, whose lines' signals are among `signals`.
fn detect_kind(doc: &Doc<'_>, t: usize, signals: &[LineSignal]) -> Kind {
    let bounds = doc.bounds[t].clone();
    let start = bounds.start;
    outline::detect(doc.texts[t].1, bounds.len(), |k| doc.range(start + k), &signals[bounds])
}

/// One line of an explained plan: what the line carries and what became of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Explained {
    /// What the signal scan read in the line.
    pub signal: LineSignal,
    /// Whether it was kept, cut or dropped.
    pub fate: Fate,
    /// Why it was kept (`None` when dropped).
    pub reason: Option<Reason>,
    /// A failure or summary line whose template an earlier line already has.
    pub flood: bool,
    /// The kind of the text the line is in.
    pub kind: Kind,
}

/// What lines mode reads in each line of `text` and what it does with it;
/// `None` when the text is within the threshold or gets upstream's cut.
pub fn explain(text: &[u16], budgets: &Budgets, options: &LineOptions) -> Option<Vec<Explained>> {
    let blocks = [Block::Text(text)];
    if code_points_at_most(content::texts(&blocks), budgets.threshold()) {
        return None;
    }
    let doc = Doc::new(&blocks)?;
    let plan = select(&doc, budgets, options, &[])?;
    let mut seen = HashSet::new();
    Some(
        (0..doc.line_count())
            .map(|k| {
                let signal = plan.signals[k];
                let flood = signal.template != 0 && !seen.insert(signal.template);
                let kind = plan.kinds[doc.text_of(k)];
                Explained { signal, fate: plan.fates[k], reason: plan.why[k], flood, kind }
            })
            .collect(),
    )
}

/// A chosen plan: every line's fate, why kept lines were kept, and the
/// signals it was chosen from.
struct Plan {
    fates: Vec<Fate>,
    why: Vec<Option<Reason>>,
    signals: Vec<LineSignal>,
    /// Each text's kind.
    kinds: Vec<Kind>,
    /// Lines offered to the selection: the planner's work.
    #[cfg_attr(not(test), allow(dead_code))]
    attempts: usize,
}

/// Chooses the lines of `doc` to keep within `budgets.keep()`, or `None`
/// when not even one marker per text fits.
fn select(doc: &Doc<'_>, budgets: &Budgets, options: &LineOptions, spans: &[Range<usize>]) -> Option<Plan> {
    let budget = usize::try_from(budgets.keep()).unwrap_or(usize::MAX);
    let mut sel = Selection::new(doc, budget, (budgets.head(), budgets.tail()))?;
    let n = doc.line_count();
    // Wider than the text means the whole text; clamping keeps loops short.
    let options = LineOptions { context: options.context.min(n), edge: options.edge.min(n) };
    let cap = if n < 3 { budget } else { (budget / LONG_LINE_SHARE).max(256) };
    let share = |s: f64| (budget as f64 * s) as usize;
    let signals = scan(doc);
    let kinds: Vec<Kind> = (0..doc.texts.len()).map(|t| detect_kind(doc, t, &signals)).collect();
    if kinds.iter().all(|&k| k != Kind::Log) {
        return Some(select_outline(doc, sel, budgets, &options, spans, signals, kinds, cap));
    }
    // Output with no verdict in it (a listing, a search, a diff) is kept as
    // head/tail would keep it: its ends in the configured ratio.
    let verdicts = signals.iter().any(|s| s.failure == Failure::Strong || s.summary);
    let (head_w, tail_w) = (budgets.head().max(1), budgets.tail().max(1));
    let end_share = if verdicts { END_SHARE } else { tail_w as f64 / (head_w + tail_w) as f64 };
    let ends_ratio = if verdicts { (1, 2) } else { (head_w.div_ceil(tail_w).min(8) as usize, 1) };

    // 1. The first line, the last lines, and the verdict region up to the
    // end's share: the lines up to the last verdict (a failure or summary
    // line), which trailing chatter (a CI runner's cleanup) may follow.
    sel.reason = Reason::Start;
    sel.add(0, cap.max(share(0.125)));
    sel.reason = Reason::End;
    let end_start = sel.cost();
    for k in (0..n).rev().take(options.edge) {
        sel.add(k, cap);
    }
    let last_verdict = (0..n).rev().find(|&k| signals[k].job_verdict).or_else(|| {
        (0..n).rev().take(VERDICT_REACH).find(|&k| signals[k].failure == Failure::Strong || signals[k].summary)
    });
    let region_end = last_verdict.map_or(n, |v| v + 1);
    let end_target = end_start + share(end_share);
    for k in (0..region_end).rev() {
        if sel.cost() >= end_target || (!sel.add(k, cap) && !sel.is_kept(k)) {
            break;
        }
    }

    // 2. Failure detail, holding back the start's share.
    sel.set_limit(budget.saturating_sub(share(START_SHARE)));
    sel.reason = Reason::Span;
    let touched = touched_global(doc, spans);
    for &k in &touched {
        sel.add(k, cap);
    }
    // Summaries that count failures first: few, short, the verdict in numbers.
    sel.reason = Reason::Summary;
    let failure_limit = budget.saturating_sub(share(START_SHARE));
    sel.set_limit((sel.cost() + share(SUMMARY_SHARE)).min(failure_limit));
    let mut seen = HashSet::new();
    for k in (0..n).rev() {
        if signals[k].failing_summary && signals[k].failure == Failure::None && seen.insert(signals[k].template) {
            sel.add(k, cap);
        }
    }
    sel.set_limit(failure_limit);
    let ranked = rank_failures(doc, &signals);
    // Each distinct failure with its nearest causes and its trace's key frames...
    for &k in &ranked.distinct {
        sel.reason = Reason::Failure;
        if sel.add(k, cap) || sel.is_kept(k) {
            sel.reason = Reason::Cause;
            for c in nearest_causes(doc, &signals, k) {
                sel.add(c, cap);
            }
            sel.reason = Reason::Frame;
            if let Some(trace) = attached_trace(&signals, k) {
                for f in frames_by_meaning(&signals, trace).into_iter().take(KEY_FRAME_LINES) {
                    sel.add(f, cap);
                }
            }
        }
    }
    // Other summaries, the closing ones first.
    sel.reason = Reason::Summary;
    for k in (0..n).rev() {
        if signals[k].summary && signals[k].failure == Failure::None && seen.insert(signals[k].template) {
            sel.add(k, cap);
        }
    }
    // ...then the rest of what explains the failures.
    let kept_failures: Vec<usize> = ranked.distinct.iter().copied().filter(|&k| sel.is_kept(k)).collect();
    for k in kept_failures {
        sel.reason = Reason::Cause;
        for c in causes(&signals, k) {
            sel.add(c, cap);
        }
        sel.reason = Reason::Frame;
        if let Some(trace) = attached_trace(&signals, k) {
            for f in frames_by_meaning(&signals, trace) {
                sel.add(f, cap);
            }
        }
    }
    // Weak failure words right next to a kept failure line read as part of it.
    sel.reason = Reason::Weak;
    for k in 0..n {
        let near_failure = |j: usize| j < n && signals[j].failure == Failure::Strong && sel.is_kept(j);
        if signals[k].failure == Failure::Weak && (near_failure(k + 1) || k.checked_sub(1).is_some_and(near_failure)) {
            sel.add(k, cap);
        }
    }
    sel.reason = Reason::Repeat;
    for &k in &ranked.repeats {
        sel.add(k, cap);
    }
    sel.reason = Reason::Frame;
    for trace in traces(&signals) {
        for f in frames_by_meaning(&signals, trace) {
            sel.add(f, cap);
        }
    }
    sel.reason = Reason::Weak;
    let weak_limit = sel.cost() + share(WEAK_SHARE);
    sel.set_limit(weak_limit.min(budget.saturating_sub(share(START_SHARE))));
    for k in spread(&(0..n).filter(|&k| signals[k].failure == Failure::Weak).collect::<Vec<_>>()) {
        sel.add(k, cap);
    }
    sel.set_limit(budget);

    // 3. The start, up to its share.
    sel.reason = Reason::Start;
    let start_target = sel.cost() + share(START_SHARE);
    for k in 1..n {
        if sel.cost() >= start_target || sel.full() {
            break;
        }
        sel.add(k, cap);
    }

    // 4. Context around failures, nearer first; then more of both ends.
    sel.reason = Reason::Context;
    let anchors: Vec<usize> = (0..n)
        .filter(|&k| {
            sel.is_kept(k) && (signals[k].failure > Failure::None || signals[k].summary || touched.contains(&k))
        })
        .collect();
    // Each anchor grows on each side until a line there is refused or its
    // text ends, so the work is bounded by what fits, not by contextLines.
    let mut open: Vec<(usize, bool, bool)> = anchors.iter().map(|&k| (k, true, true)).collect();
    for d in 1..=WIDE_CONTEXT.max(options.context) {
        if sel.full() || open.is_empty() {
            break;
        }
        for (k, up, down) in &mut open {
            let text = doc.bounds[doc.text_of(*k)].clone();
            *up = *up && *k >= text.start + d && (sel.is_kept(*k - d) || sel.add(*k - d, cap));
            *down = *down && *k + d < text.end && (sel.is_kept(*k + d) || sel.add(*k + d, cap));
        }
        open.retain(|&(_, up, down)| up || down);
        if d == options.context {
            // The configured context first; wider only after the ends below have grown.
            sel.reason = Reason::Fill;
            grow_ends(&mut sel, n, cap, ends_ratio);
            sel.reason = Reason::Context;
        }
    }
    sel.reason = Reason::Fill;
    grow_ends(&mut sel, n, cap, ends_ratio);
    Some(Plan { fates: sel.fates, why: sel.why, signals, kinds, attempts: sel.attempts })
}

/// The plan of texts that all have an outline (see [`outline`]): the first
/// and last lines, the caller's spans, then each tier of every text in
/// turn, each spread over its text, then both ends in the head:tail ratio.
#[allow(clippy::too_many_arguments)]
fn select_outline(
    doc: &Doc<'_>,
    mut sel: Selection<'_, '_>,
    budgets: &Budgets,
    options: &LineOptions,
    spans: &[Range<usize>],
    signals: Vec<LineSignal>,
    kinds: Vec<Kind>,
    cap: usize,
) -> Plan {
    let n = doc.line_count();
    sel.reason = Reason::Start;
    sel.add(0, cap);
    sel.reason = Reason::End;
    for k in (0..n).rev().take(options.edge) {
        sel.add(k, cap);
    }
    sel.reason = Reason::Span;
    for k in touched_global(doc, spans) {
        sel.add(k, cap);
    }
    let tiers: Vec<Vec<Vec<usize>>> = (0..doc.texts.len())
        .map(|t| {
            let start = doc.bounds[t].start;
            outline::tiers(kinds[t], doc.texts[t].1, &doc.ranges(t))
                .into_iter()
                .map(|tier| tier.into_iter().map(|k| start + k).collect())
                .collect()
        })
        .collect();
    sel.reason = Reason::Outline;
    for level in 0..tiers.iter().map(Vec::len).max().unwrap_or(0) {
        for text in &tiers {
            // The first few in order (the top of a file, the newest commit), then spread.
            let tier = text.get(level).map_or(&[][..], Vec::as_slice);
            let first = tier.len().min(OUTLINE_HEAD);
            for &k in tier[..first].iter().chain(spread(&tier[first..]).iter()) {
                if sel.full() {
                    break;
                }
                sel.add(k, cap);
            }
        }
    }
    sel.reason = Reason::Fill;
    let (head_w, tail_w) = (budgets.head().max(1), budgets.tail().max(1));
    grow_ends(&mut sel, n, cap, (head_w.div_ceil(tail_w).min(8) as usize, 1));
    Plan { fates: sel.fates, why: sel.why, signals, kinds, attempts: sel.attempts }
}

/// Adds lines from both ends inward, `front` from the start for each `back`
/// from the end, until one from each side has been refused.
fn grow_ends(sel: &mut Selection<'_, '_>, n: usize, cap: usize, (front, back): (usize, usize)) {
    // Cursors, not lists: each side walks past kept lines as it meets them.
    let (mut next_front, mut next_back) = (0, n);
    let (mut back_open, mut front_open) = (true, true);
    while (back_open || front_open) && !sel.full() {
        for _ in 0..back {
            if back_open {
                while next_back > 0 && sel.is_kept(next_back - 1) {
                    next_back -= 1;
                }
                back_open = next_back > 0 && sel.add(next_back - 1, cap);
            }
        }
        for _ in 0..front {
            if front_open {
                while next_front < n && sel.is_kept(next_front) {
                    next_front += 1;
                }
                front_open = next_front < n && sel.add(next_front, cap);
            }
        }
    }
}

/// Every line's signal, text by text.
fn scan(doc: &Doc<'_>) -> Vec<LineSignal> {
    let mut out = Vec::with_capacity(doc.line_count());
    for (t, (_, text)) in doc.texts.iter().enumerate() {
        out.extend(signals::scan(text, &doc.ranges(t)));
    }
    out
}

/// The cause lines of failure line `k` kept right after it: those stating
/// the values it compared (`Expected:`, `Received:`), else the first
/// [`NEAREST_CAUSES`] that are not blank.
fn nearest_causes(doc: &Doc<'_>, signals: &[LineSignal], k: usize) -> Vec<usize> {
    let all = causes(signals, k);
    let values: Vec<usize> = all.iter().copied().filter(|&c| signals[c].states_value).take(VALUE_LINES).collect();
    if !values.is_empty() {
        return values;
    }
    all.into_iter().filter(|&c| !signals::is_blank(doc.line(c))).take(NEAREST_CAUSES).collect()
}

/// The cause lines of failure line `k`: the block under it (with the blank
/// lines inside it), then the lines just above it.
fn causes(signals: &[LineSignal], k: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut pending = Vec::new();
    let below = signals.iter().enumerate().take(k + 2 + 2 * CAUSE_LINES).skip(k + 1);
    for (j, s) in below {
        if s.cause {
            out.append(&mut pending);
            out.push(j);
        } else if s.failure == Failure::None && !s.summary && s.frame == Frame::None && pending.len() < 2 {
            // Perhaps a blank line inside the block: kept only if more of it follows.
            pending.push(j);
        } else {
            break;
        }
    }
    // The line just above (a title, a command) right after the first line below.
    let above: Vec<usize> = (0..k).rev().take_while(|&j| signals[j].cause).collect();
    let split = out.len().min(1);
    let mut ordered: Vec<usize> = out[..split].to_vec();
    ordered.extend(above.first());
    ordered.extend(&out[split..]);
    ordered.extend(above.iter().skip(1));
    ordered
}

/// The stack trace of failure line `k`: the one under it and its cause
/// lines, else the compiler context right above it.
fn attached_trace(signals: &[LineSignal], k: usize) -> Option<Range<usize>> {
    below_trace(signals, k).or_else(|| {
        // A compiler's context, printed above its diagnostic.
        let end = k;
        let start = (0..end).rev().take_while(|&j| signals[j].frame != Frame::None).last()?;
        Some(start..end)
    })
}

/// The trace under failure line `k`, past its cause block.
fn below_trace(signals: &[LineSignal], k: usize) -> Option<Range<usize>> {
    let mut j = k + 1;
    while j < signals.len() && j < k + 3 + 2 * CAUSE_LINES && signals[j].frame == Frame::None {
        if signals[j].failure != Failure::None || signals[j].summary {
            return None;
        }
        j += 1;
    }
    let start = j;
    while j < signals.len() && signals[j].frame != Frame::None {
        j += 1;
    }
    (j > start).then_some(start..j)
}

/// Every stack trace: the maximal runs of frame lines.
fn traces(signals: &[LineSignal]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < signals.len() {
        if signals[k].frame == Frame::None {
            k += 1;
            continue;
        }
        let start = k;
        while k < signals.len() && signals[k].frame != Frame::None {
            k += 1;
        }
        out.push(start..k);
    }
    out
}

/// Global indices of the lines touched by `spans` over the joined texts.
fn touched_global(doc: &Doc<'_>, spans: &[Range<usize>]) -> HashSet<usize> {
    let mut touched = HashSet::new();
    if spans.is_empty() {
        return touched;
    }
    let mut offset = 0;
    for (t, (_, text)) in doc.texts.iter().enumerate() {
        for (k, r) in doc.bounds[t].clone().zip(doc.ranges(t)) {
            let line = offset + r.start..offset + r.end;
            if spans.iter().any(|s| s.start < s.end && s.start < line.end && line.start < s.end) {
                touched.insert(k);
            }
        }
        offset += text.len();
    }
    touched
}

/// Strong failure lines in the order they are kept.
struct Ranked {
    /// The first line of each template, ranked.
    distinct: Vec<usize>,
    /// The other lines of those templates, spread over the output.
    repeats: Vec<usize>,
}

/// Ranks the strong failure lines. The first line of each template is
/// distinct (a flood of one message counts once, by its first instance);
/// distinct lines are kept cluster by cluster (nearby lines of one text):
/// the last cluster (where reports and verdicts are), the first (where a
/// root cause often is), then inwards from both ends; within a cluster its
/// first and last line, then inwards. The other lines of each
/// template are repeats, spread over the output.
fn rank_failures(doc: &Doc<'_>, signals: &[LineSignal]) -> Ranked {
    let mut seen = HashSet::new();
    let (mut distinct, mut repeats) = (Vec::new(), Vec::new());
    for k in (0..signals.len()).filter(|&k| signals[k].failure == Failure::Strong) {
        if seen.insert(signals[k].template) { distinct.push(k) } else { repeats.push(k) }
    }
    let mut clusters: Vec<Vec<usize>> = Vec::new();
    for &k in &distinct {
        match clusters.last_mut() {
            Some(c) if k - c[c.len() - 1] <= CLUSTER_GAP && doc.text_of(k) == doc.text_of(c[0]) => c.push(k),
            _ => clusters.push(vec![k]),
        }
    }
    let mut order = Vec::with_capacity(distinct.len());
    for c in ends_inward(&clusters) {
        order.extend(first_last_then_in(c));
    }
    Ranked { distinct: order, repeats: spread(&repeats) }
}

/// The items of `xs` from both ends inward: last, first, second to last,
/// second, and so on.
fn ends_inward<T>(xs: &[T]) -> Vec<&T> {
    let mut out = Vec::with_capacity(xs.len());
    let (mut i, mut j) = (0, xs.len());
    while i < j {
        j -= 1;
        out.push(&xs[j]);
        if i < j {
            out.push(&xs[i]);
            i += 1;
        }
    }
    out
}

/// The items of `xs` from both ends inward: first, last, second, second
/// to last, and so on.
fn first_last_then_in(xs: &[usize]) -> Vec<usize> {
    let mut out = Vec::with_capacity(xs.len());
    let (mut i, mut j) = (0, xs.len());
    while i < j {
        out.push(xs[i]);
        i += 1;
        if i < j {
            j -= 1;
            out.push(xs[j]);
        }
    }
    out
}

/// `xs` (ascending) reordered so any prefix is spread over the whole range:
/// the first and last, then the middle, then the quarters, and so on.
fn spread(xs: &[usize]) -> Vec<usize> {
    if xs.len() <= 2 {
        return xs.to_vec();
    }
    let mut out = vec![xs[0], xs[xs.len() - 1]];
    let mut queue = std::collections::VecDeque::from([(0usize, xs.len() - 1)]);
    while let Some((a, b)) = queue.pop_front() {
        if b - a < 2 {
            continue;
        }
        let m = (a + b) / 2;
        out.push(xs[m]);
        queue.push_back((a, m));
        queue.push_back((m, b));
    }
    out
}

/// The frames of `trace` worth keeping, by meaning: the first frame in the
/// project's own code and the last one, and the first and the last frame,
/// each with its detail lines; the repeated middles are left to markers.
fn frames_by_meaning(signals: &[LineSignal], trace: Range<usize>) -> Vec<usize> {
    let heads: Vec<usize> = trace.clone().filter(|&j| signals[j].frame_head || j == trace.start).collect();
    let units: Vec<Range<usize>> =
        heads.iter().enumerate().map(|(i, &h)| h..heads.get(i + 1).copied().unwrap_or(trace.end)).collect();
    let project: Vec<&Range<usize>> = units.iter().filter(|u| signals[u.start].frame == Frame::Project).collect();
    let mut chosen: Vec<&Range<usize>> = Vec::new();
    for unit in [project.first().copied(), units.first(), units.last(), project.last().copied()].into_iter().flatten() {
        if !chosen.contains(&unit) {
            chosen.push(unit);
        }
    }
    chosen.into_iter().flat_map(|u| u.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Piece, render_texts};
    use crate::markers::expand;
    use crate::text::utf16;
    use proptest::prelude::*;

    fn budgets(threshold: u64) -> Budgets {
        Budgets::new(threshold, 0, 0).and_then(|b| b.with_keep(threshold)).unwrap()
    }

    fn out(blocks: &[Block<'_>], p: &Pruned) -> String {
        render_texts(blocks, p).map(String::from_utf16_lossy).collect::<Vec<_>>().concat()
    }

    fn log_with_failure_in_the_middle() -> String {
        let mut log = String::from("$ cargo test\n");
        for i in 0..400 {
            log.push_str(&format!("test module::case_{i} ... ok\n"));
        }
        log.push_str("thread 'module::case_400' panicked at src/lib.rs:12:5:\nassertion failed: left == right\n");
        for i in 401..800 {
            log.push_str(&format!("test module::case_{i} ... ok\n"));
        }
        log.push_str(
            "test result: FAILED. 799 passed; 1 failed; 0 ignored\nerror: test failed, to rerun pass `--lib`\n",
        );
        log
    }

    #[test]
    fn keeps_the_failure_in_the_middle_within_budget() {
        let text = utf16(&log_with_failure_in_the_middle());
        let blocks = [Block::Text(&text)];
        let p = prune(&blocks, &budgets(2048), &LineOptions::default()).unwrap();
        let o = out(&blocks, &p);
        assert!(p.chars_after <= 2048 && (o.chars().count() as u64) == p.chars_after);
        for needle in [
            "panicked at src/lib.rs:12:5",
            "assertion failed",
            "test result: FAILED",
            "error: test failed",
            "$ cargo test",
        ] {
            assert!(o.contains(needle), "{needle} missing from\n{o}");
        }
        assert!(o.contains("_lines_offloaded>>"));
        assert_eq!(expand(&utf16(&o), &p.recovered(&blocks)), text);
    }

    #[test]
    fn a_failure_keeps_the_values_it_compared_before_other_causes() {
        // Distinct failures: names of different word counts are different shapes.
        let name =
            |i: usize| (0..=i).map(|w| char::from(b'a' + w as u8).to_string().repeat(3)).collect::<Vec<_>>().join(" ");
        let mut log = String::new();
        for i in 0..20 {
            log.push_str(&"PASS test/ok.test.js (12 ms)\n".repeat(30));
            log.push_str(&format!(
                "  \u{25CF} {}\n\n    expect(received).toBe(expected) // Object.is equality\n\n",
                name(i)
            ));
            log.push_str(&format!(
                "    Expected: {i}\n    Received: {}\n\n      at Object.<anonymous> (test/add.test.js:{i}:5)\n",
                i + 1
            ));
        }
        let text = utf16(&log);
        let blocks = [Block::Text(&text)];
        let p = prune(&blocks, &budgets(3000), &LineOptions::default()).unwrap();
        let o = out(&blocks, &p);
        let kept: Vec<usize> = (0..20).filter(|&i| o.contains(&format!("\u{25CF} {}\n", name(i)))).collect();
        // Not every failure fits, and each that does has its two value lines.
        assert!(kept.len() > 1 && kept.len() < 20, "{} kept", kept.len());
        for i in kept {
            assert!(o.contains(&format!("    Expected: {i}\n    Received: {}\n", i + 1)), "case {i}:\n{o}");
        }
    }

    #[test]
    fn context_work_is_bounded_by_the_budget_not_by_context_lines() {
        // 20,000 lines, a distinct error every tenth between long lines, and
        // a context wider than the text: at most budgets the room left ends
        // between a cut's minimum and a whole line, where nothing more fits.
        let text: String = (0..20_000)
            .map(|i| {
                if i % 10 == 0 {
                    format!("error: failure number {} here\n", "x".repeat(i % 97))
                } else {
                    format!("{i} {}\n", "y".repeat(150))
                }
            })
            .collect();
        let t = utf16(&text);
        let blocks = [Block::Text(&t)];
        let doc = Doc::new(&blocks).unwrap();
        let wide = LineOptions { context: 1_000_000, edge: 2 };
        for budget in (4000..4200).step_by(7) {
            let plan = select(&doc, &budgets(budget), &wide, &[]).unwrap();
            assert!(
                plan.attempts < 4 * doc.line_count(),
                "{budget}: {} lines offered for {}",
                plan.attempts,
                doc.line_count()
            );
        }
    }

    #[test]
    fn outlines_keep_every_guarantee_and_put_the_map_first() {
        let code: String =
            (0..300).map(|i| format!("/// Does {i}.\npub fn f{i}(x: u32) -> u32 {{\n    x + {i}\n}}\n\n")).collect();
        let diff: String = (0..60)
            .map(|i| format!("diff --git a/f{i}.rs b/f{i}.rs\n--- a/f{i}.rs\n+++ b/f{i}.rs\n@@ -{i},3 +{i},3 @@\n fn a() {{}}\n-fn b{i}() {{}}\n+fn c{i}() {{}}\n"))
            .collect();
        let search: String = (0..400).map(|i| format!("src/m{}.rs:{}:    let x = y{i};\n", i / 7, i % 7 + 1)).collect();
        let json = format!(
            "{{\n{}  \"end\": 1\n}}\n",
            (0..300).map(|i| format!("  \"k{i}\": {{\n    \"v\": [\n      {i}\n    ]\n  }},\n")).collect::<String>()
        );
        // (text, its kind, entries in its map, the text of entry i)
        type Case = (String, Kind, usize, fn(usize) -> String);
        let cases: [Case; 4] = [
            (code, Kind::Code, 300, |i| format!("pub fn f{i}(")),
            (diff, Kind::Diff, 60, |i| format!("diff --git a/f{i}.rs")),
            (search, Kind::Search, 57, |i| format!("src/m{i}.rs:1:")),
            (json, Kind::Json, 300, |i| format!("\"k{i}\": {{")),
        ];
        for (text, kind, n, entry) in cases {
            let t = utf16(&text);
            let blocks = [Block::Text(&t)];
            assert_eq!(kinds(&blocks), vec![kind]);
            for keep in [600, 2000, 6000] {
                let b = Budgets::new(keep, 0, 0).and_then(|b| b.with_keep(keep)).unwrap();
                crate::guarantees::check_lines(&blocks, &b, &LineOptions::default()).unwrap();
            }
            // A budget that holds a third of the text keeps map entries from
            // the middle third too, not only from the start.
            let third = (text.chars().count() / 3) as u64;
            let b = Budgets::new(third, 0, 0).and_then(|b| b.with_keep(third)).unwrap();
            let o = out(&blocks, &prune(&blocks, &b, &LineOptions::default()).unwrap());
            assert!((n / 3..2 * n / 3).any(|i| o.contains(&entry(i))), "{kind:?}:\n{o}");
        }
    }

    #[test]
    fn one_huge_line_is_cut_by_head_and_tail_and_retrievable() {
        let text = utf16(&format!("{{\"a\":\"{}\"}}", "x".repeat(50_000)));
        let blocks = [Block::Text(&text)];
        let b = Budgets::new(8192, 4096, 1024).and_then(|b| b.with_keep(8192)).unwrap();
        let p = prune(&blocks, &b, &LineOptions::default()).unwrap();
        let o = out(&blocks, &p);
        assert!(p.chars_after <= 8192 && p.chars_after > 8000, "{}", p.chars_after);
        assert!(o.starts_with("{\"a\":\"xxx") && o.ends_with("xx\"}") && o.contains("_chars_offloaded>>"));
        assert_eq!(expand(&utf16(&o), &p.recovered(&blocks)), text);
    }

    #[test]
    fn falls_back_to_upstream_when_markers_cannot_fit() {
        let text = utf16(&"line\n".repeat(100));
        let blocks = [Block::Text(&text)];
        let b = Budgets::new(40, 0, 1).unwrap();
        let p = prune(&blocks, &b, &LineOptions::default()).unwrap();
        assert_eq!(out(&blocks, &p), format!("{}\n", crate::config::PRUNE_MARKER));
    }

    #[test]
    fn rich_blocks_stay_in_place_and_each_text_is_planned() {
        let a = utf16(&log_with_failure_in_the_middle());
        let b = utf16(&"plain line without signal\n".repeat(300));
        let blocks = [Block::Text(&a), Block::Rich, Block::Text(&b)];
        let p = prune(&blocks, &budgets(4096), &LineOptions::default()).unwrap();
        assert!(matches!(p.pieces[1], Piece::Rich(1)));
        assert_eq!(p.pieces.len(), 3);
        assert!(p.chars_after <= 4096);
        let texts: Vec<Vec<u16>> = render_texts(&blocks, &p).map(<[u16]>::to_vec).collect();
        assert_eq!(expand(&texts[0], &p.recovered(&blocks)), a);
        assert_eq!(expand(&texts[1], &p.recovered(&blocks)), b);
    }

    fn arb_log() -> impl Strategy<Value = Vec<u16>> {
        let line = prop_oneof![
            6 => "[a-z ]{0,60}",
            1 => "error: [a-z ]{0,30}",
            1 => "FAILED [a-z_/]{0,40}",
            1 => "  at [a-z.]{0,20} \\([a-z/.]{1,20}:[0-9]{1,3}:[0-9]{1,2}\\)",
            1 => "Traceback \\(most recent call last\\):",
            1 => "[0-9]{1,3} passed, [0-9] failed",
            1 => "x{200,3000}",
            1 => "[\u{4e00}-\u{4e20}😀]{0,40}",
        ];
        (prop::collection::vec(line, 0..200), any::<bool>(), prop::collection::vec(0xD800u16..0xE000, 0..3)).prop_map(
            |(lines, trailing_newline, lone)| {
                let mut text = lines.join("\n");
                if trailing_newline {
                    text.push('\n');
                }
                let mut units = utf16(&text);
                for (i, u) in lone.into_iter().enumerate() {
                    let at = (i * 7919) % (units.len() + 1);
                    units.insert(at, u);
                }
                units
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]
        #[test]
        fn budget_and_round_trip_hold(
            text in arb_log(),
            extra in prop::option::of(arb_log()),
            threshold in 40u64..6000,
            keep_at in 0u64..=100,
            head in 0u64..4,
            context in 0usize..4,
            edge in 0usize..4,
        ) {
            let keep = 39 + (threshold - 39) * keep_at / 100;
            let b = Budgets::new(threshold, head.min(threshold - 39), 0).and_then(|b| b.with_keep(keep)).unwrap();
            let mut blocks = vec![Block::Text(&text)];
            if let Some(extra) = extra.as_deref() {
                blocks.push(Block::Rich);
                blocks.push(Block::Text(extra));
            }
            crate::guarantees::check_lines(&blocks, &b, &LineOptions { context, edge }).map_err(TestCaseError::fail)?;
        }
    }
}
