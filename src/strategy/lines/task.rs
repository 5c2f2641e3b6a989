//! The task's words: what the user asked and the call that printed the
//! text, read as search terms that raise a line's rank within a plan.
//!
//! A [`Task`] is the words of a request ("the 304 responses still carry a
//! body") and of a call (`pytest -k test_parse_date`), split as code splits
//! identifiers (`parseDate`, `parse_date`, `parse-date` and a path's
//! segments each give their parts, and the whole word is a term too),
//! lower-cased, with common English words and short fragments left out, at
//! most [`MAX_TERMS`] of them. An empty task changes nothing: every plan is
//! byte for byte what it is without one.
//!
//! [`Matches`] reads one output for the task's terms in one pass (a term
//! matches where it starts a word or a `camelCase` part, so `date` is found
//! in `parseDate` and `date_of` but not in `update`) and weighs each term by
//! its rarity in that output, `ln(lines / (2 × lines holding it))`: a term
//! on half the lines or more is worth nothing (`error` in a type checker's
//! flood, the pattern of a `grep` in its own hits), and so is a word that
//! opens most of the (eight or more) lines it is on, which names their
//! shape (`commit`, `Date:`, `error:`); a term on one line of thousands is
//! worth the most. A line's score is the sum of the weights of the terms
//! it holds. A long word of prose is found by its short forms too, as
//! whole words (`Hira` for `Hiragana`, `auth` for `authentication`).
//!
//! Cost: one pass over the text, a chunk at a time (the memory is one
//! chunk and four bytes a line), plus a step per match; a term on three
//! lines in four of the first chunk (of 64 lines at least) is the
//! output's own vocabulary: it weighs nothing and is no longer searched.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use aho_corasick::{AhoCorasickBuilder, MatchKind};

use super::index::LineIndex;

/// Most terms a task is read as (the first ones, in the order written).
pub const MAX_TERMS: usize = 32;
/// Shortest part of a word that is a term (a number: three digits, `304`).
const MIN_TERM: usize = 3;
/// A term on one line in this many or more weighs nothing.
const COMMON: f64 = 2.0;
/// What a term written as code (`parse_date`, `src/router.ts`, `TS2552`)
/// weighs beside a word of prose as rare.
const LITERAL: f64 = 2.0;
/// Shortest short form of a prose word searched for (see [`patterns`]).
const SHORT_FORM_MIN: usize = 4;
/// Longest short form of a prose word searched for.
const SHORT_FORM_MAX: usize = 6;
/// Most indentation before a term that opens its line.
const LEAD: usize = 16;
/// Lines a word opens, at least, to be read as the output's shape.
const SHAPE_LINES: usize = 8;
/// Units narrowed and searched at a time.
const CHUNK: usize = 1 << 16;

/// Words that say what to do or how, not what to look for.
const STOP_WORDS: &[&str] = &[
    "about", "above", "after", "again", "all", "also", "and", "any", "are", "because", "been", "before", "being",
    "below", "between", "both", "but", "can", "cannot", "code", "could", "did", "does", "doing", "done", "each",
    "even", "every", "few", "file", "files", "find", "finding", "findings", "fix", "for", "from", "get", "gets",
    "give", "got", "had", "has", "have", "having", "her", "here", "his", "how", "into", "issue", "its", "just", "know",
    "let", "like", "line", "lines", "list", "look", "make", "many", "may", "might", "more", "most", "much", "must",
    "need", "needs", "not", "now", "off", "once", "one", "only", "other", "our", "out", "output", "over", "please",
    "problem", "problems", "result", "results", "rule", "rules", "same", "see", "seems", "should", "show", "some",
    "still", "such", "tell", "than", "that", "the", "their", "them", "then", "there", "these", "they", "thing",
    "things", "this", "those", "through", "too", "under", "until", "use", "used", "very", "want", "wants", "was",
    "way", "were", "what", "when", "where", "which", "while", "who", "why", "will", "with", "without", "work", "would",
    "yet", "you", "your",
];

