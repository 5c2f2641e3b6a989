//! Lines: splitting, keep-sets, and rendering a keep/drop decision.
//!
//! Agents read lines; the plan keeps or drops whole lines. Text splits on
//! `"\n"` only, endings kept, so the lines joined are the input exactly and
//! character offsets map onto lines without ambiguity. Rendering copies kept
//! lines byte for byte and puts one marker line in place of each maximal
//! dropped run; a run not longer than its marker line stays as it was, since
//! replacing it would not save anything.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::markers::{Unit, content_hashes, format_marker, marker_len};
use crate::text::{code_point_len, code_points_at_most, is_high_surrogate, is_low_surrogate, utf16};

/// Line ranges (code-unit offsets) of `text`, each ending after its `\n`
/// except possibly the last. The ranges tile the text: joined, they are it.
/// Empty text has no lines.
pub fn split_lines(text: &[u16]) -> Vec<Range<usize>> {
    let mut lines = Vec::with_capacity(text.len() / 64 + 1);
    for_each_line(text, |range, _| lines.push(range));
    lines
}

/// Calls `f` with each line of `text` (as [`split_lines`] gives them) and
/// its code points, in order, in one pass over the text.
pub fn for_each_line(text: &[u16], mut f: impl FnMut(Range<usize>, usize)) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has AVX2 and POPCNT, checked just above.
        return unsafe { for_each_line_avx2(text, &mut f) };
    }
    scan_lines::<false>(text, &mut f);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn for_each_line_avx2(text: &[u16], f: &mut impl FnMut(Range<usize>, usize)) {
    scan_lines::<true>(text, f);
}

/// Newline and pair-start bit masks of units `0..32` of `chunk` (33 units:
/// the last one only completes a pair begun at unit 31).
fn portable_masks(chunk: &[u16; 33]) -> (u32, u32) {
    let mut newlines = 0u32;
    let mut pairs = 0u32;
    for i in 0..32 {
        newlines |= u32::from(chunk[i] == u16::from(b'\n')) << i;
        pairs |= u32::from(is_high_surrogate(chunk[i]) & is_low_surrogate(chunk[i + 1])) << i;
    }
    (newlines, pairs)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn avx2_masks(chunk: &[u16; 33]) -> (u32, u32) {
    use std::arch::x86_64::*;
    // SAFETY: every load reads 16 units inside `chunk` (at 0, 1, 16, 17).
    unsafe {
        let load = |at: usize| _mm256_loadu_si256(chunk.as_ptr().add(at).cast());
        // 16-bit lane masks of two halves to one bit per unit: pack to bytes
        // (per 128-bit lane), put the 64-bit quarters back in order, take the
        // byte signs.
        let bits = |lo: __m256i, hi: __m256i| {
            _mm256_movemask_epi8(_mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packs_epi16(lo, hi))) as u32
        };
        let newline = _mm256_set1_epi16(b'\n' as i16);
        let top6 = _mm256_set1_epi16(0xFC00u16 as i16);
        let high = _mm256_set1_epi16(0xD800u16 as i16);
        let low = _mm256_set1_epi16(0xDC00u16 as i16);
        let (a, b, a1, b1) = (load(0), load(16), load(1), load(17));
        let newlines = bits(_mm256_cmpeq_epi16(a, newline), _mm256_cmpeq_epi16(b, newline));
        let starts = |this: __m256i, next: __m256i| {
            _mm256_and_si256(
                _mm256_cmpeq_epi16(_mm256_and_si256(this, top6), high),
                _mm256_cmpeq_epi16(_mm256_and_si256(next, top6), low),
            )
        };
        (newlines, bits(starts(a, a1), starts(b, b1)))
    }
}

