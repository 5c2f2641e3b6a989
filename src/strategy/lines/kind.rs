//! What kind of output a text is, from a sample of its lines.
//!
//! A coding agent reads source files, diffs, search results, JSON and
//! directory listings as often as build logs. For these the failure rules
//! keep the wrong lines, so each text is first given a [`Kind`], cheaply
//! (at most [`SAMPLE`] lines are read), and a text of a known kind is
//! planned by its [outline](super::outline).

use super::readers::commits::{is_commit, is_commit_field};
use super::readers::markdown;
use super::readers::patterns::{ShapePatterns, patterns};
use super::readers::rows;
use super::readers::trees::tree_depth;
use super::readers::yaml;
use crate::signals::{Failure, Signals, view};
use crate::text::{TextLines, is_space};
use crate::words::word_enum;

word_enum! {
    /// What a text is, named as `--explain` and plans show it.
    #[derive(Default)]
    pub enum Kind {
        /// A build, test or CI log, or anything not recognised: the failure rules plan it.
        #[default]
        Log => "log",
        /// Source code.
        Code => "code",
        /// A unified diff (`diff`, `git diff`, `git show`, `git log -p`).
        Diff => "diff",
        /// Search results: `path:line:` (or `path-line-` context) prefixes.
        Search => "search",
        /// JSON, pretty-printed (minified JSON is one line, cut by head and tail).
        Json => "json",
        /// A directory listing (`ls`, `ls -l`, `ls -R`, `find`, `tree`).
        Listing => "listing",
    }
}

/// What the sample alone says a text is: a kind, or source code unless the
/// text's signals show it is a log that quotes code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Settled by the sample.
    Is(Kind),
    /// Code by the sample; a log if its signals report (see [`code_or_log`]).
    CodeUnlessItReports {
        /// Source code, not a YAML or Markdown document (whose prose may
        /// end by naming an error).
        source: bool,
    },
}

/// Lines looked at to tell a text's kind: the first ones and a spread of the rest.
pub const SAMPLE: usize = 256;

