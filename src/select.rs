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

use std::collections::{BTreeSet, HashSet};
use std::ops::Range;

use crate::config::Budgets;
use crate::content::{Block, NewText, Piece, Pruned};
use crate::head_tail;
use crate::lines::{Fate, Plan, cut_cost, for_each_line, render_into, run_cost};
use crate::markers::{Unit, marker_len};
use crate::signals::{self, LineSignal, STRONG};
use crate::text::{code_point_len, code_points_at_most, offset_after, offset_before_last};

/// Fewest code points of a line worth keeping when it has to be cut.
const MIN_CUT_KEEP: usize = 64;
/// A failure or summary line longer than this share of the budget (but at
/// least 256 code points) is cut.
const LONG_LINE_SHARE: usize = 16;
/// Failure lines closer than this many lines belong to one cluster.
const CLUSTER_GAP: usize = 4;
/// How far context grows around signal lines when budget is left.
const WIDE_CONTEXT: usize = 12;
/// Consecutive refusals after which growing the ends stops.
const GIVE_UP_AFTER: usize = 8;

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
        LineOptions { context: 2, edge: 2 }
    }
}

/// All text blocks' lines in one index space, compactly (a log of many
/// short lines must not cost much more than its text): a line is its start,
/// and ends where the next line of its text starts.
struct Doc<'a> {
    /// (block index, text) for each text block.
    texts: Vec<(usize, &'a [u16])>,
    /// Global line index range of each text.
    bounds: Vec<Range<usize>>,
    /// Start (code-unit offset in its text) of each line.
    starts: Vec<u32>,
    /// Prefix sums of line code points (one more entry than lines).
    prefix: Vec<u64>,
}

impl<'a> Doc<'a> {
    /// `None` when a text is too long for 32-bit offsets (no JS string is).
    fn new(blocks: &[Block<'a>]) -> Option<Self> {
        let mut texts = Vec::new();
        let mut bounds = Vec::new();
        let mut starts: Vec<u32> = Vec::new();
        let mut prefix: Vec<u64> = vec![0];
        for (block, b) in blocks.iter().enumerate() {
            let Block::Text(text) = *b else { continue };
            u32::try_from(text.len()).ok()?;
            let first = starts.len();
            let mut total = *prefix.last().expect("starts at zero");
            for_each_line(text, |range, points| {
                starts.push(range.start as u32);
                total += points as u64;
                prefix.push(total);
            });
            bounds.push(first..starts.len());
            texts.push((block, text));
        }
        Some(Doc { texts, bounds, starts, prefix })
    }

    fn len(&self) -> usize {
        self.starts.len()
    }

    /// Index of the text holding line `k`.
    fn text_of(&self, k: usize) -> usize {
        self.bounds.partition_point(|b| b.end <= k)
    }

    /// Code-unit range of line `k` within its text.
    fn range(&self, k: usize) -> Range<usize> {
        let t = self.text_of(k);
        let end = if k + 1 < self.bounds[t].end { self.starts[k + 1] as usize } else { self.texts[t].1.len() };
        self.starts[k] as usize..end
    }

    /// The code units of line `k`.
    fn line(&self, k: usize) -> &'a [u16] {
        &self.texts[self.text_of(k)].1[self.range(k)]
    }

    fn cps(&self, k: usize) -> usize {
        (self.prefix[k + 1] - self.prefix[k]) as usize
    }

    /// The line ranges of text `t`.
    fn ranges(&self, t: usize) -> Vec<Range<usize>> {
        self.bounds[t].clone().map(|k| self.range(k)).collect()
    }

    /// Cost of dropping lines `run` (all in one text) as one run.
    fn run_cost(&self, run: Range<usize>) -> usize {
        if run.is_empty() {
            return 0;
        }
        let last = self.range(run.end - 1);
        let newline = self.texts[self.text_of(run.end - 1)].1[last.end - 1] == u16::from(b'\n');
        run_cost(run.len(), (self.prefix[run.end] - self.prefix[run.start]) as usize, newline)
    }

    fn signals(&self) -> Vec<LineSignal> {
        let mut out = Vec::with_capacity(self.len());
        for (t, (_, text)) in self.texts.iter().enumerate() {
            out.extend(signals::scan(text, &self.ranges(t)));
        }
        out
    }
}

/// The growing keep-set and the exact size it renders to.
struct Selection<'d, 'a> {
    doc: &'d Doc<'a>,
    fates: Vec<Fate>,
    kept: BTreeSet<usize>,
    /// Lines in the order they were added.
    order: Vec<usize>,
    cost: usize,
    budget: usize,
    head_share: (u64, u64),
}

