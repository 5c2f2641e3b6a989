//! Outlines of output that is not a log: which of its lines make its map.
//!
//! A text of a known [`Kind`] is planned by *tiers*: lists of lines in the
//! order they matter, each list spread over the text so that a budget too
//! small for a whole tier still covers the whole text. What no tier names
//! is left to the ends and to markers. Every line is read once, with a
//! bounded amount of work (one pass of one automaton for code; a few
//! prefix tests for the other kinds; a byte scan for JSON), and the tiers
//! hold four bytes per line they list.

use std::collections::HashMap;

use std::sync::OnceLock;

use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::util::syntax;
use regex_automata::{Anchored, Input, MatchKind, PatternID, PatternSet};

use super::kind::{Kind, is_commit, is_commit_field, patterns};
use super::markdown::Markdown;
use super::yaml::Yaml;
use crate::signals::view;
use crate::text::{TextLines, is_space};

mod listing;
use listing::listing;
pub(super) use listing::tree_depth;

/// The tiers of a text of kind `kind` (line indices local to the text), in
/// the order they are kept; empty for [`Kind::Log`]. With them, the steps
/// taken: lines read and nesting pushed and popped (for the tests that hold
/// the work linear).
pub fn tiers(kind: Kind, lines: TextLines<'_>) -> (Vec<Vec<u32>>, usize) {
    let steps = if kind == Kind::Json { 0 } else { lines.len() };
    let (tiers, extra) = match kind {
        Kind::Log => (Vec::new(), 0),
        Kind::Code => (code(lines), 0),
        Kind::Diff => (diff(lines), 0),
        Kind::Search => (search(lines), 0),
        Kind::Json => json(lines),
        Kind::Listing => (listing(lines), 0),
    };
    (tiers, steps + extra)
}

/// Lines of comments and decorators above a definition read as its doc at most.
const DOC_REACH: usize = 40;

/// Pattern ids of the code automaton.
const DEFINITION: PatternID = PatternID::new_unchecked(0);
const SIGNATURE: PatternID = PatternID::new_unchecked(1);
const IMPORT: PatternID = PatternID::new_unchecked(2);
const COMMENT: PatternID = PatternID::new_unchecked(3);

/// Source: top-level declarations (types, functions), the module's summary
/// (the first line of a second opening comment block, past a licence),
/// the first imports and top-level values (constants, `#define`s, names
/// bound without a keyword), nested declarations
/// (methods), the first line of the top-level ones' doc comments, the
/// other values and imports, then signature continuations. A value bound inside a body is
/// a statement, in no tier.
fn code(lines: TextLines<'_>) -> Vec<Vec<u32>> {
    let p = patterns();
    CODE_CACHE.with_borrow_mut(|cache| code_with(lines, p, cache))
}

/// The four code line patterns in one anchored automaton (one pass a
/// line), built once per process.
fn code_automaton() -> &'static DFA {
    static CODE: OnceLock<DFA> = OnceLock::new();
    CODE.get_or_init(|| {
        let p = patterns();
        DFA::builder()
            .syntax(syntax::Config::new().unicode(false).utf8(false))
            .configure(DFA::config().match_kind(MatchKind::All).cache_capacity(2 << 20))
            .build_many(&[p.definition.as_str(), p.signature.as_str(), p.import.as_str(), p.comment.as_str()])
            .expect("static patterns")
    })
}

thread_local! {
    /// This thread's states of [`code_automaton`], kept between texts.
    static CODE_CACHE: std::cell::RefCell<Cache> = std::cell::RefCell::new(code_automaton().create_cache());
}

