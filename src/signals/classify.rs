//! The per-line verdict: what the [`rules`](super::rules) say about one
//! line, at a cost that does not depend on how many rules it matches.
//!
//! The rules of each kind are compiled together into one lazy DFA, so a
//! line costs one pass per kind, not one per rule. The failure rules are
//! searched first and stop at the earliest match (a failure line is known
//! after its keyword). Pass, summary and chatter rules share one DFA,
//! searched in a single overlapping pass, and only when the line holds one
//! of their anchors (a keyword scan over the narrowed line, the gate):
//! a flood of failure lines never pays for them. Where a line both passes
//! and fails, which comes first decides, found by a leftmost search of the
//! two (rare, and still a bounded number of passes).

use std::cell::RefCell;
use std::sync::OnceLock;

use regex::bytes::Regex;
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::util::syntax;
use regex_automata::{Input, MatchKind, PatternID, PatternSet};

use super::Failure;
use super::prefilter::{Anchors, starts_pytest_detail};
use super::rules::{RULES, Says, ascii_regex, narrowed_anchor, quotes_source, weak_failure, without_quoted};
use super::view::{content_start, view_from};

/// What the rules say about one line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// Failure signal.
    pub failure: Failure,
    /// A pass verdict (never a failure line).
    pub pass: bool,
    /// A summary line.
    pub summary: bool,
    /// A summary that counts failures.
    pub failing_summary: bool,
    /// A CI runner's verdict (`##[error]`, `::error`).
    pub job_verdict: bool,
    /// For a strong failure: how the lines under it are read.
    pub opens: Opens,
}

/// What a strong failure line opens, as its trace reading needs it (read
/// from the line's view once, when it is classified).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Opens {
    /// A Python traceback's header.
    pub traceback: bool,
    /// A Rust panic, whose message is the next line.
    pub panic: bool,
}

impl Verdict {
    /// Whether the line gets a template (a failure or a summary).
    pub fn templated(&self) -> bool {
        self.failure > Failure::None || self.summary
    }
}

/// Pattern ids of the verdict DFA.
const PASS: PatternID = PatternID::new_unchecked(0);
const SUMMARY: PatternID = PatternID::new_unchecked(1);
const CHATTER: PatternID = PatternID::new_unchecked(2);

/// Gate bits: which kinds of verdict rule a line's anchors allow.
const GATE_PASS: u8 = 1;
const GATE_SUMMARY: u8 = 2;
const GATE_CHATTER: u8 = 4;

/// The rules compiled, built once.
struct Compiled {
    /// Every failure rule, one DFA.
    failure: DFA,
    /// Pass, summary and chatter rules, one DFA of three patterns.
    verdicts: DFA,
    /// The anchors of the pass, summary and chatter rules, over narrowed
    /// text, and the gate bits each one opens: those of three bytes or more
    /// in one multi-literal search, the counts (`0 passed`) by the space
    /// after a number, the shorter ones (`ok`, a pass glyph) apart, since a
    /// packed searcher is only selective on longer ones.
    gate: Anchors,
    short: Vec<(memchr::memmem::Finder<'static>, u8)>,
    /// For where a line both passes and fails: leftmost matches of each.
    failure_at: Regex,
    pass_at: Regex,
}

/// The alternation of every rule that says `says`.
pub(crate) fn union(says: Says) -> String {
    RULES.iter().filter(|r| r.says == says).map(|r| format!("(?:{})", r.pattern)).collect::<Vec<_>>().join("|")
}

fn dfa(patterns: &[String], kind: MatchKind) -> DFA {
    DFA::builder()
        .syntax(syntax::Config::new().unicode(false).utf8(false))
        .configure(DFA::config().match_kind(kind).cache_capacity(4 << 20))
        .build_many(patterns)
        .expect("static patterns")
}

fn compiled() -> &'static Compiled {
    static COMPILED: OnceLock<Compiled> = OnceLock::new();
    COMPILED.get_or_init(|| {
        let mut literals: Vec<(Vec<u8>, u8)> = Vec::new();
        for (bit, says) in [(GATE_PASS, Says::Pass), (GATE_SUMMARY, Says::Summary), (GATE_CHATTER, Says::Chatter)] {
            for rule in RULES.iter().filter(|r| r.says == says) {
                for anchor in rule.anchors {
                    let bytes = narrowed_anchor(anchor);
                    match literals.iter_mut().find(|(l, _)| *l == bytes) {
                        Some((_, bits)) => *bits |= bit,
                        None => literals.push((bytes, bit)),
                    }
                }
            }
        }
        // A literal found stands for every literal it holds.
        let holds = |l: &[u8]| {
            literals.iter().filter(|(m, _)| l.windows(m.len()).any(|w| w == m.as_slice())).fold(0, |b, (_, x)| b | x)
        };
        let (long, short): (Vec<_>, Vec<_>) = literals.iter().cloned().partition(|(l, _)| l.len() >= 3);
        let gate = Anchors::new(long.iter().map(|(l, _)| (l.clone(), holds(l))));
        let short = short.into_iter().map(|(l, bits)| (memchr::memmem::Finder::new(&l).into_owned(), bits)).collect();
        Compiled {
            failure: dfa(&[union(Says::Failure)], MatchKind::LeftmostFirst),
            verdicts: dfa(&[union(Says::Pass), union(Says::Summary), union(Says::Chatter)], MatchKind::All),
            gate,
            short,
            failure_at: ascii_regex(&union(Says::Failure)),
            pass_at: ascii_regex(&union(Says::Pass)),
        }
    })
}

