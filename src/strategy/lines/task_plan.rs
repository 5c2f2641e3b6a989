//! The task's phase of a plan: the lines that hold the task's rare words,
//! the highest score first, each with what places it (the lines it sits
//! under) and what it opens (the block indented under it, a commit's
//! subject), up to the share of the budget the planner gives it.
//!
//! In a commit log with patches, a commit the task names by its message
//! (a matched line there; the first [`NAMED_COMMITS`]) is kept with its
//! changed lines ([`commit_changes`]).
//!
//! What each matched line is worth in that order (a named definition's
//! body, a search hit's hunk, a listing's header, the share of a long
//! line kept) is [`worth`]'s. A matched line that opens a definition keeps
//! its body's code first: its docstring is passed over.
//!
//! Work: the matched lines, each read once, plus a bounded walk around
//! each one kept (at most [`PARENT_REACH`] lines up, [`BODY_LINES`] down),
//! so at most a constant per line added, what [`worth`] reads, and the
//! named commits', at most [`COMMIT_REACH`] lines each.

use std::ops::Range;

use super::Reason;
use super::index::LineIndex;
use super::keep::KeepSet;
use super::kind::Kind;
use super::readers::commits::is_commit;
use super::readers::patterns::patterns;
use super::readers::places::leading_file;
use super::task::Matches;
use crate::signals::{is_blank, view};
use crate::text::{leading_blanks, starts_with_ascii};
use worth::Worth;

mod worth;

/// Lines walked up from a matched line for the lines it sits under.
pub(super) const PARENT_REACH: usize = 256;
/// Levels of lines it sits under kept (a method's class, a key's parents).
const PARENTS: usize = 3;
/// Lines of the block indented under a matched line kept with it (a
/// definition's body, a key's value).
const BODY_LINES: usize = 40;
/// Search hits, the strongest first, whose function (a hit above in the
/// same file that opens one) is kept with them.
const SEARCH_FUNCTIONS: usize = 2;
/// Commits the task names (a matched line of a commit's message) whose
/// changes are kept with them, the highest score first.
const NAMED_COMMITS: usize = 2;
/// Lines of a named commit walked for its changes, at most.
const COMMIT_REACH: usize = 4096;
/// Changed lines of a named commit kept with it, at most.
const COMMIT_CHANGES: usize = 48;
/// Of a JSON key's value, the lines kept with it: the first of a long
/// object or array (its value is a container, not a body to read whole).
const JSON_VALUE_LINES: usize = 8;
/// How a git diff opens each file's patch.
const FILE_HEADER: &str = "diff --git ";
/// The key that names a JSON object.
const NAME_KEY: &str = "\"name\":";