impl<'d, 'a> Selection<'d, 'a> {
    /// The dropped run around line `k`, which is not kept.
    fn run_around(&self, k: usize) -> Range<usize> {
        let bounds = &self.doc.bounds[self.doc.text_of(k)];
        let start = self.kept.range(bounds.start..k).next_back().map_or(bounds.start, |&p| p + 1);
        let end = self.kept.range(k + 1..bounds.end).next().copied().unwrap_or(bounds.end);
        start..end
    }

    /// Adds line `k` if it fits, whole when it is at most `cap` code points
    /// and fits, else cut to what fits. Returns whether it was added.
    fn add(&mut self, k: usize, cap: usize) -> bool {
        if k >= self.fates.len() || self.kept.contains(&k) {
            return false;
        }
        let run = self.run_around(k);
        let split = self.doc.run_cost(run.start..k) + self.doc.run_cost(k + 1..run.end);
        let old = self.doc.run_cost(run);
        let line_cps = self.doc.cps(k);
        // Cost of everything but line k after adding it (may be negative).
        let base = self.cost as isize - old as isize + split as isize;
        let room = self.budget as isize - base;
        if room <= 0 {
            return false;
        }
        let room = room as usize;
        if line_cps <= cap.min(room) {
            return self.commit(k, Fate::Keep, base as usize + line_cps);
        }
        // Cut: keep what fits beside an inline marker.
        let allowance = cap.min(room);
        let marker = marker_len(line_cps as u64, Unit::Chars);
        if allowance < marker + MIN_CUT_KEEP {
            return false;
        }
        let keep = allowance - marker;
        let slice = self.doc.line(k);
        let (from, to) = cut_points(slice, keep, self.head_share);
        let kept_cps = code_point_len(&slice[..from]) + code_point_len(&slice[to..]);
        let removed = line_cps - kept_cps;
        self.commit(k, Fate::Cut { from: from as u32, to: to as u32 }, base as usize + kept_cps + cut_cost(removed))
    }

    /// Adds the lines `d` away from line `k` on both sides, within its text.
    fn add_around(&mut self, k: usize, d: usize, cap: usize) {
        let text = self.doc.bounds[self.doc.text_of(k)].clone();
        if k >= text.start + d {
            self.add(k - d, cap);
        }
        if k + d < text.end {
            self.add(k + d, cap);
        }
    }

    /// Too little room left for any line worth adding.
    fn full(&self) -> bool {
        self.budget - self.cost < MIN_CUT_KEEP
    }

    /// Adds lines from both ends inward, two from the end for each one from
    /// the start, until the budget is used up.
    fn grow_edges(&mut self, edge: usize) {
        let n = self.fates.len();
        let (mut front, mut back) = (edge, n.saturating_sub(edge + 1));
        let mut refused = 0;
        let mut turn = 0;
        while front <= back && back < n && refused < GIVE_UP_AFTER && !self.full() {
            let k = if turn % 3 == 2 {
                front += 1;
                front - 1
            } else {
                back = back.wrapping_sub(1);
                back.wrapping_add(1)
            };
            turn += 1;
            if self.kept.contains(&k) {
                continue;
            }
            if self.add(k, self.budget) { refused = 0 } else { refused += 1 }
        }
    }

    fn commit(&mut self, k: usize, fate: Fate, cost: usize) -> bool {
        debug_assert!(cost <= self.budget);
        self.fates[k] = fate;
        self.kept.insert(k);
        self.order.push(k);
        self.cost = cost;
        true
    }
}

