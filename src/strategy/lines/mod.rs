//! The line plan under a hard budget (`strategy: 'lines'`).
//!
//! The text blocks of a result are planned together. Lines are added to the
//! keep-set in priority order while the rendered size, markers included,
//! stays within the budget; the size is tracked exactly as rendering will
//! produce it, so the budget holds by construction. Priority, highest first
//! (what is shed last when it does not all fit):
//!
//! 1. lines the caller's spans touch;
//! 2. distinct failure lines: strong before weak, one line per shape, and
//!    across clusters of failure lines the first and last of each cluster
//!    before the ones in between;
//! 3. distinct summary lines, the closing ones first;
//! 4. the first and last `edge` lines;
//! 5. stack-trace bodies, nearest to their failure first;
//! 6. `context` neighbours of everything kept so far, nearer first;
//! 7. failure lines repeating a shape already kept.
//!
//! A failure or summary line longer than a sixteenth of the budget (at least
//! 256 code points), or any line too long for what is left, is cut inside by
//! the head/tail rule
//! (the configured head:tail ratio) with a retrievable inline marker. A text
//! with no line structure (fewer than three lines) is one such cut: the
//! retrievable form of head/tail. When even one marker per text block does
//! not fit the budget, the result is upstream's head/tail.

mod budget;
pub mod doc;
pub mod render;

use std::collections::{BTreeSet, HashSet};
use std::ops::Range;

use crate::config::{Budgets, DEFAULT_CONTEXT_LINES, DEFAULT_EDGE_LINES};
use crate::content::{self, Block, Pruned};
use crate::signals::{self, Failure, LineSignal};
use crate::strategy::head_tail;
use crate::text::code_points_at_most;
use budget::Selection;
use doc::Doc;
use render::{Fate, render_blocks};

/// A failure or summary line longer than this share of the budget (but at
/// least 256 code points) is cut.
const LONG_LINE_SHARE: usize = 16;
/// Failure lines closer than this many lines belong to one cluster.
const CLUSTER_GAP: usize = 4;
/// How far context grows around signal lines when budget is left.
const WIDE_CONTEXT: usize = 12;

/// How lines mode widens what it keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineOptions {
    /// Neighbours kept on each side of every kept line.
    pub context: usize,
    /// Lines kept at the start and at the end.
    pub edge: usize,
}

impl Default for LineOptions {
    fn default() -> Self {
        LineOptions { context: DEFAULT_CONTEXT_LINES as usize, edge: DEFAULT_EDGE_LINES as usize }
    }
}

/// Lines mode over a block list, or `None` when the text is within the
/// threshold. When `Some`, the text is at most the threshold and smaller
/// than before, and `recoverable` undoes every marker.
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
    // A long text is over the threshold without counting; the line pass
    // counts it.
    if code_points_at_most(content::texts(blocks), budgets.threshold()) {
        return None;
    }
    let Some(doc) = Doc::new(blocks) else {
        return head_tail::prune(blocks, budgets);
    };
    let Some((fates, _)) = select(&doc, budgets, options, spans) else {
        // Not even one marker per text fits: upstream's cut, which always does.
        return head_tail::prune(blocks, budgets);
    };
    let pruned = render_blocks(blocks, &doc, &fates);
    let total = doc.total();
    let guaranteed = pruned.chars_after <= budgets.threshold() && pruned.chars_after < total;
    debug_assert!(guaranteed, "selection kept its budget: {} <= {}", pruned.chars_after, budgets.threshold());
    if guaranteed { Some(pruned) } else { head_tail::prune(blocks, budgets) }
}

/// What lines mode reads in each line of `text` and what it does with it;
/// `None` when the text is within the threshold or gets upstream's cut.
pub fn explain(text: &[u16], budgets: &Budgets, options: &LineOptions) -> Option<Vec<(LineSignal, Fate)>> {
    let blocks = [Block::Text(text)];
    if code_points_at_most(content::texts(&blocks), budgets.threshold()) {
        return None;
    }
    let doc = Doc::new(&blocks)?;
    let (fates, signals) = select(&doc, budgets, options, &[])?;
    Some(signals.into_iter().zip(fates).collect())
}

