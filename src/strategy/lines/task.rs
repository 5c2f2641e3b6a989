//! The task's words: what the user asked and the call that printed the
//! text, read as search terms that raise a line's rank within a plan.
//!
//! A [`Task`] is the words of a request ("the 304 responses still carry a
//! body") and of a call (`pytest -k test_parse_date`), split as code splits
//! identifiers (`parseDate`, `parse_date`, `parse-date` and a path's
//! segments each give their parts, and the whole word is a term too),
//! lower-cased, with common English words and short fragments left out, at
//! most [`MAX_TERMS`] of them. A request is also read as a tool words
//! what it asks: a word it counts with the word counting it (`many
//! branch` of "too many branches"), a hyphenated word joined (`keepalive`),
//! both after every other word, and a participle it negates with `un`
//! (`undefined` of "aren't defined"). An empty task changes nothing: every
//! plan is byte for byte what it is without one.
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

/// Most terms a task is read as (the first ones, in the order written).
pub const MAX_TERMS: usize = 32;
/// Shortest part of a word that is a term (a number: three digits, `304`).
const MIN_TERM: usize = 3;

/// Words that say what to do or how, not what to look for.
// Packed: words over ten letters would set rustfmt to one a line.
#[rustfmt::skip]
const STOP_WORDS: &[&str] = &[
    "about", "above", "actual", "actually", "after", "again", "all", "already", "also", "although", "and", "another",
    "any", "are", "aren", "because", "been", "before", "being", "below", "between", "bit", "both", "but", "came",
    "can", "cannot", "care", "code", "come", "comes", "could", "did", "didn", "differently", "does", "doesn", "doing",
    "don", "done", "each", "else", "even", "every", "exactly", "few", "file", "files", "find", "finding", "findings",
    "fix", "for", "from", "get", "gets", "give", "gives", "going", "got", "had", "happen", "happens", "has", "have",
    "having", "her", "here", "his", "how", "into", "isn", "issue", "its", "just", "know", "let", "like", "line",
    "lines", "list", "look", "make", "many", "may", "might", "more", "most", "mostly", "much", "must", "need", "needs",
    "not", "nothing", "now", "occasionally", "off", "once", "one", "only", "other", "our", "out", "output", "over",
    "partly", "please", "point", "probably", "problem", "problems", "real", "really", "remember", "result", "results",
    "rule", "rules", "said", "same", "say", "says", "see", "seem", "seems", "several", "should", "show", "some",
    "somebody", "someone", "something", "sometimes", "somewhere", "still", "such", "suspect", "tell", "than", "that",
    "the", "their", "them", "then", "there", "these", "they", "thing", "things", "think", "thinking", "this", "those",
    "though", "through", "told", "too", "tried", "try", "trying", "under", "understand", "until", "use", "used",
    "vaguely", "very", "want", "wants", "was", "wasn", "way", "were", "what", "whatever", "when", "where", "whether",
    "which", "while", "who", "why", "will", "with", "without", "won", "work", "would", "yet", "you", "your",
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
    /// The terms that are a range of line numbers (`1650-1720`), each with
    /// its first and last line: found too where a finding's or a hit's
    /// place is in it (`fields.py:1682:`).
    ranges: Vec<(usize, u32, u32)>,
    /// The terms a request sets aside ("ignore the `__pycache__` files",
    /// "(not the tests)"), after every term it asks for (bit `i`: term
    /// `i`), a mask for each clause or parenthesis that sets them aside.
    aside: Vec<u32>,
    /// Whether the request asks when something first appeared ("which
    /// release first shipped", "when was it introduced"): in a commit log,
    /// newest first, the oldest commit holding a term answers it.
    earliest: bool,
}

/// Words of a request that ask for the first time something appeared.
const EARLIEST: &[&str] =
    &["earliest", "first", "initially", "introduce", "introduced", "introduces", "oldest", "originally"];