/// The line walk behind [`for_each_line`]: 32 units at a time, a line's
/// code points are its units less the pairs that start inside it (a line
/// ends at `\n` or at the end, so no pair straddles two lines).
/// `AVX2` only where the caller has the feature enabled.
#[inline(always)]
fn scan_lines<const AVX2: bool>(text: &[u16], f: &mut impl FnMut(Range<usize>, usize)) {
    let mut start = 0;
    // Pairs starting before `start`, and before the current chunk.
    let mut pairs_before_line = 0usize;
    let mut pairs_seen = 0usize;
    let mut base = 0;
    while base + 33 <= text.len() {
        let chunk: &[u16; 33] = text[base..base + 33].try_into().expect("33 units");
        #[cfg(target_arch = "x86_64")]
        // SAFETY: with AVX2 set, the caller runs with AVX2 enabled.
        let (mut newlines, pairs) = if AVX2 { unsafe { avx2_masks(chunk) } } else { portable_masks(chunk) };
        #[cfg(not(target_arch = "x86_64"))]
        let (mut newlines, pairs) = portable_masks(chunk);
        while newlines != 0 {
            let bit = newlines.trailing_zeros();
            let end = base + bit as usize + 1;
            let through = pairs_seen + (pairs & (u32::MAX >> (31 - bit))).count_ones() as usize;
            f(start..end, end - start - (through - pairs_before_line));
            (start, pairs_before_line) = (end, through);
            newlines &= newlines - 1;
        }
        pairs_seen += pairs.count_ones() as usize;
        base += 32;
    }
    for i in base..text.len() {
        let u = text[i];
        if is_high_surrogate(u) && text.get(i + 1).is_some_and(|&v| is_low_surrogate(v)) {
            pairs_seen += 1;
        }
        if u == u16::from(b'\n') {
            let end = i + 1;
            f(start..end, end - start - (pairs_seen - pairs_before_line));
            (start, pairs_before_line) = (end, pairs_seen);
        }
    }
    if start < text.len() {
        f(start..text.len(), text.len() - start - (pairs_seen - pairs_before_line));
    }
}

/// Indices of the lines overlapping any `[start, end)` span, ascending.
/// Empty spans touch nothing; spans past the end are clipped.
pub fn lines_touched(spans: &[Range<usize>], lines: &[Range<usize>]) -> Vec<usize> {
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
    indices(&touched)
}

/// `keep` grown by `context` neighbours on each side of every kept line and
/// by the first and last `edge` lines, as a new ascending list.
/// Neighbours are clipped to the lines that exist.
pub fn expand_keep(keep: &[usize], n_lines: usize, context: usize, edge: usize) -> Vec<usize> {
    let mut out = vec![false; n_lines];
    for &k in keep {
        let from = k.saturating_sub(context);
        let to = k.saturating_add(context).saturating_add(1).min(n_lines);
        for slot in out.iter_mut().take(to).skip(from) {
            *slot = true;
        }
    }
    for i in (0..edge.min(n_lines)).chain(n_lines.saturating_sub(edge)..n_lines) {
        out[i] = true;
    }
    indices(&out)
}

fn indices(flags: &[bool]) -> Vec<usize> {
    flags.iter().enumerate().filter_map(|(i, &f)| f.then_some(i)).collect()
}

/// What becomes of one line when a plan is rendered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Copied as it is.
    Keep,
    /// Part of a dropped run, replaced by that run's marker line.
    Drop,
    /// Kept but for `from..to` (code-unit offsets within the line), which
    /// is replaced by an inline chars marker.
    Cut { from: u32, to: u32 },
}

/// Where dropped text is: which source text (as the renderer was told) and
/// the code-unit range in it. Plans point into their input instead of
/// copying what they drop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub text: usize,
    pub range: Range<usize>,
}

/// A rendered plan: pruned text and the means to undo it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// Kept text verbatim, with a marker for each dropped run or cut.
    pub content: Vec<u16>,
    /// Hash → where the exact dropped text is, for every marker in `content`.
    pub recoverable: BTreeMap<String, Span>,
    /// Input lines replaced by line markers (cut lines not counted).
    pub dropped_lines: usize,
}

