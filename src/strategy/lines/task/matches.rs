//! Where a task's terms are in one output ([`Matches`]): one search for
//! every term and its short forms, each term weighed by its rarity there,
//! and the matched lines ranked by score (see the parent module).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::super::index::LineIndex;
use super::super::readers::places::leading_line;
use super::{Task, is_extension, is_stop_word};
use crate::kernels::{
    self,
    literals::{Leftmost, Literals},
};
use crate::parallel::{self, PARALLEL_FROM};
use crate::text::TextLines;

/// A term on one line in this many or more weighs nothing.
const COMMON: f64 = 2.0;
/// What a term written as code (`parse_date`, `src/router.ts`, `TS2552`)
/// weighs beside a word of prose as rare.
const LITERAL: f64 = 2.0;
/// What a path weighs (`src/router.ts`, the module `websockets/asyncio` of
/// a dotted name) beside a word of prose as rare: it names one place,
/// where other code terms name a thing found in many.
const PATH: f64 = 3.0;
/// Shortest short form of a prose word searched for (see [`patterns`]).
const SHORT_FORM_MIN: usize = 4;
/// Longest short form of a prose word searched for.
const SHORT_FORM_MAX: usize = 6;
/// Most indentation before a term that opens its line.
const LEAD: usize = 16;
/// Lines a word opens, at least, to be read as the output's shape.
const SHAPE_LINES: usize = 8;
/// What a term's part weighs, of its weight, on a line where the term
/// that holds it is found (`ignore_missing` holds `ignore` and `missing`):
/// counted in full, a name of three parts outranked everything else.
pub(super) const PART_WITH_TERM: f64 = 0.5;
/// What a line holding a term the task sets aside is worth, of its score.
const SET_ASIDE: f64 = 0.25;
/// Units narrowed and searched at a time.
pub(super) const CHUNK: usize = 1 << 16;
/// Chunks searched ahead of the one taken next, at most.
const CHUNK_DEPTH: usize = 4;

/// Where a task's terms are in one output: a bit per term for each line,
/// and each term's weight.
pub(crate) struct Matches {
    /// Bit `i` of line `k`: term `i` is on line `k`.
    masks: Vec<u32>,
    /// Each term's weight in this output (none for a term set aside).
    weights: Vec<f64>,
    /// The parts of each term that count for [`PART_WITH_TERM`] where it
    /// is found (bit `j`: term `j`): the terms it holds, none for a phrase
    /// of several words (`many branches` says more than its words).
    parts: Vec<u32>,
    /// Each group of terms the task sets aside (bit `i`: term `i`), of
    /// those found here.
    aside: Vec<u32>,
    /// The lines holding a term of non-zero weight, ascending.
    lines: Vec<u32>,
    /// The terms of weight written as code or as a name with a digit or
    /// `_` (`test_boolean_field`, `fields.py`): each names one thing.
    names: u32,
    /// Whether the request asks when something first appeared (see [`Task`]).
    pub(crate) earliest: bool,
    /// Matches read: the work, counted.
    pub(crate) steps: usize,
}