/// The terms of a task, lower-cased ASCII; empty when there is no task.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Task {
    terms: Vec<Vec<u8>>,
    /// Whether each term is written as code writes it (a whole identifier
    /// or path of several parts, or one holding a digit): such a term names
    /// what was asked for more surely than a word of prose.
    literal: Vec<bool>,
    /// The terms each term holds (bit `j`: term `j` is a part of it): found
    /// where it is, they are there too.
    implies: Vec<u32>,
}

impl Task {
    /// The terms of the requests `texts`, in order, each once.
    pub fn new(texts: &[&[u16]]) -> Task {
        Task::of(texts.iter().map(|t| request_words(t)))
    }

    /// The terms of a request `task` and of the shell `command` that
    /// printed the output: of the command, its arguments (a path, a
    /// pattern, a test filter), not its program or its flags.
    pub fn asked(task: &[u16], command: Option<&[u16]>) -> Task {
        Task::of_call(&[task], command, None)
    }

    /// The terms of what a session says a result was asked for: the texts
    /// `asked` (the request, the model's words), then the call's shell
    /// `command` as [`Task::asked`] reads it or, for a call with no
    /// command, the words of its `args`.
    pub fn of_call(asked: &[&[u16]], command: Option<&[u16]>, args: Option<&[u16]>) -> Task {
        let call = match (command, args) {
            (Some(c), _) => words_of_command(c).collect(),
            (None, Some(a)) => words(a).collect(),
            (None, None) => Vec::new(),
        };
        Task::of(asked.iter().map(|t| request_words(t)).chain([call]))
    }

    fn of(texts: impl Iterator<Item = Vec<Vec<u8>>>) -> Task {
        let (mut terms, mut literal, mut implies): (Vec<Vec<u8>>, Vec<bool>, Vec<u32>) =
            (Vec::new(), Vec::new(), Vec::new());
        for text in texts {
            for word in text {
                // The word's whole term, if it has one, holds its parts.
                let mut whole_at = None;
                for (term, whole) in terms_of(&word) {
                    let at = match terms.iter().position(|t| *t == term) {
                        Some(at) => Some(at),
                        None if terms.len() < MAX_TERMS => {
                            literal.push(whole || term.iter().any(u8::is_ascii_digit));
                            implies.push(0);
                            terms.push(term);
                            Some(terms.len() - 1)
                        }
                        None => None,
                    };
                    match (at, whole, whole_at) {
                        (Some(at), true, _) => whole_at = Some(at),
                        (Some(at), false, Some(w)) if at != w => implies[w] |= 1 << at,
                        _ => {}
                    }
                }
            }
        }
        // A term found inside another where a word starts (`models.py` in
        // `requests/models.py`) is found where that one is.
        for i in 0..terms.len() {
            for j in (0..terms.len()).filter(|&j| j != i) {
                let (outer, inner) = (&terms[i], &terms[j]);
                let inside = (0..outer.len().saturating_sub(inner.len()) + 1)
                    .any(|p| outer[p..].starts_with(inner) && (p == 0 || !outer[p - 1].is_ascii_alphanumeric()));
                if inside && inner.len() < outer.len() {
                    implies[i] |= 1 << j;
                }
            }
        }
        Task { terms, literal, implies }
    }

    /// Whether there is nothing to look for.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The terms, as searched for.
    pub fn terms(&self) -> impl Iterator<Item = &str> {
        // Terms are ASCII by construction.
        self.terms.iter().map(|t| std::str::from_utf8(t).unwrap_or_default())
    }
}