impl Plan {
    /// Hash → dropped text, read from the `sources` the plan was made from.
    pub fn recovered(&self, sources: &[&[u16]]) -> BTreeMap<String, Vec<u16>> {
        self.recoverable
            .iter()
            .map(|(hash, span)| (hash.clone(), sources[span.text][span.range.clone()].to_vec()))
            .collect()
    }
}

/// Cost in code points of a dropped run of `n` lines with `len` code points
/// ending (or not) in `\n`: its marker line, or the run itself when that is
/// not longer.
pub fn run_cost(n: usize, len: usize, ends_in_newline: bool) -> usize {
    len.min(marker_len(n as u64, Unit::Lines) + usize::from(ends_in_newline))
}

/// Cost in code points of cutting `removed` code points out of a line: the
/// inline marker, or nothing when the cut would not save anything.
pub fn cut_cost(removed: usize) -> usize {
    removed.min(marker_len(removed as u64, Unit::Chars))
}

/// Renders `text` (split into `lines`) with one fate per line; spans in
/// the plan name `text` as source 0.
pub fn render(text: &[u16], lines: &[Range<usize>], fates: &[Fate]) -> Plan {
    let mut plan = Plan::default();
    render_into(text, 0, lines, fates, &mut plan);
    plan
}

/// Renders into `plan`, appending to its content and map (several texts
/// can share one map); spans name `text` as source `origin`.
pub fn render_into(text: &[u16], origin: usize, lines: &[Range<usize>], fates: &[Fate], plan: &mut Plan) {
    debug_assert_eq!(lines.len(), fates.len());
    let segments = segments(text, lines, fates);
    // Hash every dropped text first: the work is independent, so a large
    // plan shares it between two cores.
    let removed: Vec<Range<usize>> = segments
        .iter()
        .filter_map(|s| match s {
            Segment::Marker { removed, .. } => Some(removed.clone()),
            Segment::Text(_) => None,
        })
        .collect();
    let mut hashes = content_hashes(text, &removed).into_iter();
    for segment in segments {
        match segment {
            Segment::Text(range) => plan.content.extend_from_slice(&text[range]),
            Segment::Marker { removed, count, unit, newline } => {
                let hash = hashes.next().expect("one hash per marker");
                plan.content.extend(utf16(&format_marker(&hash, count as u64, unit)));
                if newline {
                    plan.content.push(u16::from(b'\n'));
                }
                if unit == Unit::Lines {
                    plan.dropped_lines += count;
                }
                plan.recoverable.entry(hash).or_insert(Span { text: origin, range: removed });
            }
        }
    }
}

/// A piece of rendered output: input text copied as it is, or a marker for
/// the `removed` text (followed by the `\n` that closed a dropped run).
enum Segment {
    Text(Range<usize>),
    Marker { removed: Range<usize>, count: usize, unit: Unit, newline: bool },
}