/// The gate bits of a flagged line's narrowed text (see the prefilter):
/// which of the pass, summary and chatter rules its anchors allow.
pub(crate) fn gate(narrowed: &[u8]) -> u8 {
    let c = compiled();
    let mut bits = 0;
    let mut pos = 0;
    while let Some((_, end, tag)) = c.gate.find(narrowed, pos) {
        bits |= tag;
        pos = end;
        if bits == GATE_PASS | GATE_SUMMARY | GATE_CHATTER {
            return bits;
        }
    }
    for (finder, bit) in &c.short {
        if bits & bit != *bit && finder.find(narrowed).is_some() {
            bits |= bit;
        }
    }
    bits
}

/// Calls `f(offset, bits)` for every anchor of the pass, summary and
/// chatter rules in `narrowed` (a window of many lines), each search in
/// order of offset: the gates of many lines in one pass.
pub(crate) fn gate_matches(narrowed: &[u8], mut f: impl FnMut(usize, u8)) {
    let c = compiled();
    let mut pos = 0;
    while let Some((start, end, tag)) = c.gate.find(narrowed, pos) {
        f(start, tag);
        pos = end;
    }
    for (finder, bit) in &c.short {
        for at in finder.find_iter(narrowed) {
            f(at, *bit);
        }
    }
}

/// A line's reusable buffers and the DFA caches of one thread.
pub struct Classifier {
    failure: Cache,
    verdicts: Cache,
    set: PatternSet,
    /// The view of the last line classified.
    pub view: String,
    unquoted: String,
    /// The keyword scan's buffers.
    pub(crate) buffers: super::prefilter::Buffers,
    /// The flagged lines of the window being read.
    pub(crate) flagged: Vec<super::prefilter::Flagged>,
    /// Rule evaluations so far (DFA passes), for the counted-work tests.
    pub evaluations: usize,
}

thread_local! {
    static CLASSIFIER: RefCell<Option<Classifier>> = const { RefCell::new(None) };
}

/// Classifiers of helper threads between uses (at most a couple).
static SPARES: std::sync::Mutex<Vec<Classifier>> = std::sync::Mutex::new(Vec::new());

/// A helper thread's classifier, put back among the spares when dropped.
pub struct Spare(Option<Classifier>);

impl std::ops::Deref for Spare {
    type Target = Classifier;
    fn deref(&self) -> &Classifier {
        self.0.as_ref().expect("held until dropped")
    }
}

impl std::ops::DerefMut for Spare {
    fn deref_mut(&mut self) -> &mut Classifier {
        self.0.as_mut().expect("held until dropped")
    }
}

impl Drop for Spare {
    fn drop(&mut self) {
        if let Some(c) = self.0.take() {
            let mut spares = SPARES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if spares.len() < 4 {
                spares.push(c);
            }
        }
    }
}

impl Classifier {
    fn new() -> Self {
        let c = compiled();
        Classifier {
            failure: c.failure.create_cache(),
            verdicts: c.verdicts.create_cache(),
            set: PatternSet::new(3),
            view: String::new(),
            unquoted: String::new(),
            buffers: Default::default(),
            flagged: Vec::new(),
            evaluations: 0,
        }
    }

    /// A classifier for a helper thread: one kept from an earlier helper
    /// (its caches warm), else a new one. Given back when dropped.
    pub fn spare() -> Spare {
        let kept = SPARES.lock().unwrap_or_else(std::sync::PoisonError::into_inner).pop();
        Spare(Some(kept.unwrap_or_else(Classifier::new)))
    }

