//! Outlines for output that is not a log: what kind a text is, and which of
//! its lines make its map.
//!
//! A coding agent reads source files, diffs, search results, JSON and
//! directory listings as often as build logs. For these the failure rules
//! keep the wrong lines, so each text is first given a [`Kind`], cheaply
//! (a sample of its lines), and a text of a known kind is planned by
//! *tiers*: lists of lines in the order they matter, each list spread over
//! the text so that a budget too small for a whole tier still covers the
//! whole text. What no tier names is left to the ends and to markers.

use std::ops::Range;
use std::sync::OnceLock;

use regex::bytes::Regex;

use crate::signals::rules::ascii_regex;
use crate::signals::{Failure, LineSignal, view};

/// What a text is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kind {
    /// A build, test or CI log, or anything not recognised: the failure rules plan it.
    #[default]
    Log,
    /// Source code.
    Code,
    /// A unified diff (`diff`, `git diff`, `git show`, `git log -p`).
    Diff,
    /// Search results: `path:line:` (or `path-line-` context) prefixes.
    Search,
    /// JSON, pretty-printed (minified JSON is one line, cut by head and tail).
    Json,
    /// A directory listing (`ls`, `ls -l`, `ls -R`, `find`).
    Listing,
}

impl Kind {
    /// The kind's name as `--explain` and plans show it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Log => "log",
            Kind::Code => "code",
            Kind::Diff => "diff",
            Kind::Search => "search",
            Kind::Json => "json",
            Kind::Listing => "listing",
        }
    }
}

/// Lines looked at to tell a text's kind: the first ones and a spread of the rest.
const SAMPLE: usize = 256;

struct Patterns {
    definition: Regex,
    signature: Regex,
    import: Regex,
    comment: Regex,
    log_evidence: Regex,
    search_hit: Regex,
    search_context: Regex,
    diagnostic: Regex,
    listing: Regex,
}

fn patterns() -> &'static Patterns {
    static PATTERNS: OnceLock<Patterns> = OnceLock::new();
    PATTERNS.get_or_init(|| Patterns {
        // A definition opened by a keyword, in most languages.
        definition: ascii_regex(
            r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:export|default|pub(?:\([^)]*\))?|async|static|public|private|protected|internal|unsafe|const|declare|extern|inline|abstract|final|override|virtual|sealed|open|data|suspend)\s+)*(?:def|class|fn|func|function|struct|enum|trait|impl|interface|type|module|namespace|object|record|union|typedef|macro_rules!|mod|let|var|const)\b",
        ),
        // A C-family or Java signature: a return type, a name, a parameter
        // list, not a call or a statement.
        signature: ascii_regex(
            r"^[ \t]{0,4}(?:[A-Za-z_][\w:<>\[\]*&,]*[ \t*&]+)+\**[A-Za-z_]\w*\s*\([^;{]*[,){;]?\s*(?:const\s*)?(?:\{|;|,|\)\s*)?$|^#\s*define\s+\w",
        ),
        import: ascii_regex(r"^\s*(?:import\b|from\s+\S+\s+import\b|#\s*include\b|use\s+[\w:{]|using\s+\w|package\s+\w|require\s*\(|extern\s+crate\b)"),
        comment: ascii_regex(r#"^\s*(?://|#(?:\s|$)|/\*|\*|"""|''')"#),
        log_evidence: ascii_regex(
            r"^\s*\d*\s*\|\s|\s-->\s|^\d{4}-\d\d-\d\d[T ]\d\d:|^\[?\d\d:\d\d:\d\d|\b(?:PASSED|FAILED|PASS|FAIL)\b|\b(?:INFO|WARN|WARNING|ERROR|DEBUG)\b|^\s*(?:at\s+\S|File\s+\x22)|\.\.\.\s*ok$",
        ),
        search_hit: ascii_regex(r"^[^\s:]{1,400}:\d+:"),
        search_context: ascii_regex(r"^[^\s:]{1,400}-\d+-|^--$"),
        diagnostic: ascii_regex(r"^[^\s:]{1,400}:\d+:(?:\d+:)?\s*(?:(?:error|warning|note|info|fatal|hint)\b|[A-Z]{1,3}\d{2,4}\b)"),
        listing: ascii_regex(r"^[-dlcbps][rwxsStT-]{9}[.+@]?\s|^total \d+$|^\S.*:$|^\.{0,2}/?[\w@.+-]+(?:/[\w@.+-]*)+/?$"),
    })
}