impl Matches {
    /// The task's terms in `index`'s texts; `None` when the task is empty
    /// or no term of any weight is found.
    pub(crate) fn find(index: &LineIndex<'_>, task: &Task) -> Option<Matches> {
        if task.is_empty() {
            return None;
        }
        let pats = patterns(task);
        let build =
            |live: &[usize]| Literals::new(&live.iter().map(|&p| &pats[p].0).collect::<Vec<_>>(), Leftmost::Longest);
        // The patterns searched for (pattern `p` is `pats[live[p]]`).
        let mut ids: Vec<usize> = (0..pats.len()).collect();
        let mut searcher = build(&ids)?;
        // Terms on most lines of the first chunk: the output's own words, no longer searched.
        let mut dropped = 0u32;
        let longest = pats.iter().map(|p| p.0.len()).max().unwrap_or(1);
        let n = index.line_count();
        let k = task.terms.len();
        let mut tally = Tally { masks: vec![0; n], lines_with: vec![0; k], leading: vec![0; k], steps: 0 };
        // Each chunk of each text: (text, first unit).
        let chunks: Vec<(usize, usize)> = index
            .texts
            .iter()
            .enumerate()
            .flat_map(|(t, (_, text))| (0..text.len()).step_by(CHUNK).map(move |f| (t, f)))
            .collect();
        let &(first_text, _) = chunks.first()?;
        let mut narrowed = Vec::with_capacity(CHUNK + longest);
        let search = |s: &Literals, ids: &[usize], narrowed: &mut Vec<u8>, (t, from): (usize, usize)| {
            let (found, read) = chunk_matches(&index.lines_of(t), from, longest, s, narrowed, |p| &pats[ids[p]]);
            (index.bounds[t].start, found, read)
        };
        tally.take(search(&searcher, &ids, &mut narrowed, chunks[0]), &task.implies);
        if first_text == 0 && CHUNK < index.texts[0].1.len() {
            let seen = index.lines_of(0).line_at(CHUNK - 1) + 1;
            for (i, &c) in tally.lines_with.iter().enumerate() {
                if seen >= SHAPE_LINES * 8 && c * 4 > seen * 3 && task.aside_mask() & 1 << i == 0 {
                    dropped |= 1 << i;
                }
            }
            if dropped != 0 {
                ids.retain(|&p| dropped & 1 << pats[p].1 == 0);
                if !ids.is_empty() {
                    searcher = build(&ids)?;
                }
            }
        }
        let rest = &chunks[1..];
        if ids.is_empty() {
            // Every term is the output's own: nothing more to search for.
        } else if index.texts.iter().map(|(_, t)| t.len()).sum::<usize>() < PARALLEL_FROM {
            for &chunk in rest {
                tally.take(search(&searcher, &ids, &mut narrowed, chunk), &task.implies);
            }
        } else {
            // The chunks are searched on two threads and taken in order.
            parallel::ordered(
                rest.len(),
                CHUNK_DEPTH,
                &mut narrowed,
                || Box::new(Vec::with_capacity(CHUNK + longest)),
                |narrowed, c| search(&searcher, &ids, narrowed, rest[c]),
                |_, chunk| tally.take(chunk, &task.implies),
            );
        }
        let Tally { mut masks, mut lines_with, leading, mut steps } = tally;
        // A range of line numbers is where a finding's or a hit's place is in it.
        if !task.ranges.is_empty() {
            for (k, mask) in masks.iter_mut().enumerate() {
                steps += 1;
                let Some(at) = leading_line(index.line(k)) else { continue };
                for &(term, first, last) in &task.ranges {
                    if (first..=last).contains(&at) && *mask & 1 << term == 0 {
                        *mask |= 1 << term;
                        lines_with[term] += 1;
                    }
                }
            }
        }
        let weights: Vec<f64> = (0..task.terms.len())
            .map(|t| {
                if dropped & 1 << t != 0 || task.aside_mask() & 1 << t != 0 {
                    return 0.0;
                }
                let c = lines_with[t];
                // A word that opens the lines it is on names their shape
                // (`commit`, `Date`, `error`), not what was asked for.
                let shape =
                    c >= SHAPE_LINES && leading[t] * 5 >= c * 4 && task.terms[t].iter().all(u8::is_ascii_alphabetic);
                let boost = match (task.terms[t].contains(&b'/'), task.literal[t]) {
                    (true, _) => PATH,
                    (false, true) => LITERAL,
                    (false, false) => 1.0,
                };
                if c == 0 || shape { 0.0 } else { ((n as f64 / c as f64) / COMMON).ln().max(0.0) * boost }
            })
            .collect();
        let weighty: u32 = weights.iter().enumerate().filter(|&(_, &w)| w > 0.0).fold(0, |m, (i, _)| m | 1 << i);
        let lines: Vec<u32> = (0..n).filter(|&k| masks[k] & weighty != 0).map(|k| k as u32).collect();
        let found = (0..task.terms.len()).filter(|&t| lines_with[t] > 0).fold(0u32, |m, t| m | 1 << t);
        let aside = task.aside.iter().map(|g| g & found).filter(|&g| g != 0).collect();
        let names = (0..task.terms.len()).filter(|&t| task.literal[t] && weights[t] > 0.0).fold(0, |m, t| m | 1 << t);
        let parts = task.terms.iter().zip(&task.implies).map(|(t, &i)| if t.contains(&b' ') { 0 } else { i }).collect();
        (!lines.is_empty()).then_some(Matches {
            masks,
            weights,
            parts,
            aside,
            lines,
            names,
            earliest: task.earliest,
            steps,
        })
    }

