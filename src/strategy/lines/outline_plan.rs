//! The plan of texts that all have an outline (see [`outline`](super::outline)):
//! the first and last lines, the caller's spans, one-line JSON by its spans
//! ([`json_spans`]), what leads the first two tiers ([`lead`]), then each
//! tier of every text in turn, each spread over its text, an identical line
//! once, then both ends in the head:tail ratio.

use std::collections::HashSet;

use super::index::LineIndex;
use super::json_reports;
use super::json_spans;
use super::keep::KeepSet;
use super::keep::grow_ends;
use super::kind::Kind;
use super::order::head_then_spread;
use super::outline::OUTLINE_HEAD;
use super::readers::commits::opens_with_commit;
use super::task::Matches;
use super::task_plan::keep_task_lines;
use super::{LineOptions, Reason, outline};
use crate::text::starts_with_ascii;

/// Share of the budget a listing's last lines take before its tiers.
const LISTING_END_SHARE: f64 = 0.05;

/// Share of the budget a JSON document's last lines take before its tiers:
/// its closing keys, under the braces that close it, are more lines.
const JSON_END_SHARE: f64 = 0.15;

/// Most of the budget left after the ends a JSON document's keys that
/// report a failure take, with their values (see [`json_reports`]), before
/// the tiers.
const EVIDENCE_SHARE: f64 = 0.5;

/// Most of the budget left after the ends and the task a commit log's
/// newest commit takes, its lines in order from the first, before the
/// tiers: what a blind head shows whole (its message, its diffstat or
/// diff), where the outline shows every commit by its header and subject.
const NEWEST_COMMIT_SHARE: f64 = 0.1;

/// Most of the budget left a commit log without patches gives its last
/// lines (its oldest commits), after its newest commit.
const OLDEST_COMMITS_SHARE: f64 = 0.05;

/// What of an outline tier is kept before any tier's rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lead {
    /// Its first entries, in order.
    First(usize),
    /// Its first and its last entry.
    Ends,
}

/// What leads tier `level` of a `kind`'s outline, if anything: every first
/// tier's first four entries; then a source file's first imports, a
/// listing's largest files and its top directories (they matter as much
/// as the first declarations or entries), and a diff's first and last
/// hunk (the last change, as well as the first); then a commit log's newest commit's
/// first two header fields (who wrote it, when), before the older
/// commits' subjects. A search's second hits and a JSON's second level do
/// not come before the rest of the files or keys.
fn lead(kind: Kind, level: usize) -> Option<Lead> {
    match (level, kind) {
        (0, _) => Some(Lead::First(OUTLINE_HEAD)),
        (1, Kind::Code | Kind::Listing) | (2, Kind::Listing) => Some(Lead::First(OUTLINE_HEAD)),
        (1, Kind::Diff) => Some(Lead::Ends),
        (2, Kind::Diff) => Some(Lead::First(2)),
        _ => None,
    }
}

/// Whether the rest of tier `level` of a `kind`'s outline (past its first
/// [`OUTLINE_HEAD`] lines) is spread over its text when kept: all but a
/// JSON document's first two levels, which its outline orders (the top
/// level spread with its small objects, the second value by value), and a
/// listing's largest files, largest first.
fn spread_when_kept(kind: Kind, level: usize) -> bool {
    !matches!((kind, level), (Kind::Json, 0 | 1) | (Kind::Listing, 1))
}

