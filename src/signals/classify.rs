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
use super::frames::Opens;
use super::prefilter::starts_pytest_detail;
use super::rules::{RULES, Says, ascii_regex, quotes_source, weak_failure, without_quoted};
use super::view::{content_start, glued_start, view_from};

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

/// The rules compiled, built once.
struct Compiled {
    /// Every failure rule, one DFA.
    failure: DFA,
    /// Pass, summary and chatter rules, one DFA of three patterns.
    verdicts: DFA,
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
    COMPILED.get_or_init(|| Compiled {
        failure: dfa(&[union(Says::Failure)], MatchKind::LeftmostFirst),
        verdicts: dfa(&[union(Says::Pass), union(Says::Summary), union(Says::Chatter)], MatchKind::All),
        failure_at: ascii_regex(&union(Says::Failure)),
        pass_at: ascii_regex(&union(Says::Pass)),
    })
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
        let mut view = std::mem::take(&mut self.view);
        let mut verdict = self.read(&view, pytest_detail, gate);
        // A Valgrind line glued into it: its failure is the line's verdict.
        if verdict.failure != Failure::Strong
            && let Some(glued) = glued_start(line, at)
        {
            view_from(line, glued, &mut view);
            let report = self.read(&view, false, gate);
            if report.failure == Failure::Strong {
                verdict = report;
            } else {
                view_from(line, at, &mut view);
            }
        }
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