/// Keeps `matches`' lines into `keep` while its size is under `limit`,
/// the highest score first; `keep_line` keeps the line itself (a planner
/// keeps a failure with its causes) and says whether it is kept. `tier`
/// orders lines of equal score (a definition before its uses). Returns the
/// lines read, the work.
pub(super) fn keep_task_lines<'a>(
    keep: &mut KeepSet<'_, 'a>,
    index: &LineIndex<'a>,
    matches: &Matches,
    kinds: &[Kind],
    cap: usize,
    tier: impl Fn(usize) -> usize,
    mut keep_line: impl FnMut(&mut KeepSet<'_, 'a>, usize) -> bool,
) -> usize {
    let mut steps = 0;
    let mut functions_sought = 0;
    let mut commits_opened = 0;
    let worth = Worth::new(index, matches, kinds, cap, &mut steps);
    let roots = listing_roots(index, matches, kinds, &mut steps);
    for k in matches.ranked(tier, |k, own| worth.value(k, own)) {
        if keep.full() {
            break;
        }
        steps += 1;
        if !keep.is_kept(k) && !keep_line(keep, k) {
            continue;
        }
        let t = index.text_of(k);
        let text = index.bounds[t].clone();
        let kind = kinds[t];
        for p in parents(index, k, text.start, kind, &mut steps) {
            keep.add(p, cap, Reason::Task);
        }
        // A search hit's neighbours in the same file (the lines around it
        // in the source, when the pattern hit them too); for the strongest
        // hits, the nearest hit above in that file that opens a function:
        // the function it is in, when the pattern hit its signature.
        if kind == Kind::Search
            && let Some(file) = leading_file(index.line(k))
        {
            for j in [k + 1, k.wrapping_sub(1)] {
                if text.contains(&j) && leading_file(index.line(j)) == Some(file) {
                    keep.add(j, cap, Reason::Task);
                }
            }
            if functions_sought < SEARCH_FUNCTIONS {
                functions_sought += 1;
                let mut v = String::new();
                for j in (text.start.max(k.saturating_sub(PARENT_REACH))..k).rev() {
                    steps += 1;
                    let line = index.line(j);
                    if leading_file(line) != Some(file) {
                        break;
                    }
                    view(line, &mut v);
                    let content = v.splitn(3, ':').nth(2).unwrap_or("");
                    if patterns().function.is_match(content.as_bytes()) {
                        keep.add(j, cap, Reason::Task);
                        break;
                    }
                }
            }
        }
        // A directory the task names by its path (`v4/core`; not by the
        // listing's root, which every header holds): its entries, in order.
        if kind == Kind::Listing && ends_with_colon(index.line(k)) && matches.names_on(k) & !roots[t] != 0 {
            for j in (k + 1..text.end).take(BODY_LINES) {
                steps += 1;
                let line = index.line(j);
                if is_blank(line) || ends_with_colon(line) || keep.full() {
                    break;
                }
                keep.add(j, cap, Reason::Task);
            }
        }
        // A commit the task names by its message: what it changed.
        if kind == Kind::Diff
            && commits_opened < NAMED_COMMITS
            && let Some(changes) = commit_changes(index, matches, k, text.clone(), &mut steps)
        {
            commits_opened += 1;
            for j in changes {
                if keep.full() {
                    break;
                }
                keep.add(j, cap, Reason::Task);
            }
        }
        let indent = leading_blanks(index.line(k));
        let mut body = 0;
        // A definition's docstring is passed over: its code is read first
        // (the docstring's lines that hold the task's words are matched lines).
        let mut docstring = if kind == Kind::Code && opens_definition(index.line(k), &mut String::new()) {
            Docstring::Before
        } else {
            Docstring::Past
        };
        for j in k + 1..text.end {
            steps += 1;
            let line = index.line(j);
            if is_blank(line) {
                continue;
            }
            let most = if kind == Kind::Json { JSON_VALUE_LINES } else { BODY_LINES };
            if leading_blanks(line) <= indent || body >= most || keep.full() {
                break;
            }
            let in_docstring;
            (in_docstring, docstring) = docstring.read(line);
            if in_docstring {
                continue;
            }
            body += 1;
            keep.add(j, cap, Reason::Task);
        }
        // A JSON object the task names by its `"name"` (a package in `pip
        // inspect`, `cargo metadata`): the scalar after it that says which
        // one (its version), at its indentation.
        if kind == Kind::Json && names_its_object(index.line(k)) && text.contains(&(k + 1)) {
            let next = index.line(k + 1);
            let last = next.iter().rev().find(|&&u| !matches!(u, 0x20 | 0x09 | 0x0A | 0x0D | 0x2C));
            if leading_blanks(next) == indent && !matches!(last, Some(&(0x7B | 0x5B))) {
                keep.add(k + 1, cap, Reason::Task);
            }
        }
    }
    steps
}

/// Where a walk down a definition's body is in its docstring (a string
/// of triple quotes that opens the body).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Docstring {
    /// No line of the body read yet.
    Before,
    /// Inside it, closed by a line holding three of these quotes.
    Inside(u16),
    /// Past it, or there is none.
    Past,
}