    /// Runs `f` with this thread's classifier (its DFA caches stay warm
    /// from one call to the next).
    pub fn with<R>(f: impl FnOnce(&mut Classifier) -> R) -> R {
        CLASSIFIER.with(|cell| match cell.try_borrow_mut() {
            Ok(mut slot) => {
                let classifier = slot.get_or_insert_with(Classifier::new);
                classifier.evaluations = 0;
                f(classifier)
            }
            // Re-entered (not done by this crate): a fresh one.
            Err(_) => f(&mut Classifier::new()),
        })
    }

    /// Whether `view` matches the failure rules at all (earliest match).
    fn fails(&mut self, view: &str) -> bool {
        self.evaluations += 1;
        let input = Input::new(view.as_bytes()).earliest(true);
        compiled().failure.try_search_fwd(&mut self.failure, &input).map_or(true, |m| m.is_some())
    }

    /// What the rules say about `line` (its code units, ending included),
    /// which the keyword scan flagged with `gate` bits. The line's view is
    /// left in `self.view`.
    pub fn classify(&mut self, line: &[u16], gate: u8) -> Verdict {
        let at = content_start(line);
        let pytest_detail = starts_pytest_detail(&line[at..]);
        view_from(line, at, &mut self.view);
        let view = std::mem::take(&mut self.view);
        let verdict = self.read(&view, pytest_detail, gate);
        self.view = view;
        verdict
    }

    fn read(&mut self, view: &str, pytest_detail: bool, bits: u8) -> Verdict {
        let c = compiled();
        let quoted = without_quoted(view, &mut self.unquoted);
        let unquoted = if quoted { std::mem::take(&mut self.unquoted) } else { String::new() };
        let failure_text = if quoted { unquoted.as_str() } else { view };
        let fails = self.fails(failure_text);
        self.set.clear();
        if bits != 0 {
            self.evaluations += 1;
            let input = Input::new(view.as_bytes());
            if c.verdicts.try_which_overlapping_matches(&mut self.verdicts, &input, &mut self.set).is_err() {
                // The lazy DFA gave up (it never does on lines this short): every kind checked slowly.
                for (id, says) in [(PASS, Says::Pass), (SUMMARY, Says::Summary), (CHATTER, Says::Chatter)] {
                    if ascii_regex(&union(says)).is_match(view.as_bytes()) {
                        self.set.insert(id);
                    }
                }
            }
        }
        let pass_matches = self.set.contains(PASS);
        // The verdict that comes first in the line is the line's verdict.
        let pass = pass_matches
            && (!fails || {
                self.evaluations += 2;
                let p = c.pass_at.find(view.as_bytes()).map(|m| m.start());
                let f = c.failure_at.find(failure_text.as_bytes()).map(|m| m.start());
                p.is_some_and(|p| f.is_none_or(|f| p <= f))
            });
        // A line that passes one test is not a count of many (`ok 675 test case`).
        let summary = !pass && self.set.contains(SUMMARY);
        // Source quoted in a compiler's or linter's gutter reports nothing.
        let chatter = self.set.contains(CHATTER) || (fails && quotes_source(view));
        let failure = if pass || chatter {
            Failure::None
        } else if pytest_detail || fails {
            Failure::Strong
        } else if !summary && weak_failure(failure_text) {
            Failure::Weak
        } else {
            Failure::None
        };
        let failing_summary = summary && weak_failure(failure_text);
        let strong = failure == Failure::Strong;
        let job_verdict = strong && (view.contains("##[error]") || view.trim_start().starts_with("::error"));
        let opens = if strong { super::frames::opens(view) } else { Opens::default() };
        if quoted {
            self.unquoted = unquoted;
        }
        Verdict { failure, pass, summary, failing_summary, job_verdict, opens }
    }

    /// Whether `view` matches a pass rule (for lines the keyword scan did not flag).
    pub fn passes(&mut self, view: &str) -> bool {
        self.evaluations += 1;
        compiled().pass_at.is_match(view.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gate_opens_only_for_lines_with_an_anchor() {
        let narrowed = |s: &str| super::super::rules::narrowed_anchor(s);
        assert_eq!(gate(&narrowed("FAILED tests/test_mod.py::test_case_1 - AssertionError: assert 1 == 2\n")), 0);
        assert_ne!(gate(&narrowed("test result: FAILED. 1 passed; 2 failed\n")) & GATE_SUMMARY, 0);
        assert_ne!(gate(&narrowed("  \u{2713} renders (3 ms)\n")) & GATE_PASS, 0);
        assert_ne!(gate(&narrowed("test x ... ok\n")) & GATE_PASS, 0);
    }
}