/// [`code`] with this thread's automaton cache.
fn code_with(lines: TextLines<'_>, p: &super::kind::ShapePatterns, cache: &mut Cache) -> Vec<Vec<u32>> {
    let dfa = code_automaton();
    let mut set = PatternSet::new(4);
    let n = lines.len();
    let (mut top, mut nested, mut docs, mut imports, mut continued) = (vec![], vec![], vec![], vec![], vec![]);
    let mut values = vec![];
    // Comment and decorator lines right above the current one.
    let mut doc_run = 0;
    // Markdown, read on the way: headings outside fenced code, by level.
    let mut md = Markdown::default();
    // YAML, read on the way: keys by indentation.
    let mut yaml = Yaml::default();
    let mut v = String::new();
    // The comment blocks a file opens with, before its first code line:
    // the first is its licence or title (the first line is kept anyway),
    // the second's first line its own summary (a module's docstring).
    let (mut opening, mut blocks, mut summary) = (true, 0, None);
    for k in 0..n {
        view(lines.line(k), &mut v);
        md.read(k as u32, &v);
        yaml.read(k as u32, &v);
        set.clear();
        let input = Input::new(v.as_bytes()).anchored(Anchored::Yes);
        if dfa.try_which_overlapping_matches(cache, &input, &mut set).is_err() {
            for (id, re) in
                [p.definition.clone(), p.signature.clone(), p.import.clone(), p.comment.clone()].iter().enumerate()
            {
                if re.is_match(v.as_bytes()) {
                    set.insert(PatternID::must(id));
                }
            }
        }
        let comment = set.contains(COMMENT);
        let t = v.trim_start();
        let indented = t.len() < v.len();
        if opening && !t.is_empty() {
            if !comment {
                opening = false;
            } else if k == 0 || lines.line(k - 1).iter().all(|&u| is_space(u)) {
                blocks += 1;
                if blocks == 2 {
                    summary = Some(k as u32);
                }
            }
        }
        let bound = !indented && !comment && is_top_level_binding(t);
        let is_def = (bound || set.contains(DEFINITION) || set.contains(SIGNATURE)) && !comment && !is_control(t);
        let value = is_def && (bound || is_value(t));
        if is_def && !(value && indented) {
            if value {
                values.push(k as u32);
            } else if !indented {
                top.push(k as u32);
                if doc_run > 0 {
                    docs.push((k - doc_run) as u32);
                }
            } else {
                nested.push(k as u32);
            }
            if v.trim_end().ends_with(['(', ',']) && k + 1 < n {
                continued.push(k as u32 + 1);
            }
        }
        if set.contains(IMPORT) {
            imports.push(k as u32);
        }
        let doc_like = comment || t.starts_with('@') || t.starts_with("#[");
        doc_run = if doc_like { (doc_run + 1).min(DOC_REACH) } else { 0 };
    }
    // A document: its headings are its map, not what reads as code in it.
    if md.is_document(top.len()) {
        return md.tiers();
    }
    if yaml.is_document(top.len()) {
        return yaml.tiers();
    }
    // The first imports say what the file builds on; the rest come late.
    // So do the first values (a header's guard, its first constants).
    let rest_of_imports = imports.split_off(imports.len().min(FIRST_ENTRIES));
    let rest_of_values = values.split_off(values.len().min(FIRST_ENTRIES));
    imports.append(&mut values);
    imports.splice(0..0, summary);
    // Signature continuations follow their definition, so they come in order.
    vec![top, imports, nested, docs, rest_of_values, rest_of_imports, continued]
}

/// Imports, and values, kept right after the top-level declarations.
const FIRST_ENTRIES: usize = 4;

/// Whether a definition line (`trimmed`: past its indentation) binds a
/// value rather than declaring a type or a function: `let`, `var`,
/// `const`, `static` (not `const fn`, not a closure or function bound to a
/// name, not a `static class`) and `#define`. Those nested in a body are statements; those at
/// the top come after the declarations.
fn is_value(trimmed: &str) -> bool {
    let mut t = trimmed;
    if let Some(directive) = t.strip_prefix('#') {
        return directive.trim_start().starts_with("define");
    }
    while let Some(rest) = strip_word(t, &["export ", "pub(crate) ", "pub(super) ", "pub ", "declare "]) {
        t = rest;
    }
    let Some(rest) = strip_word(t, &["let ", "var ", "const ", "static "]) else { return false };
    if rest.starts_with("fn ") || rest.starts_with("unsafe fn ") {
        return false;
    }
    // A nested type is declared static in Java (`static final class
    // TreeNode<K,V> extends …`): a type, not a value.
    let mut body = rest;
    while let Some(r) = strip_word(body, &["final ", "abstract ", "sealed "]) {
        body = r;
    }
    if strip_word(body, &["class ", "interface ", "enum ", "record "]).is_some() {
        return false;
    }
    // A parameter list before any `=` makes it a function (`static int
    // f(void)`), as does a function or an arrow bound to the name.
    match rest.bytes().position(|b| b == b'=' || b == b'(') {
        Some(at) if rest.as_bytes()[at] == b'(' => false,
        Some(at) => {
            let value = rest[at + 1..].trim_start();
            !(value.starts_with("function") || value.starts_with("async") || value.starts_with('('))
        }
        None => true,
    }
}