/// The shape of `lines` from a sample of them: JSON when the text opens and
/// closes a value over more than two lines; else a diff, search results, a
/// listing or code when most sampled lines look so (a text whose
/// `path:line:` lines are diagnostics, `error:` or `F821`, is a linter's
/// log, not a search); else a log.
pub fn shape(lines: TextLines<'_>) -> Shape {
    let p = patterns();
    let text = lines.text;
    let count = lines.len();
    // JSON: the text opens and closes a value (over one line: minified).
    let trimmed = |s: &[u16]| {
        let start = s.iter().position(|&u| !is_space(u));
        let end = s.iter().rposition(|&u| !is_space(u));
        start.zip(end).map(|(a, b)| (s[a], s[b]))
    };
    if let Some((open, close)) = trimmed(text)
        && matches!((open, close), (0x7B, 0x7D) | (0x5B, 0x5D))
    {
        return Shape::Is(Kind::Json);
    }
    let mut sample: Vec<usize> = (0..count.min(SAMPLE / 2)).collect();
    if count > SAMPLE / 2 {
        let rest = count - SAMPLE / 2;
        sample.extend((0..SAMPLE / 2).map(|i| SAMPLE / 2 + i * rest / (SAMPLE / 2)));
        sample.dedup();
    }
    let (mut seen, mut hunks, mut file_headers, mut diff_body) = (0, 0, 0, 0);
    let (mut hits, mut contexts, mut listed, mut code_like, mut definitions, mut log_like) = (0, 0, 0, 0, 0, 0);
    // `ls -R`: `dir:` headers over bare names.
    let (mut dir_headers, mut bare_names) = (0, 0);
    let mut diagnostics = 0;
    // YAML: key lines, and lines YAML's (keys, comments, items, block text).
    let (mut yaml_keys, mut yaml_lines) = (0, 0);
    // Markdown: `#` headings; TAP's `ok`/`not ok` lines make `#` lines its comments.
    let (mut headings, mut sections, mut tap) = (0, 0, 0);
    // `git log`: commit headers and their `Author:`/`Date:` lines.
    let (mut commits, mut commit_fields) = (0, 0);
    let mut order = rows::Order::default();
    let mut v = String::new();
    for &k in &sample {
        view(lines.line(k), &mut v);
        if v.trim().is_empty() {
            continue;
        }
        seen += 1;
        let b = v.as_bytes();
        let commit = is_commit(&v);
        if v.starts_with("@@ -") {
            hunks += 1;
        } else if v.starts_with("diff ")
            || v.starts_with("+++ ")
            || v.starts_with("--- ")
            || v.starts_with("index ")
            || commit
        {
            file_headers += 1;
            commits += usize::from(commit);
        } else if is_commit_field(&v) {
            commit_fields += 1;
        } else if matches!(b[0], b'+' | b'-' | b' ') {
            diff_body += 1;
        }
        if p.search_hit.is_match(b) {
            hits += 1;
            diagnostics += usize::from(p.diagnostic.is_match(b));
        } else if p.search_context.is_match(b) {
            contexts += 1;
        }
        if let Some(size) = rows::row(&v).and_then(|r| r.size) {
            order.push(size);
        }
        if p.listing.is_match(b) || tree_depth(lines.line(k)).is_some() {
            listed += 1;
            dir_headers += usize::from(v.ends_with(':') && !v.contains(' '));
        } else if !v.contains(char::is_whitespace) {
            bare_names += 1;
        }
        if p.log_evidence.is_match(b) {
            log_like += 1;
        }
        let level = markdown::heading_level(v.trim_end());
        headings += usize::from(level.is_some());
        sections += usize::from(level.is_some_and(|l| l >= 2));
        // A subtest's verdicts are indented (node --test): read them wherever they are.
        let verdict = v.trim_start();
        tap +=
            usize::from(verdict.starts_with("ok ") || verdict.starts_with("not ok ") || v.starts_with("TAP version"));
        match yaml::line(&v) {
            yaml::Line::Key(_) => (yaml_keys, yaml_lines) = (yaml_keys + 1, yaml_lines + 1),
            yaml::Line::Other => yaml_lines += 1,
            yaml::Line::Foreign => {}
        }
        let def = p.definition.is_match(b) || p.signature.is_match(b);
        definitions += usize::from(def);
        let t = v.trim_end();
        if def
            || p.import.is_match(b)
            || p.comment.is_match(b)
            || t.ends_with(['{', '}', ';', ')', ',', ':', '(', '[', ']'])
            || v.starts_with([' ', '\t'])
        {
            code_like += 1;
        }
    }
    // Rows sorted by their sizes (`du | sort -h`, `ls -S`) are a listing
    // whatever their form; unsorted `du` or `find -printf` rows read as a
    // log's lines, head and tail.
    if order.sorted() {
        listed = listed.max(order.rows());
    }
    if seen == 0 {
        return Shape::Is(Kind::Log);
    }
    let share = |n: usize| n as f64 / seen as f64;
    if hunks > 0 && file_headers > 0 && share(hunks + file_headers + diff_body) >= 0.6 {
        Shape::Is(Kind::Diff)
    } else if commits >= 2 && commit_fields >= commits && share(log_like) < 0.05 {
        // A commit log without patches (`git log`, `--stat`): outlined as a diff's commits.
        Shape::Is(Kind::Diff)
    } else if hits > 0 && share(hits + contexts) >= 0.6 && diagnostics * 10 < hits * 3 {
        Shape::Is(Kind::Search)
    } else if share(listed) >= 0.7 || (dir_headers >= 2 && share(listed + bare_names) >= 0.8) {
        Shape::Is(Kind::Listing)
    } else if definitions >= 2
        && tap == 0
        && share(code_like) >= 0.6
        && share(log_like) < 0.05
        && diagnostics * crate::signals::diagnostics::ONE_FINDING_IN < seen
    {
        // Source, unless a linter's findings quote it.
        Shape::CodeUnlessItReports { source: true }
    } else if yaml_keys * 2 >= seen && share(yaml_lines) >= 0.9 && tap == 0 && share(log_like) < 0.05 {
        // A YAML document (a schema, a workflow): outlined by its keys.
        Shape::CodeUnlessItReports { source: false }
    } else if markdown::is_document(headings, sections) && tap == 0 && share(log_like) < 0.05 {
        // A Markdown document (a README, a changelog): outlined by its
        // headings, unless its lines report (a text with failure verdicts
        // is no document).
        Shape::CodeUnlessItReports { source: false }
    } else {
        Shape::Is(Kind::Log)
    }
}

