//! The promises a prune keeps, as checks: one place that the property tests
//! and the fuzz targets both call, so every harness asserts the same rules.
//! Built for tests and with the `guarantees` feature (the fuzz crate's).

use std::collections::HashSet;
use std::ops::Range;

use crate::config::{Budgets, PRUNE_MARKER};
use crate::content::{self, Block, Piece, Pruned, measure, render_texts};
use crate::hash::content_hash;
use crate::markers::{Unit, expand, marker_len};
use crate::pages::{PageError, SEARCH_CONTEXT, Selection, min_threshold, retrieval};
use crate::signals::Signals;
use crate::strategy::head_tail;
use crate::strategy::lines::{self, Kept, LineOptions, floor};
use crate::text::{MAX_JS_STRING_UNITS, TextLines, code_point_len, split_lines, utf16};

/// `Err` with the message when `cond` is false.
macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+));
        }
    };
}

/// The rendered texts of `pruned`, checked against what every strategy
/// promises: `chars_after` is their size, which is within the threshold and
/// below the input's `total`; a second pass with `again` changes nothing.
fn budget_and_finality(
    blocks: &[Block<'_>],
    pruned: &Pruned,
    threshold: u64,
    again: impl Fn(&[Block<'_>]) -> Option<Pruned>,
) -> Result<Vec<Vec<u16>>, String> {
    let total = measure(blocks);
    let texts: Vec<Vec<u16>> = render_texts(blocks, pruned).map(<[u16]>::to_vec).collect();
    let after: u64 = texts.iter().map(|t| code_point_len(t) as u64).sum();
    ensure!(after == pruned.chars_after, "chars_after {} but the texts hold {after}", pruned.chars_after);
    ensure!(after <= threshold && after < total, "{after} of {total} code points within {threshold}");
    let rendered: Vec<Block<'_>> = texts.iter().map(|t| Block::Text(t)).collect();
    ensure!(again(&rendered).is_none(), "a second pass changes the result");
    Ok(texts)
}

/// Upstream's head/tail on `blocks`: `None` only within the threshold; else
/// within budget, smaller, final, no empty text block, exactly the first
/// `head` and last `tail` code points (per block, as upstream counts them)
/// around the marker, and the rich blocks in their order.
pub fn check_head_tail(blocks: &[Block<'_>], budgets: &Budgets) -> Result<(), String> {
    let threshold = budgets.threshold();
    let total = measure(blocks);
    let Some(pruned) = head_tail::prune(blocks, budgets) else {
        ensure!(total <= threshold, "{total} code points over {threshold} left unpruned");
        return Ok(());
    };
    ensure!(total > threshold, "{total} code points within {threshold} pruned");
    let texts = budget_and_finality(blocks, &pruned, threshold, |b| head_tail::prune(b, budgets))?;
    ensure!(texts.iter().all(|t| !t.is_empty()), "an empty text block in the result");
    let atoms: Vec<&[u16]> = content::texts(blocks)
        .flat_map(|t| {
            char::decode_utf16(t.iter().copied()).scan(0usize, move |at, item| {
                let w = item.map_or(1, char::len_utf16);
                *at += w;
                Some(&t[*at - w..*at])
            })
        })
        .collect();
    let (head, tail) = (budgets.head() as usize, budgets.tail() as usize);
    let mut want: Vec<u16> = atoms[..head].concat();
    want.extend(utf16(PRUNE_MARKER));
    want.extend(atoms[atoms.len() - tail..].concat());
    ensure!(texts.concat() == want, "not the head, the marker and the tail");
    let kept: Vec<usize> =
        pruned.pieces.iter().filter_map(|p| if let Piece::Rich(i) = p { Some(*i) } else { None }).collect();
    let rich: Vec<usize> = blocks.iter().enumerate().filter(|(_, b)| **b == Block::Rich).map(|(i, _)| i).collect();
    ensure!(kept == rich, "rich blocks {kept:?}, expected {rich:?}");
    Ok(())
}

/// Lines mode on `blocks`: `None` only within the threshold; else within
/// the threshold and `keepChars`, smaller, final, deterministic, every hash the SHA-256 prefix of
/// its text, and every text block expands back to its input exactly from
/// `recoverable` (unless upstream's non-retrievable fallback was needed).
pub fn check_lines(blocks: &[Block<'_>], budgets: &Budgets, options: &LineOptions) -> Result<(), String> {
    let threshold = budgets.threshold();
    let Some(pruned) = lines::prune(blocks, budgets, options) else {
        let total = measure(blocks);
        ensure!(total <= threshold, "{total} code points over {threshold} left unpruned");
        return Ok(());
    };
    let texts = budget_and_finality(blocks, &pruned, threshold, |b| lines::prune(b, budgets, options))?;
    ensure!(
        pruned.chars_after <= budgets.keep(),
        "{} code points over keepChars {}",
        pruned.chars_after,
        budgets.keep()
    );
    ensure!(lines::prune(blocks, budgets, options).as_ref() == Some(&pruned), "not deterministic");
    if let [Block::Text(text)] = blocks
        && let Some((kept, log)) = lines::kept_lines(text, budgets, options)
    {
        let lines = split_lines(text);
        floor_kept(text, &lines, budgets, &kept, log)?;
        check_room_used(text, &lines, budgets, &kept, pruned.chars_after)?;
    }
    let recovered = pruned.recovered(blocks);
    for (hash, text) in &recovered {
        ensure!(&content_hash(text) == hash, "hash {hash} does not name its text");
    }
    let fallback = recovered.is_empty() && texts.iter().any(|t| String::from_utf16_lossy(t).contains(PRUNE_MARKER));
    if !fallback {
        let mut rendered = texts.iter();
        for (i, piece) in pruned.pieces.iter().enumerate() {
            if let Piece::Text { block, .. } = piece {
                let (Block::Text(original), Some(text)) = (blocks[*block], rendered.next()) else {
                    return Err(format!("piece {i} is not a text block's"));
                };
                ensure!(expand(text, &recovered) == original, "piece {i} does not expand back to its input");
            }
        }
    }
    Ok(())
}

/// Lines mode's floor on one text (see `strategy::lines::floor`): of each
/// evidence class, the plan shows at least as many distinct pieces of
/// evidence, by the plan's reading, as the better of upstream's head/tail
/// and a plain tail within the same budget shows among its whole lines.
pub fn check_floor(text: &[u16], budgets: &Budgets, options: &LineOptions) -> Result<(), String> {
    let Some((kept, log)) = lines::kept_lines(text, budgets, options) else { return Ok(()) };
    floor_kept(text, &split_lines(text), budgets, &kept, log)
}

/// [`check_floor`] of the lines a plan `kept` of `text` (split in `lines`),
/// `log` where it read the text as a log.
fn floor_kept(text: &[u16], lines: &[Range<usize>], budgets: &Budgets, kept: &Kept, log: bool) -> Result<(), String> {
    let n = lines.len();
    let cps = |run: Range<usize>| run.map(|k| code_point_len(&text[lines[k].clone()])).sum::<usize>();
    let (head, tail) = (budgets.head(), budgets.tail());
    let keep = usize::try_from(budgets.keep()).unwrap_or(usize::MAX);
    let Some((head_end, ht_tail, tail_start)) = floor::blind_windows(n, keep, (head, tail), cps) else {
        return Ok(());
    };
    // The floor holds where the text is read as a log, by its every line.
    if !log {
        return Ok(());
    }
    let starts: Vec<u32> = lines.iter().map(|l| l.start as u32).collect();
    let mut signals = Signals::default();
    signals.scan(TextLines { text, starts: &starts }, 0);
    let evidence = floor::EvidenceOf::new(&signals);
    let shown = |within: &dyn Fn(usize) -> bool| {
        let mut per_class = vec![HashSet::new(); floor::CLASSES.len()];
        for (_, (c, id)) in evidence.lines(within) {
            per_class[c].insert(id);
        }
        per_class.iter().map(HashSet::len).collect::<Vec<usize>>()
    };
    let (by_head_tail, by_tail) = (shown(&|k| k < head_end || k >= ht_tail), shown(&|k| k >= tail_start));
    let better = if by_tail > by_head_tail { by_tail } else { by_head_tail };
    let plan = shown(&|k| kept.contains(k));
    ensure!(
        plan.iter().zip(&better).all(|(p, b)| p >= b),
        "distinct evidence per class {plan:?} under the blind cut's {better:?}"
    );
    Ok(())
}

/// Lines mode's last room on one text: no dropped run of lines it may
/// keep whole (each within [`lines::SHORT_LINE`] code points and the
/// budget) is shown by a marker that saves less than the room the plan
/// left, `keepChars` less `after`: such a run would fit as text. Of the
/// lines a plan `kept` of `text` (split in `lines`).
fn check_room_used(
    text: &[u16],
    lines: &[Range<usize>],
    budgets: &Budgets,
    kept: &Kept,
    after: u64,
) -> Result<(), String> {
    let n = lines.len();
    let keep = usize::try_from(budgets.keep()).unwrap_or(usize::MAX);
    let room = keep.saturating_sub(usize::try_from(after).unwrap_or(usize::MAX));
    let short = lines::SHORT_LINE.min(keep);
    let mut k = 0;
    while k < n {
        if kept.contains(k) {
            k += 1;
            continue;
        }
        let end = kept.next(k).unwrap_or(n);
        let sizes: Vec<usize> = (k..end).map(|j| code_point_len(&text[lines[j].clone()])).collect();
        let size: usize = sizes.iter().sum();
        let newline = usize::from(end < n || text.last() == Some(&u16::from(b'\n')));
        let marker = size.min(marker_len((end - k) as u64, Unit::Lines) + newline);
        // A run no longer than its marker is rendered as itself.
        ensure!(
            size == marker || sizes.iter().any(|&s| s > short) || size - marker > room,
            "lines {k}..{end} ({size} code points) dropped for a marker of {marker} with {room} left"
        );
        k = end;
    }
    Ok(())
}

/// Retrieval of `selection` of `text` under `threshold`: every page, header
/// included, is within the threshold and its header one line; the pages
/// joined are the selected lines byte for byte (every line for
/// [`Selection::All`], the range for `Lines`, each line holding the needle
/// with [`SEARCH_CONTEXT`] neighbours for a search, by the plain
/// definitions); a threshold is refused only under the bound it names, and
/// never at or over [`min_threshold`] for a text JS can hold.
pub fn check_retrieval(text: &[u16], hash: &str, threshold: usize, selection: &Selection) -> Result<(), String> {
    let lines = split_lines(text);
    let chosen: Vec<usize> = match selection {
        Selection::All => (0..lines.len()).collect(),
        Selection::Lines { first, last } => (first.saturating_sub(1)..(*last).min(lines.len())).collect(),
        Selection::Search(needle) => (0..lines.len())
            .filter(|&k| {
                let near = k.saturating_sub(SEARCH_CONTEXT)..(k + SEARCH_CONTEXT + 1).min(lines.len());
                near.into_iter()
                    .any(|j| !needle.is_empty() && text[lines[j].clone()].windows(needle.len()).any(|w| w == needle))
            })
            .collect(),
    };
    let want: Vec<u16> = chosen.iter().flat_map(|&k| text[lines[k].clone()].iter().copied()).collect();
    let first = match retrieval(text, hash, threshold, selection, 1) {
        Err(PageError::ThresholdTooSmall { threshold: t, needed }) => {
            ensure!(t == threshold && threshold < needed, "threshold {threshold} refused, needing {needed}");
            ensure!(threshold < min_threshold() || text.len() > MAX_JS_STRING_UNITS, "{threshold} refused");
            return Ok(());
        }
        Err(PageError::Empty) => {
            ensure!(want.is_empty(), "no page, but {} lines are selected", chosen.len());
            return Ok(());
        }
        Err(e) => return Err(format!("page 1: {e}")),
        Ok(first) => first,
    };
    let mut joined = Vec::new();
    for p in 1..=first.page.pages {
        let got = retrieval(text, hash, threshold, selection, p).map_err(|e| format!("page {p}: {e}"))?;
        let size = code_point_len(&got.header) + code_point_len(&got.page.text);
        ensure!(size <= threshold, "page {p} of {}: {size} code points over {threshold}", got.page.pages);
        let newline = got.header.iter().position(|&u| u == u16::from(b'\n'));
        ensure!(newline == Some(got.header.len() - 1), "the header of page {p} is not one line");
        ensure!(!got.page.text.is_empty(), "page {p} is empty");
        joined.extend(got.page.text);
    }
    ensure!(joined == want, "the pages do not join to the selected lines");
    let past = first.page.pages + 1;
    let after = retrieval(text, hash, threshold, selection, past);
    ensure!(after == Err(PageError::NoSuchPage { page: past, pages: past - 1 }), "page {past}: {after:?}");
    Ok(())
}