/// Code-unit cut points in `line` keeping `keep` code points, split by the
/// `(head, tail)` ratio, the tail always holding the line ending.
fn cut_points(line: &[u16], keep: usize, (head_w, tail_w): (u64, u64)) -> (usize, usize) {
    let head = (keep as u64 * head_w).checked_div(head_w + tail_w).map_or(keep / 2, |h| h as usize);
    let tail = keep - head;
    let from = offset_after(line, head);
    let to = offset_before_last(line, tail).max(from);
    (from, to)
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
    if code_points_at_most(head_tail::texts(blocks), budgets.threshold()) {
        return None;
    }
    let budget = usize::try_from(budgets.threshold()).unwrap_or(usize::MAX);
    let Some(doc) = Doc::new(blocks) else {
        return head_tail::prune(blocks, budgets);
    };
    let floor: usize = doc.bounds.iter().map(|b| doc.run_cost(b.clone())).sum();
    if floor > budget {
        // Not even one marker per text fits: upstream's cut, which always does.
        return head_tail::prune(blocks, budgets);
    }
    let mut sel = Selection {
        doc: &doc,
        fates: vec![Fate::Drop; doc.len()],
        kept: BTreeSet::new(),
        order: Vec::new(),
        cost: floor,
        budget,
        head_share: (budgets.head(), budgets.tail()),
    };
    let n = doc.len();
    // Wider than the text means the whole text; clamping keeps loops short.
    let options = LineOptions { context: options.context.min(n), edge: options.edge.min(n) };
    let long_cap = if n < 3 { budget } else { (budget / LONG_LINE_SHARE).max(256) };

    // 1. Caller spans.
    let touched: BTreeSet<usize> = touched_global(&doc, spans).into_iter().collect();
    for &k in &touched {
        sel.add(k, long_cap);
    }
    let signals = doc.signals();
    let (distinct, repeats) = rank_failures(&doc, &signals);
    // 2. Distinct failure lines.
    for &k in &distinct {
        sel.add(k, long_cap);
    }
    // 3. Distinct summary lines, closing first.
    let mut seen = HashSet::new();
    for k in (0..n).rev() {
        if signals[k].summary && signals[k].failure == 0 && seen.insert(signals[k].shape) {
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
        .filter(|&k| signals[k].failure > 0 || signals[k].summary || touched.contains(&k))
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

    let pruned = render_blocks(blocks, &doc, &sel.fates);
    let total = *doc.prefix.last().expect("starts at zero");
    let guaranteed = pruned.chars_after <= budgets.threshold() && pruned.chars_after < total;
    debug_assert!(guaranteed, "selection kept its budget: {} <= {}", pruned.chars_after, budgets.threshold());
    if guaranteed { Some(pruned) } else { head_tail::prune(blocks, budgets) }
}

/// Global indices of the lines touched by `spans` over the joined texts.
fn touched_global(doc: &Doc<'_>, spans: &[Range<usize>]) -> Vec<usize> {
    if spans.is_empty() {
        return Vec::new();
    }
    let mut offset = 0;
    let mut joined = Vec::with_capacity(doc.len());
    for (t, (_, text)) in doc.texts.iter().enumerate() {
        joined.extend(doc.ranges(t).into_iter().map(|r| offset + r.start..offset + r.end));
        offset += text.len();
    }
    crate::lines::lines_touched(spans, &joined)
}

/// Failure lines ranked for selection (first line of each shape), and the
/// lines repeating a shape.
fn rank_failures(doc: &Doc<'_>, signals: &[LineSignal]) -> (Vec<usize>, Vec<usize>) {
    let mut seen = HashSet::new();
    let mut distinct = Vec::new();
    let mut repeats = Vec::new();
    for (k, s) in signals.iter().enumerate() {
        if s.failure == 0 {
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
    order.sort_by_key(|&i| (signals[distinct[i]].failure != STRONG, round[i], distinct[i]));
    repeats.sort_by_key(|&k| (signals[k].failure != STRONG, k));
    (order.into_iter().map(|i| distinct[i]).collect(), repeats)
}

/// Stack-trace body lines, nearest to a failure line first.
fn rank_frames(signals: &[LineSignal]) -> Vec<usize> {
    let n = signals.len();
    let mut nearest = vec![usize::MAX; n];
    let mut last = None;
    for k in 0..n {
        if signals[k].failure > 0 {
            last = Some(k);
        }
        if let Some(f) = last {
            nearest[k] = k - f;
        }
    }
    last = None;
    for k in (0..n).rev() {
        if signals[k].failure > 0 {
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

/// Renders each text block with its lines' fates.
fn render_blocks(blocks: &[Block<'_>], doc: &Doc<'_>, fates: &[Fate]) -> Pruned {
    let mut plan = Plan::default();
    let mut pieces = Vec::with_capacity(blocks.len());
    let mut after = 0u64;
    let mut text_of_block = doc.texts.iter().enumerate().map(|(t, (b, _))| (*b, t)).peekable();
    for (index, block) in blocks.iter().enumerate() {
        let Block::Text(text) = *block else {
            pieces.push(Piece::Keep(index));
            continue;
        };
        let (_, t) = text_of_block.next().expect("one doc text per text block");
        let bounds = doc.bounds[t].clone();
        let ranges = doc.ranges(t);
        plan.content.clear();
        render_into(text, index, &ranges, &fates[bounds.clone()], &mut plan);
        after += code_point_len(&plan.content) as u64; // the output: at most the budget
        if plan.content.is_empty() {
            continue;
        }
        let text_out = if plan.content == text {
            NewText::Unchanged
        } else {
            NewText::Replaced(std::mem::take(&mut plan.content))
        };
        pieces.push(Piece::Text { block: index, text: text_out });
    }
    Pruned { pieces, chars_after: after, recoverable: plan.recoverable, dropped_lines: plan.dropped_lines }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::render_texts;
    use crate::lines::expand;
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
        let blocks = [Block::Text(&a), Block::Other, Block::Text(&b)];
        let p = prune(&blocks, &budgets(4096), &LineOptions::default()).unwrap();
        assert!(matches!(p.pieces[1], Piece::Keep(1)));
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
                blocks.push(Block::Other);
                blocks.push(Block::Text(extra));
            }
            crate::guarantees::check_lines(&blocks, &b, &LineOptions { context, edge }).map_err(TestCaseError::fail)?;
        }
    }
}