    /// Line `k`'s score: the weights of the terms on it, a part of that
    /// ([`SET_ASIDE`]) where it holds half or more of a group of terms the
    /// task sets aside (of those found in this output).
    pub(crate) fn score(&self, k: usize) -> f64 {
        self.weight_of(self.masks[k]) * self.aside_share(k)
    }

    /// What line `k` is worth of what it would be: [`SET_ASIDE`] where it
    /// holds half or more of a group of terms the task sets aside, else 1.
    pub(crate) fn aside_share(&self, k: usize) -> f64 {
        let set_aside = self.aside.iter().any(|&g| (self.masks[k] & g).count_ones() * 2 >= g.count_ones());
        if set_aside { SET_ASIDE } else { 1.0 }
    }

    /// The names of weight the task writes as code on line `k` (bit `i`:
    /// term `i`; a test's, a file's, a path): a line holding one is about
    /// that one thing.
    pub(crate) fn names_on(&self, k: usize) -> u32 {
        self.masks[k] & self.names
    }

    /// The terms of weight on every line of `lines` (bit `i`: term `i`),
    /// none when there are fewer than two.
    pub(crate) fn on_every(&self, lines: &[usize]) -> u32 {
        if lines.len() < 2 {
            return 0;
        }
        lines.iter().fold(u32::MAX, |all, &k| all & self.masks[k]) & self.weighed()
    }

    /// Weighs nothing for the terms of `mask`: they name no one part of the
    /// output. `None` when no line holds a term of weight then.
    pub(crate) fn without(mut self, mask: u32) -> Option<Matches> {
        if mask == 0 {
            return Some(self);
        }
        for (i, w) in self.weights.iter_mut().enumerate() {
            if mask & 1 << i != 0 {
                *w = 0.0;
            }
        }
        let weighed = self.weighed();
        self.lines.retain(|&k| self.masks[k as usize] & weighed != 0);
        self.names &= weighed;
        (!self.lines.is_empty()).then_some(self)
    }

    /// The terms of non-zero weight (bit `i`: term `i`).
    fn weighed(&self) -> u32 {
        self.weights.iter().enumerate().filter(|(_, w)| **w > 0.0).fold(0, |m, (i, _)| m | 1 << i)
    }

    /// The sum of the weights of the terms `mask` holds (bit `i`: term `i`).
    pub(crate) fn weight_of(&self, mut mask: u32) -> f64 {
        // The parts found with a term count for a part: one name, not several.
        let mut parts = 0;
        let mut m = mask;
        while m != 0 {
            parts |= self.parts[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        let mut sum = 0.0;
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            sum += self.weights[i] * if parts & 1 << i != 0 { PART_WITH_TERM } else { 1.0 };
            mask &= mask - 1;
        }
        sum
    }

    /// The terms of weight on line `k` (bit `i`: term `i`).
    pub(crate) fn terms_on(&self, k: usize) -> u32 {
        let mask = self.masks[k];
        (0..self.weights.len()).filter(|&i| mask & 1 << i != 0 && self.weights[i] > 0.0).fold(0, |m, i| m | 1 << i)
    }

    /// Reorders `lines` so that those holding a term of weight come first,
    /// the highest score first (the earlier first among equal scores), the
    /// others after them in the order they had, and those the task sets
    /// aside ("ignore the keygen failures") last, in the order they had.
    pub(crate) fn lead_with_matched(&self, lines: &mut Vec<u32>) {
        let (aside, lines_asked): (Vec<u32>, Vec<u32>) =
            lines.iter().partition(|&&k| self.aside_share(k as usize) < 1.0);
        let (mut matched, rest): (Vec<u32>, Vec<u32>) =
            lines_asked.into_iter().partition(|&k| self.lines.binary_search(&k).is_ok());
        matched.sort_by(|&a, &b| self.score(b as usize).total_cmp(&self.score(a as usize)));
        *lines = matched.into_iter().chain(rest).chain(aside).collect();
    }

    /// The lines holding a term of weight, ascending.
    pub(crate) fn lines(&self) -> impl DoubleEndedIterator<Item = usize> + '_ {
        self.lines.iter().map(|&k| k as usize)
    }