/// The words of a shell command's arguments: after its program (the
/// first word) and its subcommand, without its flags (words that start
/// with `-`).
fn words_of_command(command: &[u16]) -> impl Iterator<Item = Vec<u8>> + '_ {
    // Each command of a pipeline or list (`find . | sort`, `cd x && make`)
    // names its own program.
    command.split(|&u| matches!(u, 0x7C | 0x3B | 0x26)).flat_map(|part| {
        part.split(|&u| u == u16::from(b' ') || u == u16::from(b'\t'))
            .filter(|w| !w.is_empty())
            .enumerate()
            // The program, a subcommand right after it (`git log`, `ruff
            // check`: a bare lower-case word), and the flags.
            .filter(|(i, w)| *i > 1 || (*i == 1 && !w.iter().all(|&u| u16::from(b'a') <= u && u <= u16::from(b'z'))))
            .map(|(_, w)| w)
            .filter(|w| w.first() != Some(&u16::from(b'-')))
            .flat_map(words)
    })
}

/// Words that set aside what follows them in their clause ("ignore the
/// S101 ones", "apart from the missing-annotation noise").
const SET_ASIDE: &[&str] =
    &["apart", "aside", "besides", "except", "excluding", "ignore", "ignoring", "skip", "skipping"];

/// The words of a request: [`words`] of each clause (ended by `,` `;` `!`
/// `?`, a new line, or a `.` before white space), without those after a
/// word that sets them aside ([`SET_ASIDE`]).
fn request_words(text: &[u16]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut from = 0;
    for at in 0..=text.len() {
        let ends = at == text.len()
            || matches!(text[at], 0x2C | 0x3B | 0x21 | 0x3F | 0x0A)
            || (text[at] == 0x2E && text.get(at + 1).is_none_or(|&u| u == 0x20 || u == 0x0A || u == 0x09));
        if ends {
            for word in words(&text[from..at]) {
                let lower = word.to_ascii_lowercase();
                if SET_ASIDE.iter().any(|w| w.as_bytes() == lower.as_slice()) {
                    break;
                }
                out.push(word);
            }
            from = at + 1;
        }
    }
    out
}

/// The words of `text`: runs of ASCII letters, digits, `_`, `-`, `.`,
/// `/` and `:`, without the punctuation that ends a sentence or opens a
/// flag (`-k`, `--task`, `./`).
fn words(text: &[u16]) -> impl Iterator<Item = Vec<u8>> + '_ {
    let is_word = |u: u16| {
        u < 0x80 && (u as u8).is_ascii_alphanumeric() || [b'_', b'-', b'.', b'/', b':'].map(u16::from).contains(&u)
    };
    text.split(move |&u| !is_word(u)).filter_map(|w| {
        let w: Vec<u8> = w.iter().map(|&u| u as u8).collect();
        let trim = |b: &u8| matches!(b, b'-' | b'.' | b'/' | b':');
        let start = w.iter().position(|b| !trim(b))?;
        let end = w.iter().rposition(|b| !trim(b))? + 1;
        Some(w[start..end].to_vec())
    })
}

/// The terms of one word: its parts (split at `_ - . / :` and where a
/// lower-case letter meets an upper-case one), each stemmed, and the whole
/// word when it has more than one part (`true` beside it).
fn terms_of(word: &[u8]) -> Vec<(Vec<u8>, bool)> {
    let mut parts: Vec<Vec<u8>> = Vec::new();
    let mut part: Vec<u8> = Vec::new();
    for (i, &b) in word.iter().enumerate() {
        let camel = i > 0 && word[i - 1].is_ascii_lowercase() && b.is_ascii_uppercase();
        if !b.is_ascii_alphanumeric() || camel {
            parts.push(std::mem::take(&mut part));
        }
        if b.is_ascii_alphanumeric() {
            part.push(b.to_ascii_lowercase());
        }
    }
    parts.push(part);
    let parts: Vec<Vec<u8>> = parts.into_iter().filter(|p| !p.is_empty()).collect();
    let mut out: Vec<(Vec<u8>, bool)> = Vec::new();
    if parts.len() > 1 {
        out.push((word.to_ascii_lowercase(), true));
    }
    for p in &parts {
        let numeric = p.iter().all(u8::is_ascii_digit);
        let stop = STOP_WORDS.binary_search(&std::str::from_utf8(p).unwrap_or_default()).is_ok();
        if p.len() >= MIN_TERM && !stop && (numeric || p.iter().any(u8::is_ascii_alphabetic)) {
            out.push((stem(p), false));
        }
    }
    out
}