impl Task {
    /// The terms of the requests `texts`, in order, each once.
    pub fn new(texts: &[&[u16]]) -> Task {
        let (asked, aside): (Vec<_>, Vec<_>) = texts.iter().map(|t| request_words(t)).unzip();
        Task::of(asked.into_iter(), aside.concat())
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
        let call: Vec<Vec<u8>> = match (command, args) {
            (Some(c), _) => words_of_command(c).collect(),
            (None, Some(a)) => words(a).collect(),
            (None, None) => Vec::new(),
        };
        // The programs the command runs name the tool, not the subject.
        let programs = command.map(programs_of_command).unwrap_or_default();
        let tool = |w: &Vec<u8>| {
            let w = w.strip_prefix(&[CODE_MARK][..]).unwrap_or(w);
            programs.iter().any(|p| p.eq_ignore_ascii_case(w))
        };
        let (asked, aside): (Vec<_>, Vec<_>) = asked.iter().map(|t| request_words(t)).unzip();
        let asked = asked.into_iter().map(|ws| ws.into_iter().filter(|w| !tool(w)).collect::<Vec<_>>());
        let call = call.into_iter().filter(|w| !tool(w)).collect();
        Task::of(asked.chain([call]), aside.concat())
    }

    /// The terms of the words `texts` asks for, then of the words of each
    /// group `aside` sets aside that are not among them.
    fn of(texts: impl Iterator<Item = Vec<Vec<u8>>>, aside: Vec<Vec<Vec<u8>>>) -> Task {
        let (mut terms, mut literal, mut implies): (Vec<Vec<u8>>, Vec<bool>, Vec<u32>) =
            (Vec::new(), Vec::new(), Vec::new());
        let mut ranges = Vec::new();
        let asked = texts.collect::<Vec<_>>();
        let mut groups = vec![0u32; aside.len()];
        let mut aside_from = None;
        // Terms marked late come after every word: they never take a word's room.
        let (late, words): (Vec<_>, Vec<_>) = asked.into_iter().flatten().partition(|w| w.first() == Some(&LATE_MARK));
        let earliest = words.iter().any(|w| is_one_of(w.strip_prefix(&[CODE_MARK][..]).unwrap_or(w), EARLIEST));
        let words = words.into_iter().chain(late).map(|w| (None, w));
        for (group, word) in
            words.chain(aside.into_iter().enumerate().flat_map(|(g, ws)| ws.into_iter().map(move |w| (Some(g), w))))
        {
            if group.is_some() && aside_from.is_none() {
                aside_from = Some(terms.len());
            }
            let setting_aside = group.is_some();
            if !setting_aside
                && let Some((first, last)) = line_range(&word)
                && let Some(at) = intern(&mut terms, &mut literal, &mut implies, word.clone(), true)
            {
                if !ranges.iter().any(|&(t, _, _)| t == at) {
                    ranges.push((at, first, last));
                }
                continue;
            }
            // Words counted (`many branch`) and joined (`keepalive`) are a term as written, of prose.
            if let Some((&LATE_MARK, term)) = word.split_first() {
                intern(&mut terms, &mut literal, &mut implies, term.to_vec(), false);
                continue;
            }
            // A phrase quoted is a term as it is written.
            if let Some((&PHRASE_MARK, phrase)) = word.split_first() {
                if group.is_some() && terms.iter().position(|t| t == phrase).is_some_and(|at| Some(at) < aside_from) {
                    continue;
                }
                let at = intern(&mut terms, &mut literal, &mut implies, phrase.to_vec(), true);
                if let (Some(g), Some(at)) = (group, at) {
                    groups[g] |= 1 << at;
                }
                continue;
            }
            // A word written as code is a term as it is, when it is one part.
            let (word, code) = match word.split_first() {
                Some((&CODE_MARK, rest)) => (rest.to_vec(), true),
                _ => (word, false),
            };
            let parts = terms_of(&word);
            // (One part that is no stop word: `list` says how, even as code.)
            let one_part = code && parts.len() == 1 && word.iter().all(u8::is_ascii_alphanumeric);
            let word_terms = if one_part { vec![(word.to_ascii_lowercase(), true)] } else { parts };
            // The word's whole term, if it has one, holds its parts.
            let mut whole_at = None;
            let has_whole = word_terms.iter().any(|&(_, whole)| whole);
            for (term, whole) in word_terms {
                let is_literal = whole || term.iter().any(u8::is_ascii_digit);
                // A word set aside that is also asked for, or a form of one
                // asked for (`failure` where `fail` is asked), is
                // asked for; a word set aside is set aside whole, not by
                // its parts (`typing-only`, not `typ`).
                let variant = |long: &[u8], short: &[u8]| {
                    long.starts_with(short) && long[short.len()..].iter().all(u8::is_ascii_alphabetic)
                };
                let asked_for = |t: &Vec<u8>| variant(t, &term) || variant(&term, t);
                if setting_aside
                    && (has_whole && !whole || terms[..aside_from.unwrap_or(terms.len())].iter().any(asked_for))
                {
                    continue;
                }
                let at = intern(&mut terms, &mut literal, &mut implies, term, is_literal);
                if let (Some(g), Some(at)) = (group, at) {
                    groups[g] |= 1 << at;
                }
                match (at, whole, whole_at) {
                    (Some(at), true, _) => whole_at = Some(at),
                    (Some(at), false, Some(w)) if at != w => implies[w] |= 1 << at,
                    _ => {}
                }
            }
        }
        let aside_from = aside_from.unwrap_or(terms.len());
        let aside = groups.into_iter().filter(|&g| g != 0).collect();
        // A term found inside another where a word starts (`models.py` in
        // `requests/models.py`) is found where that one is (a term asked
        // for inside one set aside, or the reverse, is not).
        for i in 0..terms.len() {
            for j in (0..terms.len()).filter(|&j| j != i && (i >= aside_from) == (j >= aside_from)) {
                let (outer, inner) = (&terms[i], &terms[j]);
                let inside = (0..outer.len().saturating_sub(inner.len()) + 1)
                    .any(|p| outer[p..].starts_with(inner) && (p == 0 || !outer[p - 1].is_ascii_alphanumeric()));
                if inside && inner.len() < outer.len() {
                    implies[i] |= 1 << j;
                }
            }
        }
        Task { terms, literal, implies, ranges, aside, earliest }
    }