/// The kind of `text` (lines `lines`), from a sample of its lines and from
/// `signals`, its lines' failure signals: a text with failure or summary
/// lines in it is a log that quotes code, not code, and a text whose
/// `path:line:` lines are diagnostics (`error:`, `F821`) is a linter's or
/// compiler's log, not a search. Lines are given by count and by a
/// function from index to range, so a caller need not list every line.
pub fn detect(text: &[u16], count: usize, line: impl Fn(usize) -> Range<usize>, signals: &[LineSignal]) -> Kind {
    let p = patterns();
    // JSON: the text opens and closes a value, over more than a line.
    let trimmed = |s: &[u16]| {
        let start = s.iter().position(|&u| !is_space(u));
        let end = s.iter().rposition(|&u| !is_space(u));
        start.zip(end).map(|(a, b)| (s[a], s[b]))
    };
    if count > 2
        && let Some((open, close)) = trimmed(text)
        && matches!((open, close), (0x7B, 0x7D) | (0x5B, 0x5D))
    {
        return Kind::Json;
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
    let mut v = String::new();
    for &k in &sample {
        view(&text[line(k)], &mut v);
        if v.trim().is_empty() {
            continue;
        }
        seen += 1;
        let b = v.as_bytes();
        if v.starts_with("@@ -") {
            hunks += 1;
        } else if v.starts_with("diff ")
            || v.starts_with("+++ ")
            || v.starts_with("--- ")
            || v.starts_with("index ")
            || is_commit(&v)
        {
            file_headers += 1;
        } else if matches!(b[0], b'+' | b'-' | b' ') {
            diff_body += 1;
        }
        if p.search_hit.is_match(b) {
            hits += 1;
            diagnostics += usize::from(p.diagnostic.is_match(b));
        } else if p.search_context.is_match(b) {
            contexts += 1;
        }
        if p.listing.is_match(b) {
            listed += 1;
            dir_headers += usize::from(v.ends_with(':') && !v.contains(' '));
        } else if !v.contains(char::is_whitespace) {
            bare_names += 1;
        }
        if p.log_evidence.is_match(b) {
            log_like += 1;
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
    if seen == 0 {
        return Kind::Log;
    }
    let share = |n: usize| n as f64 / seen as f64;
    if hunks > 0 && file_headers > 0 && share(hunks + file_headers + diff_body) >= 0.6 {
        Kind::Diff
    } else if hits > 0 && share(hits + contexts) >= 0.6 && diagnostics * 10 < hits * 3 {
        Kind::Search
    } else if share(listed) >= 0.7 || (dir_headers >= 2 && share(listed + bare_names) >= 0.8) {
        Kind::Listing
    } else if definitions >= 2 && share(code_like) >= 0.6 && share(log_like) < 0.05 && !reports(signals) {
        Kind::Code
    } else {
        Kind::Log
    }
}

/// Whether `signals` hold what a log holds and code does not: failure lines
/// (one in 300 or more) or summaries (two or more).
fn reports(signals: &[LineSignal]) -> bool {
    let failures = signals.iter().filter(|s| s.failure == Failure::Strong).count();
    let summaries = signals.iter().filter(|s| s.summary).count();
    failures * 300 >= signals.len().max(1) || summaries >= 2
}

fn is_space(u: u16) -> bool {
    matches!(u, 0x20 | 0x09 | 0x0A | 0x0D)
}

fn is_commit(v: &str) -> bool {
    v.strip_prefix("commit ").is_some_and(|h| h.len() >= 40 && h.as_bytes()[..40].iter().all(u8::is_ascii_hexdigit))
}

/// The tiers of a text of kind `kind` (line indices local to the text), in
/// the order they are kept; empty for [`Kind::Log`].
pub fn tiers(kind: Kind, text: &[u16], lines: &[Range<usize>]) -> Vec<Vec<usize>> {
    // Every line's view in one buffer: one allocation, not one a line.
    let mut all = String::with_capacity(text.len());
    let mut spans = Vec::with_capacity(lines.len());
    let mut v = String::new();
    for r in lines {
        view(&text[r.clone()], &mut v);
        let start = all.len();
        all.push_str(&v);
        spans.push(start..all.len());
    }
    let views: Vec<&str> = spans.into_iter().map(|r| &all[r]).collect();
    match kind {
        Kind::Log => Vec::new(),
        Kind::Code => code(&views),
        Kind::Diff => diff(&views),
        Kind::Search => search(&views),
        Kind::Json => json(&views),
        Kind::Listing => listing(&views),
    }
}

fn indent(v: &str) -> usize {
    v.len() - v.trim_start().len()
}

/// Source: top-level definitions, nested definitions (methods), the first
/// line of the top-level ones' doc comments, imports, then signature
/// continuations.
fn code(views: &[&str]) -> Vec<Vec<usize>> {
    let p = patterns();
    let is_def = |v: &str| {
        let b = v.as_bytes();
        (p.definition.is_match(b) || p.signature.is_match(b)) && !p.comment.is_match(b) && !is_control(v)
    };
    let defs: Vec<usize> = (0..views.len()).filter(|&k| is_def(views[k])).collect();
    let top: Vec<usize> = defs.iter().copied().filter(|&k| indent(views[k]) == 0).collect();
    let nested: Vec<usize> = defs.iter().copied().filter(|&k| indent(views[k]) > 0).collect();
    let docs: Vec<usize> = top.iter().filter_map(|&k| doc_start(views, k)).collect();
    let imports: Vec<usize> = (0..views.len()).filter(|&k| p.import.is_match(views[k].as_bytes())).collect();
    let continued: Vec<usize> = defs
        .iter()
        .filter(|&&k| views[k].trim_end().ends_with(['(', ',']) && k + 1 < views.len())
        .map(|&k| k + 1)
        .collect();
    vec![top, nested, docs, imports, continued]
}

/// Statements that read like signatures (`if (x) {`, `return f(y);`).
fn is_control(v: &str) -> bool {
    let t = v.trim_start();
    [
        "if ", "if(", "for ", "for(", "while ", "while(", "switch ", "switch(", "return ", "else", "do ", "catch",
        "case ", "throw ", "new ", "await ", "yield ",
    ]
    .iter()
    .any(|k| t.starts_with(k))
}

/// The first line of the comment block (or decorators) right above line `k`.
fn doc_start(views: &[&str], k: usize) -> Option<usize> {
    let p = patterns();
    let mut j = k;
    while j > 0 && k - j < 40 {
        let above = &views[j - 1];
        let t = above.trim_start();
        if p.comment.is_match(above.as_bytes()) || t.starts_with('@') || t.starts_with("#[") {
            j -= 1;
        } else {
            break;
        }
    }
    (j < k).then_some(j)
}

/// Diffs: commit headers and each file's first header line (`diff …`, or
/// `+++` where no `diff` line names the file), hunk headers, the other
/// file header lines, the first changed line of each hunk, the other
/// changed lines, then context.
fn diff(views: &[&str]) -> Vec<Vec<usize>> {
    let (mut files, mut hunks, mut other_headers, mut first_changes, mut changes, mut context) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    let mut in_message = false;
    let mut awaiting_change = false;
    let mut file_named = false;
    for (k, v) in views.iter().enumerate() {
        if is_commit(v) {
            files.push(k);
            in_message = true;
        } else if in_message && (v.starts_with("Author:") || v.starts_with("Date:") || v.starts_with("Merge:")) {
            other_headers.push(k);
        } else if in_message && v.starts_with("    ") && !v.trim().is_empty() {
            // The commit message's first line.
            files.push(k);
            in_message = false;
        } else if v.starts_with("diff ") {
            files.push(k);
            file_named = true;
            in_message = false;
        } else if v.starts_with("+++ ") && !file_named {
            files.push(k);
        } else if v.starts_with("--- ") || v.starts_with("+++ ") || v.starts_with("index ") {
            other_headers.push(k);
        } else if v.starts_with("@@") {
            hunks.push(k);
            awaiting_change = true;
            file_named = false;
        } else if v.starts_with('+') || v.starts_with('-') {
            if std::mem::take(&mut awaiting_change) {
                first_changes.push(k);
            } else {
                changes.push(k);
            }
        } else {
            context.push(k);
        }
    }
    vec![files, hunks, other_headers, first_changes, changes, context]
}

/// Search results: the first hit of every file, then the others file by
/// file in turn, then the context lines.
fn search(views: &[&str]) -> Vec<Vec<usize>> {
    let p = patterns();
    let mut by_file = Groups::default();
    let mut context = Vec::new();
    for (k, v) in views.iter().enumerate() {
        let b = v.as_bytes();
        if let Some(m) = p.search_hit.find(b) {
            let path = &v[..m.as_bytes().iter().rposition(|&c| c == b':').unwrap_or(0)];
            by_file.add(&path[..path.rfind(':').unwrap_or(path.len())], k);
        } else {
            context.push(k);
        }
    }
    let files = by_file.lists;
    vec![files.iter().map(|hits| hits[0]).collect(), round_robin(&files, 1), context]
}

/// Lines grouped by a key (a file, a directory), groups in the order their
/// keys first appear; hashed, so many groups cost no more than few.
#[derive(Default)]
struct Groups {
    index: std::collections::HashMap<String, usize>,
    lists: Vec<Vec<usize>>,
}

impl Groups {
    fn add(&mut self, key: &str, line: usize) {
        match self.index.get(key) {
            Some(&i) => self.lists[i].push(line),
            None => {
                self.index.insert(key.to_owned(), self.lists.len());
                self.lists.push(vec![line]);
            }
        }
    }
}

/// The lines of `lists` from position `from` on, group by group in turn:
/// every group's `from`-th line, then every group's next, and so on.
fn round_robin(lists: &[Vec<usize>], from: usize) -> Vec<usize> {
    let mut items: Vec<(usize, usize, usize)> = lists
        .iter()
        .enumerate()
        .flat_map(|(g, list)| list.iter().enumerate().skip(from).map(move |(round, &k)| (round, g, k)))
        .collect();
    items.sort_unstable();
    items.into_iter().map(|(_, _, k)| k).collect()
}

/// Pretty JSON: the top-level keys, the second level's, both outside later
/// array elements, then the first element of every array, then the rest
/// shallowest first.
fn json(views: &[&str]) -> Vec<Vec<usize>> {
    // Per line: the depth at its start and whether it lies in an array
    // element after the first (at any level).
    let mut stack: Vec<(bool, usize)> = Vec::new(); // (is array, element index)
    let mut top = Vec::new();
    let mut shallow = Vec::new();
    let mut first_elements = Vec::new();
    let mut deeper: Vec<(usize, usize)> = Vec::new();
    for (k, v) in views.iter().enumerate() {
        let depth = stack.len();
        let later = stack.iter().any(|&(array, index)| array && index > 0);
        let key = v.trim_start().starts_with('"') || v.trim_start().starts_with(['{', '[', '}', ']']);
        if !later && depth <= 1 && key {
            top.push(k);
        } else if !later && depth <= 2 && key {
            shallow.push(k);
        } else if !later {
            first_elements.push(k);
        } else {
            deeper.push((depth, k));
        }
        let mut in_string = false;
        let mut escaped = false;
        for c in v.bytes() {
            if in_string {
                match c {
                    _ if escaped => escaped = false,
                    b'\\' => escaped = true,
                    b'"' => in_string = false,
                    _ => {}
                }
                continue;
            }
            match c {
                b'"' => in_string = true,
                b'{' => stack.push((false, 0)),
                b'[' => stack.push((true, 0)),
                b'}' | b']' => {
                    stack.pop();
                }
                b',' => {
                    if let Some(top) = stack.last_mut() {
                        top.1 += 1;
                    }
                }
                _ => {}
            }
        }
    }
    deeper.sort_by_key(|&(depth, k)| (depth, k));
    vec![top, shallow, first_elements, deeper.into_iter().map(|(_, k)| k).collect()]
}

/// Listings: the first directory's entries (the top of an `ls -R`), the
/// directory headers and totals, the first entry of every other directory,
/// then entries directory by directory in turn.
fn listing(views: &[&str]) -> Vec<Vec<usize>> {
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new(); // (header line, entries)
    let mut headers = Vec::new();
    let mut by_dir = Groups::default();
    for (k, v) in views.iter().enumerate() {
        let t = v.trim();
        if t.is_empty() {
            continue;
        }
        if (t.ends_with(':') && !v.starts_with([' ', '\t'])) || t.starts_with("total ") {
            headers.push(k);
            groups.push((k, Vec::new()));
        } else if t.contains('/') && !t.contains(' ') {
            // `find` output: one path a line, grouped by directory.
            by_dir.add(t.rsplit_once('/').map_or("", |(d, _)| d), k);
        } else if let Some((_, entries)) = groups.last_mut() {
            entries.push(k);
        } else {
            groups.push((k, vec![k]));
        }
    }
    let mut lists: Vec<Vec<usize>> = groups.into_iter().map(|(_, e)| e).collect();
    lists.extend(by_dir.lists);
    // The first directory listed (the top of an `ls -R`) is read first.
    let top = lists.first().cloned().unwrap_or_default();
    let others = lists.get(1..).unwrap_or_default();
    let firsts: Vec<usize> = others.iter().filter_map(|e| e.first().copied()).collect();
    vec![top, headers, firsts, round_robin(others, 1)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{split_lines, utf16};

    fn kind(text: &str) -> Kind {
        let t = utf16(text);
        let lines = split_lines(&t);
        detect(&t, lines.len(), |k| lines[k].clone(), &crate::signals::scan(&t, &lines))
    }

    #[test]
    fn kinds_are_told_apart() {
        let rust = "use std::fmt;\n\n/// A point.\npub struct Point {\n    x: i32,\n}\n\nimpl Point {\n    pub fn new() -> Self {\n        Point { x: 0 }\n    }\n}\n";
        assert_eq!(kind(rust), Kind::Code);
        let diff = "diff --git a/x.rs b/x.rs\nindex 1..2 100644\n--- a/x.rs\n+++ b/x.rs\n@@ -1,3 +1,3 @@\n fn a() {}\n-fn b() {}\n+fn c() {}\n";
        assert_eq!(kind(diff), Kind::Diff);
        let search = "src/a.py:3:import re\nsrc/a.py:9:x = re.compile('a')\nsrc/b.py:1:import re\n";
        assert_eq!(kind(search), Kind::Search);
        assert_eq!(kind("{\n  \"a\": 1,\n  \"b\": [\n    2\n  ]\n}\n"), Kind::Json);
        assert_eq!(
            kind("total 8\ndrwxr-xr-x 2 root root 4096 Jan 1 00:00 .\n-rw-r--r-- 1 root root 10 Jan 1 00:00 a.txt\n"),
            Kind::Listing
        );
        let log = "running 3 tests\ntest a ... ok\ntest b ... FAILED\nerror: test failed\n";
        assert_eq!(kind(log), Kind::Log);
        // A linter's diagnostics look like search hits, but are a log.
        assert_eq!(
            kind(
                "src/a.py:3:1: F401 'os' imported but unused\nsrc/a.py:9:80: E501 line too long\nsrc/b.py:1:1: F821 undefined name 'x'\n"
            ),
            Kind::Log
        );
        // Times are not line numbers.
        assert_eq!(
            kind(
                "2026-11-30 13:29:57,366 INFO etl: row 1\n2026-11-30 13:29:58,001 INFO etl: row 2\n2026-11-30 13:29:59,500 INFO etl: row 3\n"
            ),
            Kind::Log
        );
        // A compiler's output quotes code, but is a log.
        let rustc = "error[E0502]: cannot borrow `x`\n  --> src/main.rs:4:5\n   |\n 4 |     let y = &mut x;\n   |             ------ mutable borrow\n 5 |     println!(\"{}\", x);\n   |                    ^ immutable borrow\n";
        assert_eq!(kind(rustc), Kind::Log);
    }

    #[test]
    fn tiers_put_the_map_first() {
        let t = utf16(
            "import os\n\n# Adds.\ndef add(a, b):\n    return a + b\n\nclass K:\n    def m(self):\n        pass\n",
        );
        let lines = split_lines(&t);
        let code = tiers(Kind::Code, &t, &lines);
        assert_eq!(code[0], vec![3, 6]); // def add, class K
        assert_eq!(code[1], vec![7]); // def m
        assert_eq!(code[2], vec![2]); // the comment above def add
        assert_eq!(code[3], vec![0]); // import os
        let t = utf16("a.py:1:x\na.py:2:y\nb.py:5:z\nc.py:7:w\n");
        let hits = tiers(Kind::Search, &t, &split_lines(&t));
        assert_eq!(hits[0], vec![0, 2, 3]);
        assert_eq!(hits[1], vec![1]);
        let t = utf16(
            "{\n  \"a\": {\n    \"b\": 1\n  },\n  \"list\": [\n    {\n      \"x\": 1\n    },\n    {\n      \"x\": 2\n    }\n  ]\n}\n",
        );
        let json = tiers(Kind::Json, &t, &split_lines(&t));
        // Top-level keys first, then the second level.
        assert_eq!(json[0], vec![0, 1, 4, 12], "{json:?}");
        assert!(json[1].contains(&2), "{json:?}");
        // The second array element comes last.
        assert!(json[3].contains(&9), "{json:?}");
    }
}