/// `word` without an English plural's or tense's ending, so that the stem
/// is found in each form (`responses` → `response`, `classes` → `class`,
/// `stripped` → `strip`, `parsing` → `pars`).
fn stem(word: &[u8]) -> Vec<u8> {
    let n = word.len();
    let ends = |s: &[u8]| word.ends_with(s);
    let cut = if n >= 6 && ends(b"ing") {
        3
    } else if n >= 5 && (ends(b"ed") || ends(b"ches") || ends(b"shes") || ends(b"sses") || ends(b"xes")) {
        2
    } else if n >= 4 && ends(b"s") && !ends(b"ss") && !ends(b"us") && !ends(b"is") {
        1
    } else {
        0
    };
    let mut stem = word[..n - cut].to_vec();
    // `stripped` → `stripp` → `strip`.
    if cut >= 2 && stem.len() >= 4 && stem[stem.len() - 1] == stem[stem.len() - 2] && stem[stem.len() - 1] != b's' {
        stem.pop();
    }
    stem
}

/// Where a task's terms are in one output: a bit per term for each line,
/// and each term's weight.
pub(crate) struct Matches {
    /// Bit `i` of line `k`: term `i` is on line `k`.
    masks: Vec<u32>,
    /// Each term's weight in this output.
    weights: Vec<f64>,
    /// The lines holding a term of non-zero weight, ascending.
    lines: Vec<u32>,
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
        let build = |live: &[usize]| {
            AhoCorasickBuilder::new().match_kind(MatchKind::LeftmostLongest).build(live.iter().map(|&p| &pats[p].0))
        };
        // The patterns searched for (pattern `p` is `pats[live[p]]`).
        let mut ids: Vec<usize> = (0..pats.len()).collect();
        let mut searcher = build(&ids).ok()?;
        // Terms on most lines of the first chunk: the output's own words, no longer searched.
        let mut dropped = 0u32;
        let longest = pats.iter().map(|p| p.0.len()).max().unwrap_or(1);
        let n = index.line_count();
        let mut masks = vec![0u32; n];
        let mut lines_with = vec![0usize; task.terms.len()];
        // Lines a term opens (after their indentation).
        let mut leading = vec![0usize; task.terms.len()];
        let mut steps = 0;
        let mut narrowed = Vec::with_capacity(CHUNK + longest);
        for (t, (_, text)) in index.texts.iter().enumerate() {
            let lines = index.lines_of(t);
            let base = index.bounds[t].start;
            let mut from = 0;
            // The line of the last match: matches come in order, so each is
            // found by a step forward, not a search.
            let mut line = 0;
            while from < text.len() {
                let to = (from + CHUNK).min(text.len());
                // Reads past the chunk by a term's length, for the matches that start in it.
                let read = &text[from..(to + longest - 1).min(text.len())];
                narrowed.clear();
                narrowed.extend(read.iter().map(|&u| if u < 0x80 { (u as u8).to_ascii_lowercase() } else { 0x80 }));
                for m in searcher.find_iter(&narrowed[..]) {
                    steps += 1;
                    let at = from + m.start();
                    if at >= to || !starts_word(text, at) {
                        continue;
                    }
                    if at < lines.starts[line] as usize {
                        line = lines.line_at(at);
                    }
                    while lines.starts.get(line + 1).is_some_and(|&s| s as usize <= at) {
                        line += 1;
                    }
                    let (_, term, short) = pats[ids[m.pattern().as_usize()]];
                    // A short form stands for its word only where a word ends with it.
                    if short && !ends_word(text, at + m.len()) {
                        continue;
                    }
                    let k = base + line;
                    // The term, and the parts it holds (the longest match hides them).
                    let mut new = (1u32 << term | task.implies[term]) & !masks[k];
                    masks[k] |= new;
                    let start = lines.starts[line] as usize;
                    let opens = at - start <= LEAD && text[start..at].iter().all(|&u| u == 0x20 || u == 0x09);
                    while new != 0 {
                        let t = new.trailing_zeros() as usize;
                        lines_with[t] += 1;
                        leading[t] += usize::from(opens && t == term);
                        new &= new - 1;
                    }
                }
                if from == 0 && t == 0 && to < text.len() {
                    let seen = lines.line_at(to - 1) + 1;
                    for (i, &c) in lines_with.iter().enumerate() {
                        if seen >= SHAPE_LINES * 8 && c * 4 > seen * 3 {
                            dropped |= 1 << i;
                        }
                    }
                    if dropped != 0 {
                        ids.retain(|&p| dropped & 1 << pats[p].1 == 0);
                        if ids.is_empty() {
                            break;
                        }
                        searcher = build(&ids).ok()?;
                    }
                }
                from = to;
            }
        }
        let weights: Vec<f64> = (0..task.terms.len())
            .map(|t| {
                if dropped & 1 << t != 0 {
                    return 0.0;
                }
                let c = lines_with[t];
                // A word that opens the lines it is on names their shape
                // (`commit`, `Date`, `error`), not what was asked for.
                let shape =
                    c >= SHAPE_LINES && leading[t] * 5 >= c * 4 && task.terms[t].iter().all(u8::is_ascii_alphabetic);
                let boost = if task.literal[t] { LITERAL } else { 1.0 };
                if c == 0 || shape { 0.0 } else { ((n as f64 / c as f64) / COMMON).ln().max(0.0) * boost }
            })
            .collect();
        let weighty: u32 = weights.iter().enumerate().filter(|&(_, &w)| w > 0.0).fold(0, |m, (i, _)| m | 1 << i);
        let lines: Vec<u32> = (0..n).filter(|&k| masks[k] & weighty != 0).map(|k| k as u32).collect();
        (!lines.is_empty()).then_some(Matches { masks, weights, lines, steps })
    }

    /// Line `k`'s score: the weights of the terms on it.
    pub(crate) fn score(&self, k: usize) -> f64 {
        let mut mask = self.masks[k];
        let mut score = 0.0;
        while mask != 0 {
            score += self.weights[mask.trailing_zeros() as usize];
            mask &= mask - 1;
        }
        score
    }

    /// The terms of weight on line `k` (bit `i`: term `i`).
    pub(crate) fn terms_on(&self, k: usize) -> u32 {
        let mask = self.masks[k];
        (0..self.weights.len()).filter(|&i| mask & 1 << i != 0 && self.weights[i] > 0.0).fold(0, |m, i| m | 1 << i)
    }

    /// Reorders `lines` so that those holding a term of weight come first,
    /// the highest score first (the earlier first among equal scores), the
    /// others after them in the order they had.
    pub(crate) fn lead_with_matched(&self, lines: &mut Vec<u32>) {
        let (mut matched, rest): (Vec<u32>, Vec<u32>) =
            lines.iter().partition(|&&k| self.lines.binary_search(&k).is_ok());
        matched.sort_by(|&a, &b| self.score(b as usize).total_cmp(&self.score(a as usize)));
        *lines = matched.into_iter().chain(rest).collect();
    }

    /// The lines holding a term of weight, ascending.
    pub(crate) fn lines(&self) -> impl Iterator<Item = usize> + '_ {
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
            let stop = STOP_WORDS.binary_search(&std::str::from_utf8(short).unwrap_or_default()).is_ok();
            if !stop && !task.terms.iter().any(|u| u.as_slice() == short) {
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

#[cfg(test)]
mod tests;

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
