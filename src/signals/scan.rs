//! The scan: one pass over a text's lines that fills its [`Signals`].
//!
//! The keyword scan flags lines window by window; each flagged line gets
//! its verdict and, if it is a failure or summary, its template; then the
//! strong failures are followed ([`traces`](super::traces)). A large text
//! is read on two threads, its windows taken in order.

use std::ops::Range;

use super::classify::{Classifier, Verdict};
use super::diagnostics::{self, Diagnostic};
use super::templates::{self, Templates};
use super::{Failure, LineSignal, Reading, Signals, prefilter, traces, view};
use crate::text::TextLines;

impl Signals {
    /// Reads the lines of one text into these signals; its line `k` is
    /// line `base + k` here, after every line already read.
    pub fn scan(&mut self, lines: TextLines<'_>, base: usize) {
        if lines.is_empty() {
            return;
        }
        let windows = prefilter::windows(lines);
        let findings = lists_findings(lines);
        let mut reading = Reading::new(self, base);
        Classifier::with(|c| {
            let mut templates = Templates::new(lines.text.len(), reading.signals.last_template);
            // Each window's verdicts, taken in line order: templates, records.
            let mut take = |chunk: Chunk, templates: &mut Templates| {
                reading.cost.read_as_findings += chunk.read_as_findings;
                // The rule of the last template joined, when a finding's: a
                // finding of the same rule right after joins the same template
                // by the table's same-as-last path, so its id is taken as it
                // is (the table's ages keep their order either way).
                let mut last_rule: Option<(u64, diagnostics::Severity, u32)> = None;
                for (e, words) in chunk.iter() {
                    let (k, verdict) = (e.line as usize, e.verdict);
                    reading.cost.flagged += 1 + e.more as usize;
                    let mut s = LineSignal { failure: verdict.failure, ..LineSignal::default() };
                    s.set_pass(verdict.pass);
                    s.set_summary(verdict.summary);
                    s.set_failing_summary(verdict.failing_summary);
                    s.set_job_verdict(verdict.job_verdict);
                    s.set_traceback(verdict.opens.traceback);
                    s.set_panic(verdict.opens.panic);
                    if let Some(d) = e.diagnostic {
                        // A finding is grouped by its rule, not by its words.
                        s.set_diagnostic(true);
                        s.set_severity(d.severity);
                        s.set_located_below(e.located_below);
                        s.template = match last_rule {
                            Some((rule, severity, id)) if rule == d.rule && severity == d.severity => id,
                            _ => {
                                let id = templates.id_of_words(&rule_words(&d));
                                last_rule = Some((d.rule, d.severity, id));
                                id
                            }
                        };
                    } else if verdict.templated() {
                        s.template = templates.id_of_words(words);
                        last_rule = None;
                    }
                    if e.file_header {
                        s.set_file_header(true);
                        reading.signals.file_headers.push((base + k) as u32);
                    }
                    if s.is_signal() {
                        match e.more {
                            0 => reading.push(k, s),
                            more => reading.push_run(k, 1 + more as usize, s),
                        }
                    }
                }
            };
            // One pass over the windows, the keyword scan and the verdicts of
            // each; on two threads for a large text, taken in order here.
            let read = |c: &mut Classifier, w: usize| Chunk::read(c, lines, windows[w].clone(), findings);
            if lines.text.len() < crate::parallel::PARALLEL_FROM {
                for w in 0..windows.len() {
                    let chunk = read(c, w);
                    take(chunk, &mut templates);
                }
            } else {
                let evaluations = std::sync::atomic::AtomicUsize::new(0);
                crate::parallel::ordered(
                    windows.len(),
                    CHUNK_DEPTH,
                    c,
                    Classifier::spare,
                    |c, w| {
                        let before = c.evaluations;
                        let chunk = read(c, w);
                        evaluations.fetch_add(c.evaluations - before, std::sync::atomic::Ordering::Relaxed);
                        chunk
                    },
                    |_, chunk| take(chunk, &mut templates),
                );
                c.evaluations = evaluations.into_inner();
            }
            // The strong failures the keyword scan found, in order: what
            // follows each (the trace reading adds only lines of its own, or
            // changes these records in place).
            let records = reading.first..reading.signals.lines.len();
            let mut follower = traces::Follower::new(lines, &mut reading, c, &mut templates);
            let mut next = 0;
            for r in records {
                let (line, s) = follower.record_at(r);
                let i = line - base;
                if s.failure != Failure::Strong || i < next {
                    continue;
                }
                next = follower.follow(i, s);
            }
            reading.cost.evaluations += c.evaluations;
            reading.cost.comparisons += templates.comparisons;
            reading.signals.last_template = templates.last_id();
        });
        reading.finish();
    }

    /// The signals of one text on its own (line `k` is the text's line `k`).
    pub fn of_text(lines: TextLines<'_>) -> Signals {
        let mut out = Signals::default();
        out.scan(lines, 0);
        out
    }
}

