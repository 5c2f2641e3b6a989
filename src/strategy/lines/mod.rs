//! Lines mode (`strategy: 'lines'`): which lines of a tool output to keep
//! under a hard budget, and the contract every plan keeps.
//!
//! Lines mode keeps at most `keep` code points (by default what head/tail
//! keeps, so switching strategy changes what is kept, not how much). Each
//! text block is first given a [`Kind`] ([`kind`]); a log is planned by
//! the failure rules ([`log_plan`]), every other kind by its outline
//! ([`outline_plan`]). Either way lines are added to a [`keep`] set that
//! tracks the exact rendered size, and [`render`] writes kept lines byte
//! for byte and one retrievable marker per dropped run.
//!
//! A line longer than a sixteenth of the budget (at least 256 code points),
//! or too long for what is left, is cut inside by the head:tail ratio with
//! a retrievable inline marker; a text with no line structure (fewer than
//! three lines) is one such cut. When not even one marker per text block
//! fits, the result is upstream's head/tail within the same budget.
//!
//! Cost: one pass over the text for the line index and the keyword scan,
//! then work bounded by the lines that carry a signal (or, for outlines,
//! one bounded step per line); memory a few bytes per line. A text within
//! the threshold costs what head/tail costs: it is not read at all.

pub mod index;
mod keep;
pub mod kind;
mod lineset;
mod log_plan;
pub mod order;
pub mod outline;
mod outline_plan;
pub mod render;
#[cfg(test)]
mod work_tests;

use std::collections::HashSet;
use std::ops::Range;

use crate::config::{Budgets, DEFAULT_CONTEXT_LINES, DEFAULT_EDGE_LINES};
use crate::content::{self, Block, Pruned};
use crate::signals::{LineSignal, Signals, Traces};
use crate::strategy::head_tail;
use crate::text::code_points_at_most;
use index::LineIndex;
use keep::KeepSet;
pub use keep::Kept;
pub use kind::Kind;
use kind::Shape;
pub use log_plan::{END_SHARE, START_SHARE, SUMMARY_SHARE, WEAK_SHARE};
use render::{Fate, render_blocks};

/// A line longer than this share of the budget (but at least 256 code
/// points) is cut when it is kept for its signal.
const LONG_LINE_SHARE: usize = 16;

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
    if code_points_at_most(content::texts(blocks), budgets.threshold()) {
        return None;
    }
    planned(blocks, budgets, options, spans).0
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
    planned(blocks, budgets, options, spans)
}

