//! The task's phase of a plan: the lines that hold the task's rare words,
//! the highest score first, each with what places it (the lines it sits
//! under) and what it opens (the block indented under it, a commit's
//! subject), up to the share of the budget the planner gives it.
//!
//! Work: the matched lines, each read once, plus a bounded walk around
//! each one kept (at most [`PARENT_REACH`] lines up, [`BODY_LINES`] down),
//! so at most a constant per line added.

use super::Reason;
use super::index::LineIndex;
use super::keep::KeepSet;
use super::kind::Kind;
use super::readers::commits::is_commit;
use super::readers::patterns::patterns;
use super::readers::places::leading_file;
use super::task::Matches;
use crate::signals::{is_blank, view};
use crate::text::leading_blanks;

/// Lines walked up from a matched line for the lines it sits under.
const PARENT_REACH: usize = 256;
/// Levels of lines it sits under kept (a method's class, a key's parents).
const PARENTS: usize = 3;
/// Lines of the block indented under a matched line kept with it (a
/// definition's body, a key's value).
const BODY_LINES: usize = 40;
/// Search hits, the strongest first, whose function (a hit above in the
/// same file that opens one) is kept with them.
const SEARCH_FUNCTIONS: usize = 2;
/// Of a JSON key's value, the lines kept with it: the first of a long
/// object or array (its value is a container, not a body to read whole).
const JSON_VALUE_LINES: usize = 8;

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
    for k in matches.ranked(tier) {
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
        let indent = leading_blanks(index.line(k));
        let mut body = 0;
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
            body += 1;
            keep.add(j, cap, Reason::Task);
        }
    }
    steps
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
                if kind == Kind::Listing { v.trim_end().ends_with(':') } else { is_commit(&v) }
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
