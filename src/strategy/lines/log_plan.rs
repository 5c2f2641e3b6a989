//! The plan of a log: where lines mode spends its budget on build, test
//! and CI output. Read this for the order in which lines are kept.
//!
//! The budget is shared, not spent down one list (see [`LogPlan::plan`]):
//!
//! 1. **Protected ends** ([`LogPlan::ends`]). The first line, and the last
//!    lines up to a share of the budget ([`END_SHARE`]): the verdict of a
//!    test run, a build or a CI job is at the end; a tool's (not a CI
//!    runner's) last verdict with the line after it.
//! 2. **Failure detail** ([`LogPlan::failure_detail`]), while a share for
//!    the start ([`START_SHARE`]) is held back: lines a caller's spans
//!    touch; the first diagnostic of each rule, the rarest first (see
//!    [`rank::rank_diagnostics`]); distinct failure lines, each with the
//!    lines that explain it
//!    (the block under it, the lines just above); clusters ranked last,
//!    first, then inwards; summaries, the closing ones first; stack traces
//!    by meaning (the first frame in the project's own code, the first and
//!    the last frame); the earliest lines naming a kept failure's subject
//!    ([`mentions`]); failure lines repeating a template (where they come
//!    file by file, each file's first before the rest), spread over the
//!    output; weak failure words, capped at [`WEAK_SHARE`] and spread; a
//!    JSON report's keys that say what failed ([`json_reports`]).
//! 3. **The start** ([`LogPlan::start`]), up to its share: the first lines,
//!    up to the first that does not fit.
//! 4. **Context** ([`LogPlan::context`], [`context`]) around failures, then more of both
//!    ends, the end first.
//!
//! Every phase walks the lines that carry a signal, or the lines it keeps,
//! each a bounded number of times: the work is bounded by the text and
//! never multiplied by the budget.

use std::collections::HashSet;

use super::index::LineIndex;
use super::json_reports;
use super::keep::KeepSet;
use super::kind::Kind;
use super::order::spread_positions;
use super::rank::{self, Seen};
use super::task::Matches;
use super::{LineOptions, Reason};
use crate::signals::diagnostics::Severity;
use crate::signals::{Failure, LineSignal, Signals};

mod causes;
mod context;
mod mentions;
mod places;
mod sections;
mod task_lines;

/// Share of the budget kept for the last lines.
pub const END_SHARE: f64 = 0.25;
/// How many lines from the end the last verdict may be and still anchor
/// the end's share when no CI runner's verdict does (a CI runner prints its
/// cleanup after a job's verdict, which anchors the share wherever it is).
const VERDICT_REACH: usize = 200;
/// Lines right after a tool's last verdict kept with the end.
const AFTER_VERDICT: usize = 1;
/// Most of the budget the task's lines take after the distinct failures,
/// when the task's words are in the log.
pub const TASK_SHARE: f64 = 0.4;
/// Share of the budget held back for the first lines while failures are chosen.
pub const START_SHARE: f64 = 0.08;
/// Most of the budget weak failure words may take.
pub const WEAK_SHARE: f64 = 0.125;
/// Most of the budget summary lines may take before failure lines.
pub const SUMMARY_SHARE: f64 = 0.15;
/// How a GitHub Actions step opens in its log.
const STEP_OPEN: &[u8] = b"##[group]Run ";
/// Repeats read for the place they name, at most: a flood of thousands
/// names its places among its first ones.
const PLACE_REACH: usize = 1024;
/// Lines of source a finding quotes under it (its line, a caret) kept with its rule's first.
const QUOTED_LINES: usize = 2;
/// Lines of a failure's key frames kept right after it.
const KEY_FRAME_LINES: usize = 4;
/// A log's plan in the making.
pub(crate) struct LogPlan<'p, 'i, 'a> {
    pub index: &'i LineIndex<'a>,
    pub signals: &'p Signals,
    pub keep: KeepSet<'i, 'a>,
    pub options: LineOptions,
    /// Lines the caller's spans touch, ascending.
    pub touched: &'p [usize],
    /// Where the task's words are, if anywhere.
    pub matches: Option<&'p Matches>,
    /// Each text's kind.
    pub kinds: &'p [Kind],
    /// Code points of the whole budget.
    pub budget: usize,
    /// Longest a line is kept whole.
    pub cap: usize,
    /// The configured head and tail, the ratio of the ends.
    pub head_tail: (u64, u64),
    /// The task phase's steps, counted.
    pub task_steps: usize,
}