impl Docstring {
    /// Reads the next line of the body (not blank): whether it is a line
    /// of the docstring, its last included, and where the walk is then.
    fn read(self, line: &[u16]) -> (bool, Docstring) {
        let body = &line[leading_blanks(line)..];
        let body = body.strip_prefix(&[u16::from(b'r')][..]).unwrap_or(body);
        match self {
            Docstring::Before => {
                match [0x22, 0x27].into_iter().find(|&q| body.len() >= 3 && body[..3].iter().all(|&u| u == q)) {
                    // Closed on its own line (`"""One line."""`).
                    Some(q) if count_triples(&body[3..], q) > 0 => (true, Docstring::Past),
                    Some(q) => (true, Docstring::Inside(q)),
                    None => (false, Docstring::Past),
                }
            }
            Docstring::Inside(q) if count_triples(body, q) > 0 => (true, Docstring::Past),
            inside @ Docstring::Inside(_) => (true, inside),
            Docstring::Past => (false, Docstring::Past),
        }
    }
}

/// How many runs of three `q` quotes `units` holds.
fn count_triples(units: &[u16], q: u16) -> usize {
    units.windows(3).filter(|w| w.iter().all(|&u| u == q)).count()
}

/// Whether a line opens a definition (`def`, `fn`, `class`, …); `v` is
/// room for its view.
pub(super) fn opens_definition(line: &[u16], v: &mut String) -> bool {
    view(line, v);
    patterns().definition.is_match(v.as_bytes()) || patterns().function.is_match(v.as_bytes())
}

/// Whether a JSON line is an object's `"name"` key with a value.
fn names_its_object(line: &[u16]) -> bool {
    let body = &line[leading_blanks(line)..];
    body.len() >= NAME_KEY.len() && body.iter().copied().zip(NAME_KEY.encode_utf16()).all(|(u, k)| u == k)
}

/// The lines `k` sits under, nearest first: each less indented line
/// above, up to [`PARENTS`] of them; in a listing the `dir:` header above
/// (`ls -R`); in a diff or commit log, the commit above and its subject.
fn parents(index: &LineIndex<'_>, k: usize, start: usize, kind: Kind, steps: &mut usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut indent = leading_blanks(index.line(k));
    let floor = k.saturating_sub(PARENT_REACH).max(start);
    let mut header_found = false;
    let mut v = String::new();
    for j in (floor..k).rev() {
        *steps += 1;
        let line = index.line(j);
        if is_blank(line) {
            continue;
        }
        let i = leading_blanks(line);
        if i < indent && out.len() < PARENTS {
            out.push(j);
            indent = i;
        }
        let header = match kind {
            Kind::Listing | Kind::Diff => {
                view(line, &mut v);
                if kind == Kind::Listing { is_dir_header(&v) } else { is_commit(&v) }
            }
            _ => false,
        };
        if header {
            if !out.contains(&j) {
                out.push(j);
            }
            // A commit's subject: its first message line.
            if kind == Kind::Diff {
                let subject =
                    (j + 1..k).take(6).find(|&s| leading_blanks(index.line(s)) >= 4 && !is_blank(index.line(s)));
                out.extend(subject);
            }
            header_found = true;
        }
        if header_found || (indent == 0 && kind != Kind::Listing && kind != Kind::Diff) {
            break;
        }
    }
    out
}