/// The kind of a text shaped as code ([`Shape::CodeUnlessItReports`]),
/// `source` as the shape says:
/// a log when the text `lines` (its first line at `start` in `signals`)
/// holds what a log holds and code does not, failure lines (one in 300 or
/// more, or in source one among its last [`CLOSING_LINES`]) or summaries (two or
/// more) that are not code themselves; else code. A source file that throws, rejects or logs an error with a failure
/// word in its message stays code; a log that quotes code still has its
/// own failure lines.
pub fn code_or_log(signals: &Signals, lines: TextLines<'_>, start: usize, source: bool) -> Kind {
    let p = patterns();
    let (mut failures, mut summaries) = (0, 0);
    let mut v = String::new();
    for (k, s) in signals.within(start..start + lines.len()) {
        let (failure, summary) = (s.failure == Failure::Strong, s.summary());
        if !(failure || summary) {
            continue;
        }
        view(lines.line(k - start), &mut v);
        // A test's verdict is a report at any indentation: no source prints one.
        if failure && v.trim_start().starts_with("not ok ") {
            return Kind::Log;
        }
        if is_code_statement(&v, p) {
            continue;
        }
        // A verdict that opens its line (`FAILED tests/x.py`, `error: could
        // not compile`) and is no statement: a report, whatever the shape.
        if failure && is_verdict(v.trim_start()) {
            return Kind::Log;
        }
        // A failure among the last lines is how the run ended (a script
        // echoed, then the error that stopped it): no source ends so.
        if failure && source && k - start + CLOSING_LINES >= lines.len() {
            return Kind::Log;
        }
        failures += usize::from(failure);
        summaries += usize::from(summary);
    }
    if failures * 300 >= lines.len().max(1) || summaries >= 2 { Kind::Log } else { Kind::Code }
}

/// How many of a text's last lines are where a run's closing error is
/// ([`code_or_log`]).
const CLOSING_LINES: usize = 8;

/// Whether a line (its view, trimmed) opens with a test's or a build's
/// verdict: `FAILED`, `FAIL `, `error:`, `error[E…]:`, `ERROR:`.
fn is_verdict(t: &str) -> bool {
    ["FAILED", "FAIL ", "error:", "error[", "ERROR:", "ERROR "].iter().any(|w| t.starts_with(w))
}

/// Whether `v` reads as a statement of source code: a comment, a throw,
/// raise, rejection, assertion or logging call, an error constructed, or
/// a line that ends as statements and open blocks end (`;`, `{`, `(`, `,`, `[`).
fn is_code_statement(v: &str, p: &ShapePatterns) -> bool {
    const STARTS: [&str; 14] = [
        "throw ",
        "raise ",
        "return ",
        "reject(",
        "panic!(",
        "assert",
        "console.",
        "logger.",
        "log.",
        "print(",
        "println!(",
        "eprintln!(",
        "die(",
        "expect(",
    ];
    let t = v.trim();
    p.comment.is_match(v.as_bytes())
        || STARTS.iter().any(|k| t.starts_with(k))
        || (t.contains("new ") && t.contains("Error("))
        || t.ends_with([';', '{', '(', ',', '['])
        || is_nested_yaml_key(v)
}

/// Whether `v` is an indented YAML key opening a block or holding a flow
/// collection (`  error:`, `    error: {type: string}`): a schema's field
/// named for a failure, not one.
fn is_nested_yaml_key(v: &str) -> bool {
    matches!(yaml::line(v), yaml::Line::Key(indent) if indent > 0)
        && v.split_once(':').is_some_and(|(_, value)| {
            let value = value.trim();
            value.is_empty() || value.starts_with(['{', '['])
        })
}

#[cfg(test)]
mod tests;