/// Whether `trimmed` binds a name at a file's top level without a keyword
/// (`__version__ = "1.16.0"`, `CC = gcc`): a module's value.
pub(super) fn is_top_level_binding(trimmed: &str) -> bool {
    let b = trimmed.as_bytes();
    let name = b.iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count();
    name > 0 && !b[0].is_ascii_digit() && b[name..].starts_with(b" = ")
}

/// Statements that read like signatures (`if (x) {`, `return f(y);`); `t`
/// is the line past its indentation.
fn is_control(t: &str) -> bool {
    strip_word(
        t,
        &[
            "if ", "if(", "for ", "for(", "while ", "while(", "switch ", "switch(", "return ", "else", "do ", "catch",
            "case ", "throw ", "new ", "await ", "yield ",
        ],
    )
    .is_some()
}

/// `t` past the first of `words` it starts with. Each line of a source
/// file meets these lists: a word is compared only when its first byte is
/// `t`'s.
fn strip_word<'a>(t: &'a str, words: &[&str]) -> Option<&'a str> {
    let first = *t.as_bytes().first()?;
    words.iter().find_map(|w| if w.as_bytes()[0] == first { t.strip_prefix(w) } else { None })
}

/// Diffs: commit headers and each file's first header line (`diff …`, or
/// `+++` where no `diff` line names the file), hunk headers (and a
/// diffstat's summary, in a `git log --stat`), the newest commit's header
/// fields and diffstat (a log shows it first), the other header lines, the
/// first changed line of each hunk, the other changed lines, then context.
fn diff(lines: TextLines<'_>) -> Vec<Vec<u32>> {
    let (mut files, mut hunks, mut other_headers, mut first_changes, mut changes, mut context) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    // The first commit's header fields and diffstat.
    let (mut commits, mut newest) = (0usize, vec![]);
    let mut in_message = false;
    let mut awaiting_change = false;
    let mut file_named = false;
    let mut v = String::new();
    for k in 0..lines.len() {
        view(lines.line(k), &mut v);
        let k = k as u32;
        if is_commit(&v) {
            files.push(k);
            in_message = true;
            commits += 1;
        } else if in_message && is_commit_field(&v) {
            if commits == 1 { newest.push(k) } else { other_headers.push(k) }
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
        } else if is_stat_summary(&v) {
            // `git log --stat`: a commit's ` N files changed, …` line.
            hunks.push(k);
        } else if v.starts_with('+') || v.starts_with('-') {
            if std::mem::take(&mut awaiting_change) {
                first_changes.push(k);
            } else {
                changes.push(k);
            }
        } else if commits == 1 && v.starts_with(' ') && v.contains(" | ") {
            // A file line of the first commit's diffstat: ` path | 42 +++--`.
            newest.push(k);
        } else {
            context.push(k);
        }
    }
    vec![files, hunks, newest, other_headers, first_changes, changes, context]
}

/// Whether `v` is a diffstat's summary: ` 3 files changed, 10 insertions(+)`.
fn is_stat_summary(v: &str) -> bool {
    let t = v.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && (t[digits..].starts_with(" file changed") || t[digits..].starts_with(" files changed"))
}