/// Chooses the outline lines of `index`'s texts (of `kinds`) into `keep`;
/// where a task's words are found (`matches`), its lines come before the
/// tiers, as far as they go: the tiers have what they leave (a fifth or a
/// third of the room held for the tiers lost more pairs than it won).
/// Returns the steps of the outline and of the task's phase.
#[allow(clippy::too_many_arguments)]
pub(crate) fn plan_outline<'a>(
    index: &LineIndex<'a>,
    keep: &mut KeepSet<'_, 'a>,
    kinds: &[Kind],
    options: &LineOptions,
    touched: &[usize],
    matches: Option<&Matches>,
    cap: usize,
    (head, tail): (u64, u64),
) -> (usize, usize) {
    let n = index.line_count();
    // Minified JSON, one long line: its outline is a choice of spans of it,
    // given the text's share of the budget.
    let total = index.bounds.iter().map(|b| index.cps_of(b.clone())).sum::<usize>().max(1);
    for (bounds, &kind) in index.bounds.iter().zip(kinds) {
        let lines = bounds.clone();
        if kind == Kind::Json && lines.len() <= 2 {
            let share = (keep.room() as u128 * index.cps_of(lines.clone()) as u128 / total as u128) as usize;
            for k in lines.filter(|&k| index.cps(k) > cap) {
                keep.add_cut_by(k, Reason::Outline, |line, room| json_spans::plan(line, room.min(share)));
            }
        }
    }
    keep.add(0, keep.first_line_cap(cap, options.edge), Reason::Start);
    for k in (0..n).rev().take(options.edge) {
        keep.add(k, cap, Reason::End);
    }
    for &k in touched {
        keep.add(k, cap, Reason::Span);
    }
    // A listing's or a JSON document's last lines, up to a share of the
    // budget: what a blind tail shows (a sorted listing's last paths, a
    // package's closing keys) may be what was looked for.
    let end_share = if kinds.contains(&Kind::Json) && matches.is_none() {
        Some(JSON_END_SHARE)
    } else {
        kinds.iter().any(|k| matches!(k, Kind::Listing | Kind::Json)).then_some(LISTING_END_SHARE)
    };
    if let Some(share) = end_share {
        let end_target = keep.cost() + (keep.room() as f64 * share) as usize;
        keep.add_back_from(n, end_target, cap, Reason::End);
    }
    let mut steps = 0;
    let mut reports: Vec<Vec<u32>> = Vec::with_capacity(index.texts.len());
    let tiers: Vec<Vec<Vec<u32>>> = (0..index.texts.len())
        .map(|t| {
            let (tiers, taken, found) = outline::tiers_and_reports(kinds[t], index.lines_of(t));
            steps += taken;
            reports.push(found);
            tiers
        })
        .collect();
    // Evidence before shape: a JSON document's keys that report a failure,
    // with their values and names, before its outline.
    if reports.iter().any(|r| !r.is_empty()) {
        let limit = keep.cost() + (keep.room() as f64 * EVIDENCE_SHARE) as usize;
        keep.set_limit(limit);
        for (t, found) in reports.iter().enumerate() {
            steps += json_reports::keep_reports(keep, index, t, found, cap);
        }
        keep.set_limit(usize::MAX);
    }
    let mut task_steps = 0;
    if let Some(matches) = matches {
        // Each line's tier, so a definition comes before its uses among lines of one score.
        let mut tier_of = vec![u8::MAX; n];
        for (t, text) in tiers.iter().enumerate() {
            for (level, tier) in text.iter().enumerate() {
                for &k in tier {
                    let of = &mut tier_of[index.bounds[t].start + k as usize];
                    *of = (*of).min(level.min(254) as u8);
                }
            }
        }
        task_steps = keep_task_lines(
            keep,
            index,
            matches,
            kinds,
            cap,
            |k| usize::from(tier_of[k]),
            |keep, k| keep.add(k, cap, Reason::Task),
        );
    }
    // Outline lines kept so far, by text: an identical one (a file header
    // in every commit of a `git log -p`) says nothing new.
    let mut seen: HashSet<&[u16]> = HashSet::new();
    // A commit log's newest commit, from its first line, up to a share of
    // what is left: the change most often asked about, shown as a blind
    // head would show it.
    let commit_logs: Vec<usize> = (0..kinds.len())
        .filter(|&t| {
            let lines = &index.bounds[t];
            kinds[t] == Kind::Diff && !lines.is_empty() && opens_with_commit(index.line(lines.start))
        })
        .collect();
    let limit = keep.cost() + (keep.room() as f64 * NEWEST_COMMIT_SHARE) as usize;
    for &t in &commit_logs {
        keep_in_turn(keep, &mut seen, index.bounds[t].clone(), limit, cap);
    }
    // A commit log without patches: its oldest commits, from its end, up
    // to a share of what is left, as a blind tail shows them.
    let limit = keep.cost() + (keep.room() as f64 * OLDEST_COMMITS_SHARE) as usize;
    for &t in &commit_logs {
        let lines = index.bounds[t].clone();
        steps += lines.len();
        if !lines.clone().any(|k| starts_with_ascii(index.line(k), b"@@")) {
            keep_in_turn(keep, &mut seen, lines.rev(), limit, cap);
        }
    }
    // What leads each of the first three tiers, before any tier's rest (see
    // [`lead`]): so a large first tier does not starve the second.
    for level in 0..3 {
        for (t, text) in tiers.iter().enumerate() {
            let tier = text.get(level).map_or(&[][..], Vec::as_slice);
            let lead: Vec<u32> = match lead(kinds[t], level) {
                Some(Lead::First(n)) => tier[..tier.len().min(n)].to_vec(),
                Some(Lead::Ends) => tier.first().into_iter().chain(tier.last()).copied().collect(),
                None => Vec::new(),
            };
            for k in lead {
                if keep.full() {
                    break;
                }
                add_once(keep, &mut seen, index.bounds[t].start + k as usize, cap);
            }
        }
    }
    for level in 0..tiers.iter().map(Vec::len).max().unwrap_or(0) {
        for (t, text) in tiers.iter().enumerate() {
            let start = index.bounds[t].start;
            let tier = text.get(level).map_or(&[][..], Vec::as_slice);
            let head = if spread_when_kept(kinds[t], level) { OUTLINE_HEAD } else { tier.len() };
            for k in head_then_spread(tier.len(), head).map(|i| tier[i] as usize) {
                if keep.full() {
                    break;
                }
                add_once(keep, &mut seen, start + k, cap);
            }
        }
    }
    let (head_w, tail_w) = (head.max(1), tail.max(1));
    grow_ends(keep, n, cap, (head_w.div_ceil(tail_w).min(8) as usize, 1));
    (steps, task_steps)
}

/// Keeps `lines` in turn, each one seen, until the plan's size reaches
/// `limit` or a line does not fit.
fn keep_in_turn<'a>(
    keep: &mut KeepSet<'_, 'a>,
    seen: &mut HashSet<&'a [u16]>,
    lines: impl Iterator<Item = usize>,
    limit: usize,
    cap: usize,
) {
    for k in lines {
        if keep.cost() >= limit || (!keep.add(k, cap, Reason::Outline) && !keep.is_kept(k)) {
            break;
        }
        seen.insert(outline_text(keep.line(k)));
    }
}

/// Adds outline line `k` unless a line of the same text was added before.
fn add_once<'a>(keep: &mut KeepSet<'_, 'a>, seen: &mut HashSet<&'a [u16]>, k: usize, cap: usize) {
    let text = outline_text(keep.line(k));
    if !keep.is_kept(k) && seen.insert(text) {
        keep.add(k, cap, Reason::Outline);
    }
}

/// A line as outline lines are told apart: without its line ending.
fn outline_text(line: &[u16]) -> &[u16] {
    line.strip_suffix(&[u16::from(b'\n')]).unwrap_or(line)
}