/// The fate of every line of `doc` and the signals read, or `None` when not
/// even one marker per text fits the threshold.
fn select(
    doc: &Doc<'_>,
    budgets: &Budgets,
    options: &LineOptions,
    spans: &[Range<usize>],
) -> Option<(Vec<Fate>, Vec<LineSignal>)> {
    let budget = usize::try_from(budgets.threshold()).unwrap_or(usize::MAX);
    let mut sel = Selection::new(doc, budget, (budgets.head(), budgets.tail()))?;
    let n = doc.line_count();
    // Wider than the text means the whole text; clamping keeps loops short.
    let options = LineOptions { context: options.context.min(n), edge: options.edge.min(n) };
    let long_cap = if n < 3 { budget } else { (budget / LONG_LINE_SHARE).max(256) };

    // 1. Caller spans.
    let touched: BTreeSet<usize> = touched_global(doc, spans).into_iter().collect();
    for &k in &touched {
        sel.add(k, long_cap);
    }
    let signals = scan(doc);
    let (distinct, repeats) = rank_failures(doc, &signals);
    // 2. Distinct failure lines.
    for &k in &distinct {
        sel.add(k, long_cap);
    }
    // 3. Distinct summary lines, closing first.
    let mut seen = HashSet::new();
    for k in (0..n).rev() {
        if signals[k].summary && signals[k].failure == Failure::None && seen.insert(signals[k].shape) {
            sel.add(k, long_cap);
        }
    }
    // 4. Edges.
    for k in (0..options.edge.min(n)).chain(n.saturating_sub(options.edge)..n) {
        sel.add(k, budget);
    }
    // 5. Stack-trace bodies, nearest to a failure line first.
    for k in rank_frames(&signals) {
        sel.add(k, budget);
    }
    // 6. Context, nearer first, around lines in the order they were kept.
    let anchors = sel.order.clone();
    for d in 1..=options.context {
        for &k in &anchors {
            sel.add_around(k, d, budget);
        }
    }
    // 7. Repeated shapes.
    for &k in &repeats {
        sel.add(k, long_cap);
    }
    // 8. With budget left: wider context around failure, summary and span
    // lines, then more lines at both ends, the end first.
    let signal_anchors: Vec<usize> = anchors
        .iter()
        .copied()
        .filter(|&k| signals[k].failure > Failure::None || signals[k].summary || touched.contains(&k))
        .collect();
    for d in options.context + 1..=WIDE_CONTEXT {
        if sel.full() {
            break;
        }
        for &k in &signal_anchors {
            sel.add_around(k, d, budget);
        }
    }
    sel.grow_edges(options.edge);
    Some((sel.fates, signals))
}

/// Every line's signal, text by text.
fn scan(doc: &Doc<'_>) -> Vec<LineSignal> {
    let mut out = Vec::with_capacity(doc.line_count());
    for (t, (_, text)) in doc.texts.iter().enumerate() {
        out.extend(signals::scan(text, &doc.ranges(t)));
    }
    out
}

/// Global indices of the lines touched by `spans` over the joined texts.
fn touched_global(doc: &Doc<'_>, spans: &[Range<usize>]) -> Vec<usize> {
    if spans.is_empty() {
        return Vec::new();
    }
    let mut offset = 0;
    let mut joined = Vec::with_capacity(doc.line_count());
    for (t, (_, text)) in doc.texts.iter().enumerate() {
        joined.extend(doc.ranges(t).into_iter().map(|r| offset + r.start..offset + r.end));
        offset += text.len();
    }
    lines_touched(spans, &joined)
}