/// The path of a search hit, `path:line:` at the start of a view (the path
/// 1 to 400 bytes without white space or `:`).
fn hit_path(v: &[u8]) -> Option<&[u8]> {
    let path = v.iter().take(401).take_while(|&&b| b != b':' && !is_space(u16::from(b))).count();
    if path == 0 || path > 400 || v.get(path) != Some(&b':') {
        return None;
    }
    let digits = v[path + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
    (digits > 0 && v.get(path + 1 + digits) == Some(&b':')).then(|| &v[..path])
}

/// Search results: the first hit of every file, then the others file by
/// file in turn, then the context lines.
fn search(lines: TextLines<'_>) -> Vec<Vec<u32>> {
    let mut by_file = Groups::default();
    let mut context = Vec::new();
    let mut v = String::new();
    for k in 0..lines.len() {
        view(lines.line(k), &mut v);
        match hit_path(v.as_bytes()) {
            Some(path) => by_file.add(path, k as u32),
            None => context.push(k as u32),
        }
    }
    let files = by_file.lists;
    vec![files.iter().map(|hits| hits[0]).collect(), round_robin(&files, 1), context]
}

/// Lines grouped by a key (a file, a directory), groups in the order their
/// keys first appear; hashed, so many groups cost no more than few.
#[derive(Default)]
struct Groups {
    index: HashMap<Vec<u8>, usize>,
    lists: Vec<Vec<u32>>,
}

impl Groups {
    fn add(&mut self, key: &[u8], line: u32) {
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
pub(super) fn round_robin(lists: &[Vec<u32>], from: usize) -> Vec<u32> {
    let rounds = lists.iter().map(Vec::len).max().unwrap_or(0);
    // Groups still holding a line at each round, found by walking the
    // groups longest first: each group is visited once per line it holds.
    let mut order: Vec<usize> = (0..lists.len()).collect();
    order.sort_by_key(|&g| std::cmp::Reverse(lists[g].len()));
    let mut out = Vec::with_capacity(lists.iter().map(|l| l.len().saturating_sub(from)).sum());
    let mut live = order.len();
    let mut round_groups: Vec<usize> = Vec::new();
    for round in from..rounds {
        while live > 0 && lists[order[live - 1]].len() <= round {
            live -= 1;
        }
        round_groups.clear();
        round_groups.extend_from_slice(&order[..live]);
        round_groups.sort_unstable();
        out.extend(round_groups.iter().map(|&g| lists[g][round]));
    }
    out
}

/// Pretty JSON: the top-level keys, the second level's, both outside later
/// array elements, then the first element of every array, then the rest
/// shallowest first. One scan of each line's bytes; the nesting is a byte a
/// level, and whether any open array is past its first element is a count.
fn json(lines: TextLines<'_>) -> (Vec<Vec<u32>>, usize) {
    const ARRAY: u8 = 1;
    // Lines read, and nesting levels opened and closed.
    let mut steps = 0;
    const PAST_FIRST: u8 = 2;
    let mut stack: Vec<u8> = Vec::new();
    // Open arrays past their first element.
    let mut later_arrays = 0usize;
    let (mut top, mut shallow, mut first_elements) = (Vec::new(), Vec::new(), Vec::new());
    let mut deeper: Vec<(u32, u32)> = Vec::new();
    for k in 0..lines.len() {
        steps += 1;
        let line = lines.line(k);
        let depth = stack.len();
        let later = later_arrays > 0;
        // Indentation changes nothing: the reading starts past it.
        let start = line.iter().position(|&u| !is_space(u)).unwrap_or(line.len());
        let key = matches!(line.get(start), Some(&(0x22 | 0x7B | 0x5B | 0x7D | 0x5D)));
        let k = k as u32;
        if !later && depth <= 1 && key {
            top.push(k);
        } else if !later && depth <= 2 && key {
            shallow.push(k);
        } else if !later {
            first_elements.push(k);
        } else {
            deeper.push((depth as u32, k));
        }
        let mut at = start;
        while let Some(&u) = line.get(at) {
            at += 1;
            match u {
                // A string, to its closing quote: an escape takes the unit after it.
                0x22 => {
                    while let Some(&c) = line.get(at) {
                        at += if c == 0x5C { 2 } else { 1 };
                        if c == 0x22 {
                            break;
                        }
                    }
                }
                0x7B | 0x5B => {
                    steps += 1;
                    stack.push(if u == 0x5B { ARRAY } else { 0 });
                }
                0x7D | 0x5D => {
                    steps += 1;
                    if stack.pop() == Some(ARRAY | PAST_FIRST) {
                        later_arrays -= 1;
                    }
                }
                0x2C => {
                    if let Some(top) = stack.last_mut()
                        && *top == ARRAY
                    {
                        *top |= PAST_FIRST;
                        later_arrays += 1;
                    } else if let Some(top) = stack.last_mut() {
                        *top |= PAST_FIRST;
                    }
                }
                _ => {}
            }
        }
    }
    // Shallowest first, in line order within a depth: a counting sort.
    let max_depth = deeper.iter().map(|&(d, _)| d as usize).max().unwrap_or(0);
    let mut starts = vec![0usize; max_depth + 2];
    for &(d, _) in &deeper {
        starts[d as usize + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let mut sorted = vec![0u32; deeper.len()];
    for &(d, k) in &deeper {
        sorted[starts[d as usize]] = k;
        starts[d as usize] += 1;
    }
    (vec![top, shallow, first_elements, sorted], steps)
}

#[cfg(test)]
mod tests;