    /// Whether there is nothing to look for.
    pub fn is_empty(&self) -> bool {
        self.terms.len() == self.aside_mask().count_ones() as usize
    }

    /// The terms set aside, in any group.
    fn aside_mask(&self) -> u32 {
        self.aside.iter().fold(0, |m, g| m | g)
    }

    /// The terms asked for, as searched for.
    pub fn terms(&self) -> impl Iterator<Item = &str> {
        // Terms are ASCII by construction.
        let asked = self.terms.len() - self.aside_mask().count_ones() as usize;
        self.terms[..asked].iter().map(|t| std::str::from_utf8(t).unwrap_or_default())
    }
}

/// Where `term` is among `terms`: added (written as code where `literal`,
/// holding no other term yet) when it is new and there are fewer than
/// [`MAX_TERMS`]; `None` when there is no room for it.
fn intern(
    terms: &mut Vec<Vec<u8>>,
    literal: &mut Vec<bool>,
    implies: &mut Vec<u32>,
    term: Vec<u8>,
    is_literal: bool,
) -> Option<usize> {
    if let Some(at) = terms.iter().position(|t| *t == term) {
        return Some(at);
    }
    (terms.len() < MAX_TERMS).then(|| {
        terms.push(term);
        literal.push(is_literal);
        implies.push(0);
        terms.len() - 1
    })
}

/// Two-letter English words, which a capital at a sentence's start does not
/// make a name, and the names of a change's way in (`CI`, `PR`), which say
/// how, not what.
const TWO_LETTER_WORDS: &[&str] = &[
    "am", "an", "as", "at", "be", "by", "ci", "do", "go", "he", "hi", "if", "in", "is", "it", "me", "my", "no", "of",
    "oh", "ok", "on", "or", "pr", "so", "to", "up", "us", "we",
];

/// Whether `word` is a two-letter name written with a capital (`Qt`, `Tk`,
/// `IO`, `PM`), which is a term though shorter than [`MIN_TERM`].
fn is_acronym(word: &[u8]) -> bool {
    word.len() == 2
        && word.iter().all(u8::is_ascii_alphabetic)
        && word[0].is_ascii_uppercase()
        && !is_one_of(word, TWO_LETTER_WORDS)
}