/// Indices of the lines overlapping any `[start, end)` span, ascending.
/// Empty spans touch nothing; spans past the end are clipped.
fn lines_touched(spans: &[Range<usize>], lines: &[Range<usize>]) -> Vec<usize> {
    let mut touched = vec![false; lines.len()];
    for span in spans.iter().filter(|s| s.start < s.end) {
        // First line whose end is past the span's start.
        let first = lines.partition_point(|l| l.end <= span.start);
        for (i, line) in lines.iter().enumerate().skip(first) {
            if line.start >= span.end {
                break;
            }
            touched[i] = true;
        }
    }
    touched.iter().enumerate().filter_map(|(i, &t)| t.then_some(i)).collect()
}

/// Failure lines ranked for selection (first line of each shape), and the
/// lines repeating a shape.
fn rank_failures(doc: &Doc<'_>, signals: &[LineSignal]) -> (Vec<usize>, Vec<usize>) {
    let mut seen = HashSet::new();
    let mut distinct = Vec::new();
    let mut repeats = Vec::new();
    for (k, s) in signals.iter().enumerate() {
        if s.failure == Failure::None {
            continue;
        }
        if seen.insert((s.failure, s.shape)) { distinct.push(k) } else { repeats.push(k) }
    }
    // Clusters of nearby failure lines in one text; rank within a cluster:
    // first, last, second, second to last, ...
    let mut round = vec![0usize; distinct.len()];
    let mut start = 0;
    while start < distinct.len() {
        let mut end = start + 1;
        while end < distinct.len()
            && doc.text_of(distinct[end]) == doc.text_of(distinct[start])
            && distinct[end] - distinct[end - 1] <= CLUSTER_GAP
        {
            end += 1;
        }
        let len = end - start;
        for (i, r) in round[start..end].iter_mut().enumerate() {
            let from_end = len - 1 - i;
            *r = if i <= from_end { 2 * i } else { 2 * from_end + 1 };
        }
        start = end;
    }
    let mut order: Vec<usize> = (0..distinct.len()).collect();
    order.sort_by_key(|&i| (signals[distinct[i]].failure != Failure::Strong, round[i], distinct[i]));
    repeats.sort_by_key(|&k| (signals[k].failure != Failure::Strong, k));
    (order.into_iter().map(|i| distinct[i]).collect(), repeats)
}

/// Stack-trace body lines, nearest to a failure line first.
fn rank_frames(signals: &[LineSignal]) -> Vec<usize> {
    let n = signals.len();
    let mut nearest = vec![usize::MAX; n];
    let mut last = None;
    for k in 0..n {
        if signals[k].failure > Failure::None {
            last = Some(k);
        }
        if let Some(f) = last {
            nearest[k] = k - f;
        }
    }
    last = None;
    for k in (0..n).rev() {
        if signals[k].failure > Failure::None {
            last = Some(k);
        }
        if let Some(f) = last {
            nearest[k] = nearest[k].min(f - k);
        }
    }
    let mut frames: Vec<usize> = (0..n).filter(|&k| signals[k].frame).collect();
    frames.sort_by_key(|&k| (nearest[k], k));
    frames
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Piece, render_texts};
    use crate::markers::expand;
    use crate::text::utf16;
    use proptest::prelude::*;

    fn budgets(threshold: u64) -> Budgets {
        Budgets::new(threshold, 0, 0).unwrap()
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
    fn one_huge_line_is_cut_by_head_and_tail_and_retrievable() {
        let text = utf16(&format!("{{\"a\":\"{}\"}}", "x".repeat(50_000)));
        let blocks = [Block::Text(&text)];
        let b = Budgets::new(8192, 4096, 1024).unwrap();
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
            head in 0u64..4,
            context in 0usize..4,
            edge in 0usize..4,
        ) {
            let b = Budgets::new(threshold, head.min(threshold - 39), 0).unwrap();
            let mut blocks = vec![Block::Text(&text)];
            if let Some(extra) = extra.as_deref() {
                blocks.push(Block::Rich);
                blocks.push(Block::Text(extra));
            }
            crate::guarantees::check_lines(&blocks, &b, &LineOptions { context, edge }).map_err(TestCaseError::fail)?;
        }
    }
}