/// The plan of text over the threshold, and its kinds.
fn planned(
    blocks: &[Block<'_>],
    budgets: &Budgets,
    options: &LineOptions,
    spans: &[Range<usize>],
) -> (Option<Pruned>, Vec<Kind>) {
    let fallback = || (head_tail::prune(blocks, &budgets.head_tail_within_keep()), kinds(blocks));
    let Some(index) = LineIndex::new(blocks) else { return fallback() };
    let Some(plan) = select(&index, budgets, options, spans, false) else {
        // Not even one marker per text fits: upstream's cut, which always does.
        return fallback();
    };
    let pruned = render_blocks(blocks, &index, &plan.kept);
    let guaranteed = pruned.chars_after <= budgets.keep() && pruned.chars_after < index.total();
    debug_assert!(guaranteed, "selection kept its budget: {} <= {}", pruned.chars_after, budgets.keep());
    if guaranteed { (Some(pruned), plan.kinds) } else { fallback() }
}

/// The kind of each text block of `blocks` (see [`kind`]), in order.
pub fn kinds(blocks: &[Block<'_>]) -> Vec<Kind> {
    let Some(index) = LineIndex::new(blocks) else { return Vec::new() };
    let shapes: Vec<Shape> = (0..index.texts.len()).map(|t| kind::shape(index.lines_of(t))).collect();
    let mut signals = Signals::default();
    (0..index.texts.len())
        .map(|t| match shapes[t] {
            Shape::Is(k) => k,
            Shape::CodeUnlessItReports => {
                signals.scan(index.lines_of(t), index.bounds[t].start);
                if kind::reports(&signals, index.bounds[t].clone()) { Kind::Log } else { Kind::Code }
            }
        })
        .collect()
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
    let index = LineIndex::new(&blocks)?;
    let plan = select(&index, budgets, options, &[], true)?;
    let reasons = plan.reasons.as_deref().unwrap_or(&[]);
    let mut seen = HashSet::new();
    Some(
        (0..index.line_count())
            .map(|k| {
                let signal = plan.signals.get(k);
                let flood = signal.template != 0 && !seen.insert(signal.template);
                let kind = plan.kinds[index.text_of(k)];
                let reason = reasons.get(k).copied().flatten();
                Explained { signal, fate: plan.kept.fate(k), reason, flood, kind }
            })
            .collect(),
    )
}

/// A chosen plan: the kept lines, why they were kept (when explaining),
/// and the signals they were chosen from.
struct Plan {
    kept: Kept,
    reasons: Option<Vec<Option<Reason>>>,
    signals: Signals,
    /// Each text's kind.
    kinds: Vec<Kind>,
    /// What the plan cost, counted.
    #[cfg_attr(not(test), allow(dead_code))]
    cost: PlanCost,
}

/// The work of one plan, counted where it could grow faster than the text:
/// the scan's rule passes, comparisons and trace steps, the lines offered
/// to the keep-set, the outline's steps and the spans' lines.
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(not(test), allow(dead_code))]
struct PlanCost {
    scan: crate::signals::ScanCost,
    attempts: usize,
    outline: usize,
    spans: usize,
}

#[cfg(test)]
impl PlanCost {
    /// All of it, in one number.
    fn total(&self) -> usize {
        let s = &self.scan;
        s.flagged + s.evaluations + s.comparisons + s.followed + self.attempts + self.outline + self.spans
    }
}

/// Chooses the lines of `index` to keep within `budgets.keep()`, or `None`
/// when not even one marker per text fits.
fn select(
    index: &LineIndex<'_>,
    budgets: &Budgets,
    options: &LineOptions,
    spans: &[Range<usize>],
    explain: bool,
) -> Option<Plan> {
    let budget = usize::try_from(budgets.keep()).unwrap_or(usize::MAX);
    let head_tail = (budgets.head(), budgets.tail());
    let mut keep = KeepSet::new(index, budget, head_tail, explain)?;
    let n = index.line_count();
    // Wider than the text means the whole text; clamping keeps loops short.
    let options = LineOptions { context: options.context.min(n), edge: options.edge.min(n) };
    let cap = if n < 3 { budget } else { (budget / LONG_LINE_SHARE).max(256) };
    let texts = index.texts.len();
    let shapes: Vec<Shape> = (0..texts).map(|t| kind::shape(index.lines_of(t))).collect();
    // Signals are read only where the plan or the kind needs them: for a
    // log, and to tell code from a log that quotes it.
    let needs_signals =
        explain || shapes.iter().any(|s| matches!(s, Shape::Is(Kind::Log) | Shape::CodeUnlessItReports));
    let mut signals = Signals::default();
    if needs_signals {
        for t in 0..texts {
            signals.scan(index.lines_of(t), index.bounds[t].start);
        }
    }
    let kinds: Vec<Kind> = (0..texts)
        .map(|t| match shapes[t] {
            Shape::Is(k) => k,
            Shape::CodeUnlessItReports => {
                if kind::reports(&signals, index.bounds[t].clone()) {
                    Kind::Log
                } else {
                    Kind::Code
                }
            }
        })
        .collect();
    let touched = touched_lines(index, spans);
    let mut cost = PlanCost { spans: spans.len() + touched.len(), ..PlanCost::default() };
    if kinds.iter().all(|&k| k != Kind::Log) {
        cost.outline = outline_plan::plan_outline(index, &mut keep, &kinds, &options, &touched, cap, head_tail);
    } else {
        let traces = Traces::new(&signals);
        let mut plan = log_plan::LogPlan {
            index,
            signals: &signals,
            traces: &traces,
            keep,
            options,
            touched: &touched,
            budget,
            cap,
            head_tail,
        };
        plan.plan();
        keep = plan.keep;
    }
    cost.attempts = keep.attempts;
    cost.scan = signals.cost;
    let (kept, reasons) = keep.finish();
    Some(Plan { kept, reasons, signals, kinds, cost })
}

/// Global indices (ascending) of the lines touched by `spans` over the
/// joined texts: the spans sorted and merged, then each located by binary
/// search, so the work is the spans and the lines they touch.
fn touched_lines(index: &LineIndex<'_>, spans: &[Range<usize>]) -> Vec<usize> {
    let mut sorted: Vec<Range<usize>> = spans.iter().filter(|s| s.start < s.end).cloned().collect();
    if sorted.is_empty() {
        return Vec::new();
    }
    sorted.sort_unstable_by_key(|s| s.start);
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(sorted.len());
    for s in sorted {
        match merged.last_mut() {
            Some(last) if s.start <= last.end => last.end = last.end.max(s.end),
            _ => merged.push(s),
        }
    }
    let mut out = Vec::new();
    let mut offset = 0;
    let mut first_span = 0;
    for (t, (_, text)) in index.texts.iter().enumerate() {
        let end = offset + text.len();
        let lines = index.lines_of(t);
        let base = index.bounds[t].start;
        // Spans ending before this text cannot touch a later one either.
        while first_span < merged.len() && merged[first_span].end <= offset {
            first_span += 1;
        }
        for s in merged[first_span..].iter().take_while(|s| s.start < end) {
            let (a, b) = (s.start.max(offset) - offset, s.end.min(end) - offset);
            if a >= b {
                continue;
            }
            let first = lines.starts.partition_point(|&st| st as usize <= a) - 1;
            let last = lines.starts.partition_point(|&st| (st as usize) < b) - 1;
            out.extend(base + first..=base + last);
        }
        offset = end;
    }
    out.dedup();
    out
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
        let index = LineIndex::new(&blocks).unwrap();
        let wide = LineOptions { context: 1_000_000, edge: 2 };
        for budget in (4000..4200).step_by(7) {
            let plan = select(&index, &budgets(budget), &wide, &[], false).unwrap();
            assert!(
                plan.cost.attempts < 4 * index.line_count(),
                "{budget}: {} lines offered for {}",
                plan.cost.attempts,
                index.line_count()
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