/// Most lines a range of line numbers spans (`1650-1720`), so a span of
/// years or a version (`2019-2023` is one, `1-99999` is not) stays small.
const RANGE_MAX: u32 = 5000;

/// The first and last line of `word` read as a range of line numbers: two
/// numbers joined by `-`, the first from 1 and smaller, at most
/// [`RANGE_MAX`] apart.
fn line_range(word: &[u8]) -> Option<(u32, u32)> {
    let dash = word.iter().position(|&b| b == b'-')?;
    let number = |part: &[u8]| -> Option<u32> {
        (!part.is_empty() && part.len() <= 9 && part.iter().all(u8::is_ascii_digit))
            .then(|| part.iter().fold(0, |n, &d| n * 10 + u32::from(d - b'0')))
    };
    let (first, last) = (number(&word[..dash])?, number(&word[dash + 1..])?);
    (first >= 1 && first < last && last - first <= RANGE_MAX).then_some((first, last))
}

/// Longest file extension read as one (`.proto`), its dot aside.
const EXTENSION_MAX: usize = 5;

/// Whether `word` is a file's extension written alone: a dot, then one to
/// [`EXTENSION_MAX`] letters or digits, a letter first (`.so`, `.d`, not `.5`).
pub(super) fn is_extension(word: &[u8]) -> bool {
    matches!(word, [b'.', first, rest @ ..] if first.is_ascii_alphabetic()
        && rest.len() < EXTENSION_MAX
        && rest.iter().all(u8::is_ascii_alphanumeric))
}

/// The terms of one word: its parts (split at `_ - . / :` and where a
/// lower-case letter meets an upper-case one), each stemmed, and the whole
/// word when it has more than one part (`true` beside it), then a dotted
/// name's module paths ([`module_paths`]).
fn terms_of(word: &[u8]) -> Vec<(Vec<u8>, bool)> {
    if is_extension(word) {
        return vec![(word.to_ascii_lowercase(), true)];
    }
    if is_acronym(word) {
        return vec![(word.to_ascii_lowercase(), false)];
    }
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
        if p.len() >= MIN_TERM && !is_stop_word(p) && (numeric || p.iter().any(u8::is_ascii_alphabetic)) {
            out.push((stem(p), false));
        }
    }
    out.extend(module_paths(word));
    out
}

/// A dotted name of three or more identifiers
/// (`websockets.asyncio.client.connect`) as a search's hits or a listing
/// write where it is: the paths of the modules that hold it, the nearest
/// first (`websockets/asyncio/client`, `websockets/asyncio`), whole.
fn module_paths(word: &[u8]) -> Vec<(Vec<u8>, bool)> {
    let parts: Vec<&[u8]> = word.split(|&b| b == b'.').collect();
    let identifier = |p: &&[u8]| {
        p.first().is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
            && p.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_')
    };
    if parts.len() < 3 || !parts.iter().all(identifier) {
        return Vec::new();
    }
    (2..parts.len()).rev().map(|n| (parts[..n].join(&b'/').to_ascii_lowercase(), true)).collect()
}

/// Whether `word`, lower-case, is one of [`STOP_WORDS`].
fn is_stop_word(word: &[u8]) -> bool {
    STOP_WORDS.binary_search(&std::str::from_utf8(word).unwrap_or_default()).is_ok()
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
    // `stripped` → `stripp` → `strip`; not `called` → `call` → `cal`.
    let doubled = match stem[..] {
        [.., a, b] if stem.len() >= 4 => a == b && b != b's' && (b != b'l' || stem.len() > 4),
        _ => false,
    };
    if cut >= 2 && doubled {
        stem.pop();
    }
    stem
}

mod matches;
mod request;
pub(crate) use matches::Matches;
use request::{
    CODE_MARK, LATE_MARK, PHRASE_MARK, is_one_of, programs_of_command, request_words, words, words_of_command,
};

#[cfg(test)]
mod tests;