    /// The lines holding a term of weight, the highest value first (what
    /// `value` makes of a line's score; the lower `tier` first among equal
    /// values, a definition before its uses, then the earlier). Lazily: the
    /// lines are heaped in `m` steps for `m` lines and each one taken costs
    /// `log m`, so a caller that stops after a few pays for those only.
    pub(crate) fn ranked(&self, tier: impl Fn(usize) -> usize, value: impl Fn(usize, f64) -> f64) -> Ranked {
        let heap: BinaryHeap<RankedLine> = self
            .lines
            .iter()
            .map(|&k| RankedLine {
                value: value(k as usize, self.score(k as usize)),
                tier: tier(k as usize),
                k: k as usize,
            })
            .collect();
        Ranked(heap)
    }
}

/// What [`Matches::find`] has found so far.
struct Tally {
    /// Bit `i` of line `k`: term `i` is on line `k`.
    masks: Vec<u32>,
    /// The lines holding each term.
    lines_with: Vec<usize>,
    /// The lines each term opens (after their indentation).
    leading: Vec<usize>,
    /// Matches read.
    steps: usize,
}

impl Tally {
    /// Adds one chunk's terms, `(base, found, read)`: found in the text
    /// whose first line is line `base`, of `read` matches. A term holds the
    /// terms `implies` gives it (the longest match hides them).
    fn take(&mut self, (base, found, read): (usize, Vec<Found>, usize), implies: &[u32]) {
        self.steps += read;
        for Found { line, term, opens } in found {
            let k = base + line as usize;
            let mut new = (1u32 << term | implies[term as usize]) & !self.masks[k];
            self.masks[k] |= new;
            while new != 0 {
                let i = new.trailing_zeros() as usize;
                self.lines_with[i] += 1;
                self.leading[i] += usize::from(opens && i == term as usize);
                new &= new - 1;
            }
        }
    }
}

/// A term found where it counts: on line `line` of its text, whether it
/// opens the line (after its indentation).
struct Found {
    line: u32,
    term: u32,
    opens: bool,
}

/// The terms found in the chunk of `lines` from unit `from` (the matches
/// that start in it, read past its end by a pattern's length less one), in
/// order, and the matches read. `pattern(p)` is the searcher's pattern `p`
/// with its term and whether it is a short form.
fn chunk_matches<'p>(
    lines: &TextLines<'_>,
    from: usize,
    longest: usize,
    searcher: &Literals,
    narrowed: &mut Vec<u8>,
    pattern: impl Fn(usize) -> &'p (Vec<u8>, usize, bool),
) -> (Vec<Found>, usize) {
    let text = lines.text;
    let to = (from + CHUNK).min(text.len());
    kernels::fold_ascii(&text[from..(to + longest - 1).min(text.len())], narrowed);
    let mut found = Vec::new();
    let mut read = 0;
    // The line of the last match: matches come in order, so each is found
    // by a step forward, not a search.
    let mut line = lines.line_at(from);
    for (start, end, p) in searcher.find_iter(narrowed) {
        read += 1;
        let (at, len) = (from + start, end - start);
        let (pattern, term, short) = pattern(p);
        // A file's extension ends a name, wherever it starts.
        let whole = if is_extension(pattern) {
            ends_word(text, at + len)
        } else {
            starts_word(text, at) && !(names_file(pattern) && joined_to_name(text, at))
        };
        if at >= to || !whole {
            continue;
        }
        while lines.starts.get(line + 1).is_some_and(|&s| s as usize <= at) {
            line += 1;
        }
        // A short form stands for its word only where a word ends with it.
        if *short && !ends_word(text, at + len) {
            continue;
        }
        let start = lines.starts[line] as usize;
        let opens = at - start <= LEAD && text[start..at].iter().all(|&u| u == 0x20 || u == 0x09);
        found.push(Found { line: line as u32, term: *term as u32, opens });
    }
    (found, read)
}