#[cfg(test)]
thread_local! {
    /// Set by a test to read every finding as its own entry, as the
    /// reference the runs are held to.
    pub(super) static RUNS_OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether findings are read one entry a line (a test's reference).
#[inline]
fn runs_off() -> bool {
    #[cfg(test)]
    return RUNS_OFF.with(|off| off.get());
    #[cfg(not(test))]
    false
}

/// Windows read ahead of the one being taken, at most.
const CHUNK_DEPTH: usize = 4;

/// Whether `lines` read as a tool's list of findings (see
/// [`diagnostics::mostly_findings`]), from a sample: the first lines and a
/// spread of the rest.
fn lists_findings(lines: TextLines<'_>) -> bool {
    let n = lines.len();
    let half = diagnostics::SAMPLE / 2;
    let spread = (0..half).map(move |i| half + i * n.saturating_sub(half) / half);
    let sample = (0..n.min(half)).chain(spread.filter(move |_| n > half));
    let mut v = String::new();
    diagnostics::mostly_findings(sample.map(|k| {
        view(lines.line(k), &mut v);
        v.clone()
    }))
}

/// Lines of distinct lengths [`Chunk::read`] remembers, to read a line
/// that equals one of them but for its numbers no further.
const SEEN_SLOTS: usize = 64;

/// What a line the keyword scan did not flag says in a list of findings.
#[derive(Clone, Copy, Debug, Default)]
struct Unflagged {
    /// Its view is its units (see [`view::plain_view`]).
    plain: bool,
    /// Worth reading as a diagnostic ([`diagnostics::worth_reading`]); the
    /// rest is read only then.
    worth: bool,
    diagnostic: Option<Diagnostic>,
    /// Where the diagnostic's rule is named ([`diagnostics::read_with_rule`]).
    rule: (u32, u32),
    location_line: bool,
    file_header: bool,
}

impl Unflagged {
    /// Reads `line`, its view made in `view` where it is worth reading.
    fn read(line: &[u16], view: &mut String) -> Unflagged {
        let plain = view::plain_view(line, view);
        let worth = if plain {
            diagnostics::view_worth_reading(view.as_bytes())
        } else {
            diagnostics::worth_reading(line) && {
                super::view(line, view);
                true
            }
        };
        if !worth {
            return Unflagged { plain, ..Unflagged::default() };
        }
        let (diagnostic, rule) = match diagnostics::read_with_rule(view) {
            Some((d, r)) => (Some(d), (r.start as u32, r.end as u32)),
            None => (None, (0, 0)),
        };
        Unflagged {
            plain,
            worth,
            diagnostic,
            rule,
            location_line: diagnostics::is_location_line(view),
            file_header: diagnostic.is_none() && diagnostics::is_file_header(view),
        }
    }

    fn rule(&self) -> Range<usize> {
        self.rule.0 as usize..self.rule.1 as usize
    }
}

/// The template words of a diagnostic's rule: the rule and severity
/// folded into the first word (which keys the template table, so lines of
/// other rules are never compared with it), then a mark no word hash
/// gives; neither is the wildcard.
fn rule_words(d: &Diagnostic) -> [templates::Word; 2] {
    const MARK: templates::Word = 0xD1A6_0001;
    let folded = (d.rule ^ (d.rule >> 32)) as u32 ^ (d.severity as u32) << 28;
    [folded | 1, MARK]
}

/// What a window's read lines say: a flagged line's verdict, a
/// diagnostic, a file header.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    line: u32,
    verdict: Verdict,
    /// Where the line's template words are in [`Chunk::words`], and how many.
    words: (u32, u8),
    diagnostic: Option<Diagnostic>,
    located_below: bool,
    file_header: bool,
    /// Lines right after `line` that say all it says (the next findings
    /// of a flood, one a line): each gets the same record.
    more: u32,
}

impl Entry {
    /// Whether line `k`, a finding `d` that is its own location and names
    /// no file header, says all this entry says and comes right after it.
    fn continued_by(&self, k: usize, d: Diagnostic) -> bool {
        self.line as usize + self.more as usize + 1 == k
            && self.diagnostic == Some(d)
            && self.verdict == Verdict::default()
            && !self.located_below
            && !self.file_header
    }
}

/// The entries of a window, and the words of the templated lines, ready
/// to be taken in order.
struct Chunk {
    entries: Vec<Entry>,
    words: Vec<templates::Word>,
    /// Lines read as possible diagnostics (see [`ScanCost`]).
    read_as_findings: usize,
}

impl Chunk {
    /// Reads window `window` of `lines` with `c`: the keyword scan, then the
    /// verdict and diagnostic of each flagged line; where the text lists
    /// `findings`, every line is read as a possible diagnostic too.
    fn read(c: &mut Classifier, lines: TextLines<'_>, window: Range<usize>, findings: bool) -> Chunk {
        let mut flagged = std::mem::take(&mut c.flagged);
        flagged.clear();
        prefilter::flag_window(lines, window.clone(), &mut c.buffers, &mut flagged);
        let mut chunk = Chunk { entries: Vec::with_capacity(flagged.len()), words: Vec::new(), read_as_findings: 0 };
        let mut words = [0; templates::MAX_WORDS];
        let mut next_flagged = flagged.iter().peekable();
        let (mut other, mut below) = (String::new(), String::new());
        // The line before, when it could be a file header (findings only).
        let mut header_candidate = window.start.checked_sub(1).filter(|_| findings).and_then(|k| {
            view(lines.line(k), &mut other);
            diagnostics::is_file_header(&other).then_some(k)
        });
        // The entry of an unlocated finding on the line before, whose
        // location line this one may be.
        let mut awaiting_location: Option<usize> = None;
        // Plain unflagged lines read before and what they read as, the
        // last of each length (modulo the slots): a flood repeats a few
        // shapes of line, mostly differing in numbers alone.
        let mut seen: [Option<(&[u16], Unflagged)>; SEEN_SLOTS] = [None; SEEN_SLOTS];
        let (mut every, mut only_flagged) = (window.clone(), flagged.iter().map(|f| f.line as usize));
        let read_lines: &mut dyn Iterator<Item = usize> = if findings { &mut every } else { &mut only_flagged };
        for k in read_lines {
            let mut entry = Entry { line: k as u32, ..Entry::default() };
            let (location_line, file_header);
            let is_flagged = next_flagged.peek().is_some_and(|f| f.line as usize == k);
            if is_flagged {
                let f = next_flagged.next().expect("peeked");
                entry.verdict = c.classify(lines.line(k), f.gate);
                let text = &c.view;
                location_line = awaiting_location.is_some() && diagnostics::is_location_line(text);
                if findings && diagnostics::worth_reading(lines.line(k)) {
                    chunk.read_as_findings += 1;
                    entry.diagnostic = diagnostics::read(text);
                }
                // A finding is grouped by its rule: its words are not needed.
                if entry.diagnostic.is_none() && entry.verdict.templated() {
                    let len = templates::words_of(text, &mut words);
                    entry.words = (chunk.words.len() as u32, len as u8);
                    chunk.words.extend_from_slice(&words[..len]);
                }
                file_header = findings && entry.diagnostic.is_none() && diagnostics::is_file_header(text);
            } else {
                let line = lines.line(k);
                let slot = &mut seen[line.len() % SEEN_SLOTS];
                let read = match *slot {
                    Some((seen_line, before)) if diagnostics::same_reading(line, seen_line, before.rule()) => before,
                    _ => {
                        let read = Unflagged::read(line, &mut other);
                        chunk.read_as_findings += usize::from(read.worth);
                        if read.plain {
                            *slot = Some((line, read));
                        }
                        read
                    }
                };
                if !read.worth {
                    header_candidate = None;
                    if let Some(i) = awaiting_location.take() {
                        // Not worth a view for itself, but the finding above asks.
                        view(line, &mut other);
                        chunk.entries[i].located_below = diagnostics::is_location_line(&other);
                    }
                    continue;
                }
                // A finding that needs nothing of the lines around it, like the one before it.
                if let Some(d) = read.diagnostic
                    && !d.unlocated
                    && awaiting_location.is_none()
                    && !(d.bare && header_candidate.is_some())
                    && let Some(last) = chunk.entries.last_mut()
                    && last.continued_by(k, d)
                    && !runs_off()
                {
                    last.more += 1;
                    header_candidate = None;
                    continue;
                }
                entry.diagnostic = read.diagnostic;
                (location_line, file_header) = (read.location_line, read.file_header);
            }
            if let Some(i) = awaiting_location.take() {
                chunk.entries[i].located_below = location_line;
            }
            // An unlocated finding's location may be the next line: read
            // with that line in this window, or looked at now past its end.
            let mut locate_next = false;
            if let Some(d) = entry.diagnostic {
                if d.unlocated && k + 1 < window.end {
                    locate_next = true;
                } else if d.unlocated && k + 1 < lines.len() {
                    view(lines.line(k + 1), &mut below);
                    entry.located_below = diagnostics::is_location_line(&below);
                }
                if d.bare
                    && let Some(h) = header_candidate.take()
                {
                    chunk.entries.push(Entry { line: h as u32, file_header: true, ..Entry::default() });
                }
            }
            if findings {
                header_candidate = file_header.then_some(k);
            }
            if is_flagged || entry.diagnostic.is_some() {
                if locate_next {
                    awaiting_location = Some(chunk.entries.len());
                }
                chunk.entries.push(entry);
            }
        }
        c.flagged = flagged;
        chunk
    }

    /// Each entry with its template words, in line order.
    fn iter(&self) -> impl Iterator<Item = (&Entry, &[templates::Word])> + '_ {
        self.entries.iter().map(|e| {
            let (at, len) = (e.words.0 as usize, usize::from(e.words.1));
            (e, &self.words[at..at + len])
        })
    }
}