/// The rendering of `fates` as segments, the keep-the-short-run rule applied.
fn segments(text: &[u16], lines: &[Range<usize>], fates: &[Fate]) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].clone();
        match fates[i] {
            Fate::Keep => out.push(Segment::Text(line)),
            Fate::Cut { from, to } => {
                let removed = line.start + from as usize..line.start + to as usize;
                let count = code_point_len(&text[removed.clone()]);
                if count <= marker_len(count as u64, Unit::Chars) {
                    out.push(Segment::Text(line));
                } else {
                    out.push(Segment::Text(line.start..removed.start));
                    out.push(Segment::Marker { removed: removed.clone(), count, unit: Unit::Chars, newline: false });
                    out.push(Segment::Text(removed.end..line.end));
                }
            }
            Fate::Drop => {
                let end = (i..lines.len()).find(|&j| fates[j] != Fate::Drop).unwrap_or(lines.len());
                let range = line.start..lines[end - 1].end;
                let newline = text[range.end - 1] == u16::from(b'\n');
                let n = end - i;
                if code_points_at_most(std::iter::once(&text[range.clone()]), run_cost(n, usize::MAX, newline) as u64) {
                    out.push(Segment::Text(range));
                } else {
                    out.push(Segment::Marker { removed: range, count: n, unit: Unit::Lines, newline });
                }
                i = end;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// Fates from a keep-set: listed lines kept, all others dropped.
pub fn fates_from_keep(keep: &[usize], n_lines: usize) -> Vec<Fate> {
    let mut fates = vec![Fate::Drop; n_lines];
    for &k in keep.iter().filter(|&&k| k < n_lines) {
        fates[k] = Fate::Keep;
    }
    fates
}

/// The seed's plan, without a budget: lines touched by `spans` (code-unit
/// offsets) and every mandatory line are kept, grown by `context`
/// neighbours and the `edge` lines at both ends, and rendered.
pub fn plan(text: &[u16], spans: &[Range<usize>], context: usize, edge: usize) -> Plan {
    let lines = split_lines(text);
    let mut keep = lines_touched(spans, &lines);
    keep.extend(crate::signals::mandatory_lines(text, &lines));
    keep.sort_unstable();
    keep.dedup();
    let keep = expand_keep(&keep, lines.len(), context, edge);
    render(text, &lines, &fates_from_keep(&keep, lines.len()))
}

/// Undoes a plan: every marker whose hash is in `recoverable` replaced by
/// its text (a line marker together with the `\n` that closed it). Markers
/// with unknown hashes, and any other text, are left as they are.
pub fn expand(content: &[u16], recoverable: &BTreeMap<String, Vec<u16>>) -> Vec<u16> {
    let mut out = Vec::with_capacity(content.len());
    let mut at = 0;
    for found in crate::markers::find_markers(content) {
        let Some(text) = recoverable.get(&found.hash) else { continue };
        out.extend_from_slice(&content[at..found.at.start]);
        out.extend_from_slice(text);
        at = found.at.end;
        let closes_line = found.unit == Unit::Lines && text.last() == Some(&u16::from(b'\n'));
        if closes_line && content.get(at) == Some(&u16::from(b'\n')) {
            at += 1;
        }
    }
    out.extend_from_slice(&content[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::utf16;
    use proptest::prelude::*;

    fn s(units: &[u16]) -> String {
        String::from_utf16_lossy(units)
    }

    #[test]
    fn splits_on_newline_only_keeping_endings() {
        let t = utf16("a\r\nb\u{2028}c\n\nlast");
        let lines = split_lines(&t);
        let parts: Vec<String> = lines.iter().map(|r| s(&t[r.clone()])).collect();
        assert_eq!(parts, ["a\r\n", "b\u{2028}c\n", "\n", "last"]);
        assert!(split_lines(&[]).is_empty());
        assert_eq!(split_lines(&utf16("x\n")).len(), 1);
    }

    #[test]
    #[allow(clippy::single_range_in_vec_init)]
    fn touched_lines_overlap_half_open_spans() {
        let t = utf16("aa\nbb\ncc\n");
        let lines = split_lines(&t);
        assert_eq!(lines_touched(&[2..3], &lines), [0]);
        assert_eq!(lines_touched(&[3..3], &lines), Vec::<usize>::new());
        assert_eq!(lines_touched(&[2..4, 8..100], &lines), [0, 1, 2]);
    }

    #[test]
    fn expand_adds_context_and_edges() {
        assert_eq!(expand_keep(&[5], 20, 2, 1), [0, 3, 4, 5, 6, 7, 19]);
        assert_eq!(expand_keep(&[], 3, 2, 5), [0, 1, 2]);
        assert_eq!(expand_keep(&[0], 0, 2, 2), Vec::<usize>::new());
    }

    #[test]
    fn dropped_runs_become_marker_lines_and_short_runs_stay() {
        let text: String = (0..30).map(|i| format!("line number {i:02} of the log\n")).collect();
        let t = utf16(&text);
        let lines = split_lines(&t);
        let mut keep: Vec<usize> = vec![0, 1, 29];
        keep.push(15);
        keep.sort();
        let plan = render(&t, &lines, &fates_from_keep(&keep, lines.len()));
        let out = s(&plan.content);
        assert_eq!(out.lines().count(), 4 + 2);
        assert_eq!(plan.dropped_lines, 13 + 13);
        assert_eq!(plan.recoverable.len(), 2);
        assert_eq!(expand(&plan.content, &plan.recovered(&[&t])), t);
        // One short dropped line is shorter than a marker: it stays.
        let short = utf16("keep\nx\nkeep\n");
        let plan = render(&short, &split_lines(&short), &[Fate::Keep, Fate::Drop, Fate::Keep]);
        assert_eq!(plan.content, short);
        assert!(plan.recoverable.is_empty());
    }

    #[test]
    fn a_final_run_without_newline_keeps_none() {
        let text = format!("{}\n{}", "a".repeat(80), "b".repeat(80));
        let t = utf16(&text);
        let plan = render(&t, &split_lines(&t), &[Fate::Keep, Fate::Drop]);
        let out = s(&plan.content);
        assert!(out.starts_with(&"a".repeat(80)) && out.ends_with("_lines_offloaded>>"));
        assert_eq!(expand(&plan.content, &plan.recovered(&[&t])), t);
    }

    #[test]
    fn cuts_put_an_inline_marker() {
        let text = format!("HEAD{}TAIL\n", "m".repeat(200));
        let t = utf16(&text);
        let plan = render(&t, &split_lines(&t), &[Fate::Cut { from: 4, to: 204 }]);
        let out = s(&plan.content);
        assert!(out.starts_with("HEAD<<ccr:") && out.ends_with(" 200_chars_offloaded>>TAIL\n"), "{out}");
        assert_eq!(expand(&plan.content, &plan.recovered(&[&t])), t);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]
        #[test]
        fn joined_lines_are_the_input(units in prop::collection::vec(prop_oneof![Just(10u16), 0x20u16..0x7f, 0xD800u16..0xE000], 0..200)) {
            let joined: Vec<u16> = split_lines(&units).into_iter().flat_map(|r| units[r].to_vec()).collect();
            prop_assert_eq!(joined, units);
        }

        #[test]
        fn line_walk_agrees_with_a_plain_split(units in prop::collection::vec(prop_oneof![
            Just(10u16), 0x20u16..0x7f, 0xD800u16..0xDC00, 0xDC00u16..0xE000, 0xE000u16..=0xFFFF,
        ], 0..400)) {
            let mut want = Vec::new();
            let mut start = 0;
            for (i, &u) in units.iter().enumerate() {
                if u == 10 {
                    want.push((start..i + 1, code_point_len(&units[start..i + 1])));
                    start = i + 1;
                }
            }
            if start < units.len() {
                want.push((start..units.len(), code_point_len(&units[start..])));
            }
            let mut got = Vec::new();
            for_each_line(&units, |range, points| got.push((range, points)));
            prop_assert_eq!(&got, &want);
            let mut portable = Vec::new();
            scan_lines::<false>(&units, &mut |range, points| portable.push((range, points)));
            prop_assert_eq!(portable, want);
        }

        #[test]
        fn any_keep_set_round_trips(
            units in prop::collection::vec(prop_oneof![3 => Just(10u16), 20 => 0x20u16..0x7f, 1 => 0xD800u16..0xE000, 1 => 0x4E00u16..0x4E10], 0..600),
            keep_bits in prop::collection::vec(any::<bool>(), 0..80),
        ) {
            let lines = split_lines(&units);
            let keep: Vec<usize> = keep_bits.iter().enumerate().filter_map(|(i, &k)| k.then_some(i)).collect();
            let plan = render(&units, &lines, &fates_from_keep(&keep, lines.len()));
            prop_assert_eq!(expand(&plan.content, &plan.recovered(&[&units])), units.clone());
            prop_assert!(code_point_len(&plan.content) <= code_point_len(&units));
            // Pure: the same inputs give the same plan.
            prop_assert_eq!(render(&units, &lines, &fates_from_keep(&keep, lines.len())), plan);
        }
    }
}