/// The changes of the commit whose message holds line `k` of a commit log
/// (`git log -p`, `git show`), or `None` where `k` is not in a commit's
/// message: its changed lines (`+`/`-`, not a file's `+++`/`---`), those
/// of files whose `diff --git` line holds the task's words first, each
/// file's `diff --git` line before its first (a `--stat` log's rows are
/// not opened: there the task asks of messages more than of files);
/// [`COMMIT_CHANGES`] at most, in order. Work: at most [`PARENT_REACH`]
/// lines up and [`COMMIT_REACH`] down.
fn commit_changes(
    index: &LineIndex<'_>,
    matches: &Matches,
    k: usize,
    text: Range<usize>,
    steps: &mut usize,
) -> Option<Vec<usize>> {
    let mut v = String::new();
    let in_diff = |v: &str| v.starts_with(FILE_HEADER) || v.starts_with("@@");
    view(index.line(k), &mut v);
    if in_diff(&v) {
        return None;
    }
    if !is_commit(&v) {
        let floor = text.start.max(k.saturating_sub(PARENT_REACH));
        let mut found = false;
        for j in (floor..k).rev() {
            *steps += 1;
            view(index.line(j), &mut v);
            if in_diff(&v) || is_change(&v) {
                return None;
            }
            if is_commit(&v) {
                found = true;
                break;
            }
        }
        if !found {
            return None;
        }
    }
    // Each change with its file's header and whether the task names that file.
    let mut header: Option<(usize, bool)> = None;
    let mut changes: Vec<(bool, usize, Option<usize>)> = Vec::new();
    for j in k + 1..text.end.min(k + 1 + COMMIT_REACH) {
        *steps += 1;
        view(index.line(j), &mut v);
        if is_commit(&v) {
            break;
        }
        if v.starts_with(FILE_HEADER) {
            header = Some((j, matches.score(j) > 0.0));
        } else if is_change(&v) {
            let named = header.is_some_and(|(_, named)| named);
            changes.push((named, j, header.map(|(h, _)| h)));
        }
    }
    // The named files' changes first (a stable sort keeps the order within each).
    changes.sort_by_key(|&(named, _, _)| !named);
    let mut out = Vec::new();
    let mut headers_kept = Vec::new();
    for (_, j, h) in changes.into_iter().take(COMMIT_CHANGES) {
        if let Some(h) = h.filter(|h| !headers_kept.contains(h)) {
            headers_kept.push(h);
            out.push(h);
        }
        out.push(j);
    }
    Some(out)
}

/// Whether a view is a diff's changed line (not a file's `+++`/`---`).
fn is_change(v: &str) -> bool {
    (v.starts_with('+') && !v.starts_with("+++")) || (v.starts_with('-') && !v.starts_with("---"))
}

/// Whether `line` ends with `:` (a listing's directory header, read raw).
pub(super) fn ends_with_colon(line: &[u16]) -> bool {
    line.iter().rev().find(|&&u| !crate::text::is_space(u)) == Some(&u16::from(b':'))
}

/// The terms on every file header (`diff --git`) of the diffs among
/// `index`'s texts, two headers or more: the path a `git log -p -- x.js`
/// is restricted to heads every commit's patch and names none of them.
/// Work: one look at each line's start, of diffs only, added to `steps`.
pub(super) fn diff_scope(index: &LineIndex<'_>, matches: &Matches, kinds: &[Kind], steps: &mut usize) -> u32 {
    let mut headers = Vec::new();
    for (bounds, _) in index.bounds.iter().zip(kinds).filter(|&(_, &kind)| kind == Kind::Diff) {
        for k in bounds.clone() {
            *steps += 1;
            if starts_with_ascii(index.line(k), FILE_HEADER.as_bytes()) {
                headers.push(k);
            }
        }
    }
    matches.on_every(&headers)
}

/// For each text, the terms every directory header of a listing holds
/// (its root, `node_modules/zod` of `ls -lR node_modules/zod`): they name
/// no one directory. Work: one look at each line's end, of listings only.
fn listing_roots(index: &LineIndex<'_>, matches: &Matches, kinds: &[Kind], steps: &mut usize) -> Vec<u32> {
    (0..kinds.len())
        .map(|t| {
            if kinds[t] != Kind::Listing {
                return 0;
            }
            let mut every = u32::MAX;
            for k in index.bounds[t].clone() {
                *steps += 1;
                if ends_with_colon(index.line(k)) {
                    every &= matches.terms_on(k);
                }
            }
            every
        })
        .collect()
}

/// Whether a view is a listing's directory header (`ls -R`'s `dir:`).
pub(super) fn is_dir_header(v: &str) -> bool {
    v.trim_end().ends_with(':')
}