/// What [`Matches::find`] searches for, each with its term and whether it
/// is a short form: every term, then the short forms of each word of prose
/// (not written as code nor a part of a term that is, letters only) of
/// [`SHORT_FORM_MIN`] + 2 letters or more, its first [`SHORT_FORM_MIN`] to [`SHORT_FORM_MAX`] letters but
/// two (`Hira` for `hiragana`, `conf` and `config` for `configuration`,
/// `auth` for `authentication`), where no stop word or other term is one.
/// Code abbreviates the words a request writes out; a short form is found
/// only as a whole word or `camelCase` part, and counts as its word.
fn patterns(task: &Task) -> Vec<(Vec<u8>, usize, bool)> {
    let mut pats: Vec<(Vec<u8>, usize, bool)> =
        task.terms.iter().enumerate().map(|(i, t)| (t.clone(), i, false)).collect();
    // The parts of a term written as code (`iterutil` of `boltons/iterutils.py`) are code too.
    let parts = (0..task.terms.len()).filter(|&i| task.literal[i]).fold(0u32, |m, i| m | task.implies[i]);
    for (i, t) in task.terms.iter().enumerate() {
        let code = task.literal[i] || parts & 1 << i != 0;
        if code || t.len() < SHORT_FORM_MIN + 2 || !t.iter().all(u8::is_ascii_alphabetic) {
            continue;
        }
        for len in SHORT_FORM_MIN..=(t.len() - 2).min(SHORT_FORM_MAX) {
            let short = &t[..len];
            if !is_stop_word(short) && !task.terms.iter().any(|u| u.as_slice() == short) {
                pats.push((short.to_vec(), i, true));
            }
        }
    }
    pats
}

/// Whether a word ends at unit `at` of `text`: the end of the text, or a
/// unit that is no lower-case letter or digit (an upper-case one starts a
/// `camelCase` part).
fn ends_word(text: &[u16], at: usize) -> bool {
    text.get(at).is_none_or(|&u| !(u < 0x80 && ((u as u8).is_ascii_lowercase() || (u as u8).is_ascii_digit())))
}

/// Whether `pattern` names a file (`validate.py`, `lib/parse.js`): a
/// name, a dot and an extension of letters.
fn names_file(pattern: &[u8]) -> bool {
    pattern
        .iter()
        .rposition(|&b| b == b'.')
        .is_some_and(|dot| dot > 0 && dot + 1 < pattern.len() && pattern[dot + 1..].iter().all(u8::is_ascii_alphabetic))
}

/// Whether the name found at unit `at` of `text` goes on one before it
/// (`test_validate.py` holds `validate.py`, another file).
fn joined_to_name(text: &[u16], at: usize) -> bool {
    at.checked_sub(1).and_then(|b| text.get(b)).is_some_and(|&u| u == u16::from(b'_') || u == u16::from(b'-'))
}

/// Whether a term found at unit `at` of `text` starts a word there: the
/// unit before is no letter or digit, or a lower-case letter before an
/// upper-case one (`parse|Date`), or a letter before a digit (`TS|2552`).
fn starts_word(text: &[u16], at: usize) -> bool {
    let Some(&before) = at.checked_sub(1).and_then(|b| text.get(b)) else { return true };
    let ascii = |u: u16| (u < 0x80).then_some(u as u8);
    match (ascii(before), ascii(text[at])) {
        (Some(b), Some(u)) if b.is_ascii_alphanumeric() => {
            (b.is_ascii_lowercase() && u.is_ascii_uppercase()) || (b.is_ascii_alphabetic() && u.is_ascii_digit())
        }
        _ => true,
    }
}

/// A matched line as [`Matches::ranked`] orders it: the greater comes first.
struct RankedLine {
    value: f64,
    tier: usize,
    k: usize,
}

impl Ord for RankedLine {
    fn cmp(&self, other: &Self) -> Ordering {
        self.value.total_cmp(&other.value).then(other.tier.cmp(&self.tier)).then(other.k.cmp(&self.k))
    }
}

impl PartialOrd for RankedLine {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for RankedLine {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for RankedLine {}

/// The matched lines in rank order, taken one at a time (see [`Matches::ranked`]).
pub(crate) struct Ranked(BinaryHeap<RankedLine>);

impl Iterator for Ranked {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        self.0.pop().map(|r| r.k)
    }
}