impl LogPlan<'_, '_, '_> {
    fn share(&self, s: f64) -> usize {
        (self.budget as f64 * s) as usize
    }

    fn n(&self) -> usize {
        self.index.line_count()
    }

    fn get(&self, k: usize) -> LineSignal {
        self.signals.get(k)
    }

    /// Whether the output holds a verdict at all (a failure or a summary).
    fn has_verdicts(&self) -> bool {
        self.signals.iter().any(|(_, s)| s.failure == Failure::Strong || s.summary())
    }

    /// The ends' ratio (front lines for each back line) and the end's
    /// share: output with no verdict in it (a listing, a search, a diff) is
    /// kept as head/tail would keep it.
    fn ends_shape(&self) -> ((usize, usize), f64) {
        let (head_w, tail_w) = (self.head_tail.0.max(1), self.head_tail.1.max(1));
        if self.has_verdicts() {
            ((1, 2), END_SHARE)
        } else {
            ((head_w.div_ceil(tail_w).min(8) as usize, 1), tail_w as f64 / (head_w + tail_w) as f64)
        }
    }

    /// Runs the four phases.
    pub fn plan(&mut self) {
        let (ends_ratio, end_share) = self.ends_shape();
        self.ends(end_share);
        self.failure_detail();
        self.start();
        self.context(ends_ratio);
    }

    /// Phase 1: the first line, the last lines, and the verdict region up
    /// to the end's share: the lines up to the last verdict (a failure or
    /// summary line), which trailing chatter (a CI runner's cleanup) may
    /// follow.
    fn ends(&mut self, end_share: f64) {
        let (n, cap) = (self.n(), self.cap);
        let first_cap = self.keep.first_line_cap(cap.max(self.share(0.125)), self.options.edge);
        self.keep.add(0, first_cap, Reason::Start);
        let end_start = self.keep.cost();
        for k in (0..n).rev().take(self.options.edge) {
            self.keep.add(k, cap, Reason::End);
        }
        let job_verdict = self.signals.iter().rev().find(|(_, s)| s.job_verdict()).map(|(k, _)| k);
        let last_verdict = job_verdict.or_else(|| {
            self.signals
                .within(n.saturating_sub(VERDICT_REACH)..n)
                .rev()
                .find(|(_, s)| s.failure == Failure::Strong || s.summary())
                .map(|(k, _)| k)
        });
        let region_end = last_verdict.map_or(n, |v| v + 1);
        let end_target = end_start + self.share(end_share);
        self.keep.add_back_from(region_end, end_target, cap, Reason::End);
        // What a tool prints right after its last verdict, where no CI
        // runner's cleanup follows it (`make: *** Waiting for unfinished
        // jobs`, cargo's `warning: build failed, waiting for other jobs`).
        if job_verdict.is_none()
            && let Some(v) = last_verdict
        {
            for k in (v + 1..n).take(AFTER_VERDICT) {
                self.keep.add(k, cap, Reason::End);
            }
        }
    }

    /// Phase 2: failure detail, holding back the start's share.
    fn failure_detail(&mut self) {
        let cap = self.cap;
        let failure_limit = self.budget.saturating_sub(self.share(START_SHARE));
        self.keep.set_limit(failure_limit);
        for i in 0..self.touched.len() {
            self.keep.add(self.touched[i], cap, Reason::Span);
        }
        // Summaries that count failures first: few, short, the verdict in numbers.
        self.keep.set_limit((self.keep.cost() + self.share(SUMMARY_SHARE)).min(failure_limit));
        let mut seen = Seen::new(self.signals.templates());
        let summaries: Vec<(usize, LineSignal)> =
            self.signals.iter().rev().filter(|(_, s)| s.summary() && s.failure == Failure::None).collect();
        for &(k, s) in &summaries {
            if s.failing_summary() && seen.insert(s.template) {
                self.keep.add(k, cap, Reason::Summary);
            }
        }
        // The task's findings (its lines that are findings or in one's
        // block), up to the task's share, before the first finding of each
        // rule; its other lines after the distinct failures, in what is left of it.
        let task_used = self.keep_task_lines(failure_limit, true, self.share(TASK_SHARE));
        // The first finding of each rule, the rarest first, with the lines
        // that say where it is; at most half of what is left for failures,
        // so a text of findings that each differ does not starve the rest.
        // Where the log fails of its own (a test's failure, a panic), a
        // compiler's warnings and notes did not fail it: they wait for the
        // failures.
        let diagnostics = rank::rank_diagnostics(self.signals);
        let mut ranked = rank::rank_failures(self.signals, self.index);
        // The task's failures first among the distinct ones (the
        // diagnostics keep their order: the rarest rule first is evidence).
        if let Some(matches) = self.matches {
            matches.lead_with_matched(&mut ranked.distinct);
        }
        let fails_of_its_own = ranked.distinct.iter().any(|&k| !self.get(k as usize).diagnostic());
        let left = failure_limit.saturating_sub(self.keep.cost());
        self.keep.set_limit(self.keep.cost() + left / 2);
        for &k in &diagnostics.distinct {
            if !fails_of_its_own || self.get(k as usize).severity() > Severity::Warning {
                self.keep_diagnostic(k as usize, Reason::Failure);
            }
        }
        self.keep.set_limit(failure_limit);
        // A CI job stops at its failing step: failures printed in the steps
        // before it did not fail the job (a warning's traceback while
        // installing), so they come after the failing step's own.
        let step = self.failing_step();
        if let Some(step) = step {
            let (inside, before): (Vec<u32>, Vec<u32>) = ranked
                .distinct
                .iter()
                .partition(|&&k| k as usize >= step || self.index.text_of(k as usize) != self.index.text_of(step));
            ranked.distinct = inside.into_iter().chain(before).collect();
        }
        // The templates that have repeats.
        let repeated: HashSet<u32> = ranked.repeats.iter().map(|&j| self.get(j as usize).template).collect();
        // Each distinct failure with its nearest causes and its trace's key frames...
        for &k in &ranked.distinct {
            let k = k as usize;
            if self.keep.add(k, cap, Reason::Failure) || self.keep.is_kept(k) {
                for c in self.nearest_causes(k) {
                    self.keep.add(c, cap, Reason::Cause);
                }
                if let Some(j) = self.repeat_heading(k, &ranked.repeats, &repeated) {
                    self.keep.add(j, cap, Reason::Cause);
                }
                if let Some(trace) = self.attached_trace(k) {
                    if let Some(end) = self.trace_conclusion(k, &trace) {
                        self.keep.add(end, cap, Reason::Cause);
                    }
                    for f in self.signals.traces().key_frames(self.signals, trace).into_iter().take(KEY_FRAME_LINES) {
                        self.keep.add(f, cap, Reason::Frame);
                    }
                }
            }
        }

        let task_left = self.share(TASK_SHARE).saturating_sub(task_used);
        self.keep_task_lines(failure_limit, false, task_left);
        // A runner's JSON report printed with its output (`jest --json`):
        // its keys that say what failed, with their values and names.
        for t in 0..self.index.texts.len() {
            if self.kinds[t] == Kind::Log {
                let found = json_reports::find_reports(self.index.lines_of(t));
                json_reports::keep_reports(&mut self.keep, self.index, t, &found, cap);
            }
        }
        // Other summaries, the closing ones first.
        for &(k, s) in &summaries {
            if seen.insert(s.template) {
                self.keep.add(k, cap, Reason::Summary);
            }
        }
        // ...then the rest of what explains the failures.
        let kept_failures: Vec<usize> =
            ranked.distinct.iter().map(|&k| k as usize).filter(|&k| self.keep.is_kept(k)).collect();
        for &k in &kept_failures {
            for c in self.causes(k) {
                self.keep.add(c, cap, Reason::Cause);
            }
            if let Some(trace) = self.attached_trace(k) {
                for f in self.signals.traces().key_frames(self.signals, trace) {
                    self.keep.add(f, cap, Reason::Frame);
                }
            }
        }
        // A CI runner's failing step: the `##[group]Run …` line that opened
        // the step holding the job's last verdict says what failed, once every distinct failure has what explains it.
        if let Some(step) = step {
            self.keep.add(step, cap, Reason::Cause);
        }
        self.keep_mentions(&kept_failures);
        // Weak failure words right next to a kept failure line read as part of it.
        let n = self.n();
        let weak: Vec<u32> =
            self.signals.iter().filter(|(_, s)| s.failure == Failure::Weak).map(|(k, _)| k as u32).collect();
        for &k in &weak {
            let k = k as usize;
            let near = |j: usize| j < n && self.get(j).failure == Failure::Strong && self.keep.is_kept(j);
            if near(k + 1) || k.checked_sub(1).is_some_and(near) {
                self.keep.add(k, cap, Reason::Weak);
            }
        }
        for &k in &diagnostics.distinct {
            self.keep_diagnostic(k as usize, Reason::Failure);
        }
        // Where a template's repeats name few places, many times each, a
        // repeat at a place no kept failure of it names (the same error at
        // another source line) first, in order, among the first
        // PLACE_REACH repeats; then the others, spread over the output.
        // Each repeat within reach with its template and place, read once.
        let reach: Vec<(usize, u32, Option<u64>)> = ranked.repeats[..ranked.repeats.len().min(PLACE_REACH)]
            .iter()
            .map(|&k| (k as usize, self.get(k as usize).template, places::leading_place(self.index.line(k as usize))))
            .collect();
        let recurring = places::recurring(reach.iter().map(|&(_, template, place)| (template, place)));
        if !recurring.is_empty() {
            let mut places = places::Places::default();
            for &k in &kept_failures {
                places.note(self.get(k).template, places::leading_place(self.index.line(k)));
            }
            for &(k, template, place) in &reach {
                if self.keep.full() {
                    break;
                }
                if recurring.contains(&template) && places.note(template, place) {
                    self.keep_repeat(k);
                }
            }
        }
        // Where a flood comes file by file, the repeat opening each file's
        // run first, spread; then the others, spread. Each repeat's file is
        // read only while there is room for one.
        let openings = if self.keep.full() {
            Vec::new()
        } else {
            let files: Vec<Option<&[u16]>> =
                ranked.repeats.iter().map(|&k| places::leading_file(self.index.line(k as usize))).collect();
            places::file_openings(&files)
        };
        for i in spread_positions(openings.len()) {
            if self.keep.full() {
                break;
            }
            self.keep_repeat(ranked.repeats[openings[i]] as usize);
        }
        for i in spread_positions(ranked.repeats.len()) {
            if self.keep.full() {
                break;
            }
            self.keep_repeat(ranked.repeats[i] as usize);
        }
        for i in spread_positions(diagnostics.repeats.len()) {
            if self.keep.full() {
                break;
            }
            self.keep_diagnostic(diagnostics.repeats[i] as usize, Reason::Repeat);
        }
        // What explains each repeat kept (its values, its diff), where
        // room is left once the repeats are chosen: before any neighbour.
        for &k in &ranked.repeats {
            if self.keep.full() {
                break;
            }
            if self.keep.is_kept(k as usize) {
                for c in self.causes(k as usize) {
                    self.keep.add(c, cap, Reason::Cause);
                }
            }
        }
        let traces: Vec<_> = self.signals.traces().all().collect();
        for trace in traces {
            for f in self.signals.traces().key_frames(self.signals, trace) {
                self.keep.add(f, cap, Reason::Frame);
            }
        }
        let weak_limit = self.keep.cost() + self.share(WEAK_SHARE);
        self.keep.set_limit(weak_limit.min(failure_limit));
        for i in spread_positions(weak.len()) {
            self.keep.add(weak[i] as usize, cap, Reason::Weak);
        }
        self.keep.set_limit(self.budget);
    }

    /// Phase 3: the start, up to its share.
    fn start(&mut self) {
        let start_target = self.keep.cost() + self.share(START_SHARE);
        // From the first line: the ends may have left it out, to leave room
        // for the last lines.
        for k in 0..self.n() {
            if self.keep.cost() >= start_target || self.keep.full() {
                break;
            }
            // The start is the first lines: it ends at the first that does not fit.
            if !self.keep.add(k, self.cap, Reason::Start) && !self.keep.is_kept(k) {
                break;
            }
        }
    }

    /// The `##[group]Run …` line nearest above the last job verdict (a
    /// GitHub Actions `##[error]` line), within its text; one backward walk.
    fn failing_step(&self) -> Option<usize> {
        let (verdict, _) = self.signals.iter().rev().find(|(_, s)| s.job_verdict())?;
        let start = self.index.bounds[self.index.text_of(verdict)].start;
        let opens_step = |k: usize| {
            let line = self.index.line(k);
            let body = &line[crate::signals::content_start(line)..];
            crate::text::starts_with_ascii(body, STEP_OPEN)
        };
        (start..verdict).rev().find(|&k| opens_step(k))
    }

    /// Keeps failure line `k`, a repeat of a template, with the lines that
    /// tell it apart (its values, its test's title above), or not at all: a
    /// second bare verdict of one template says nothing.
    fn keep_repeat(&mut self, k: usize) {
        // Most of a flood's repeats no longer fit: refused before their causes are read.
        if !self.keep.may_add(k, self.cap, Reason::Repeat) {
            return;
        }
        let causes = self.causes(k);
        let mut nearest = self.nearest_of(&causes);
        if let Some(title) = causes.into_iter().find(|&c| c < k)
            && !nearest.contains(&title)
        {
            nearest.push(title);
        }
        if !self.keep.is_kept(k) && self.fits_with(k, &nearest) && self.keep.add(k, self.cap, Reason::Repeat) {
            for c in nearest {
                self.keep.add(c, self.cap, Reason::Cause);
            }
        }
    }

    /// Keeps diagnostic line `k` for `reason`, and where it is: its
    /// location line below, or the file header above bare `line:column`
    /// findings; the first finding of a rule, the source it quotes too
    /// (the indented lines right under it, [`QUOTED_LINES`] at most).
    fn keep_diagnostic(&mut self, k: usize, reason: Reason) {
        if !self.keep.add(k, self.cap, reason) && !self.keep.is_kept(k) {
            return;
        }
        let s = self.get(k);
        if s.located_below() {
            self.keep.add(k + 1, self.cap, Reason::Cause);
        }
        if reason == Reason::Failure {
            let quoted = (k + 1..self.n().min(k + 1 + QUOTED_LINES)).take_while(|&j| {
                let line = self.index.line(j);
                self.index.text_of(j) == self.index.text_of(k)
                    && !self.get(j).diagnostic()
                    && matches!(line.first(), Some(&u) if u == u16::from(b' ') || u == u16::from(b'\t'))
                    && line.iter().any(|&u| u != u16::from(b' ') && u != u16::from(b'\t') && u != u16::from(b'\n'))
            });
            for j in quoted.collect::<Vec<_>>() {
                self.keep.add(j, self.cap, Reason::Cause);
            }
        }
        if let Some(h) =
            self.signals.file_header_above(k).filter(|&h| h < k && self.index.text_of(h) == self.index.text_of(k))
        {
            self.keep.add(h, self.cap, Reason::Cause);
        }
    }
}
