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

use super::kind::Kind;
use super::order::{head_then_spread, spread_positions};
use super::readers::commits::{is_commit, is_commit_field};
use super::readers::json_keys::reports_failure;
use super::readers::patterns::DEFINITION_MODIFIERS;
use crate::signals::view;
use crate::substring::Needle;
use crate::text::{TextLines, is_space};

mod code;
use code::code;
mod listing;
use listing::listing;

/// Lines of each outline tier kept in order before the rest is spread.
pub(super) const OUTLINE_HEAD: usize = 4;

/// Most members of a JSON document's top-level value that is shown whole
/// with its key, in the top level's tier (`"peerDependencies": {` and its
/// three ranges): a small object's key says little without them.
const SMALL_OBJECT: usize = 4;

/// The tiers of a text of kind `kind` (line indices local to the text), in
/// the order they are kept; empty for [`Kind::Log`]. With them, the steps
/// taken: lines read and nesting pushed and popped (for the tests that hold
/// the work linear).
pub fn tiers(kind: Kind, lines: TextLines<'_>) -> (Vec<Vec<u32>>, usize) {
    let (tiers, steps, _) = tiers_and_reports(kind, lines);
    (tiers, steps)
}

/// [`tiers`], and a JSON document's keys that report a failure
/// ([`reports_failure`]), ascending, read in the same pass (none for the
/// other kinds).
pub fn tiers_and_reports(kind: Kind, lines: TextLines<'_>) -> (Vec<Vec<u32>>, usize, Vec<u32>) {
    let steps = if kind == Kind::Json { 0 } else { lines.len() };
    let mut reports = Vec::new();
    let (tiers, extra) = match kind {
        Kind::Log => (Vec::new(), 0),
        Kind::Code => (code(lines), 0),
        Kind::Diff => (diff(lines), 0),
        Kind::Search => (search(lines), 0),
        Kind::Json => json(lines, &mut reports),
        Kind::Listing => (listing(lines), 0),
    };
    (tiers, steps + extra, reports)
}

/// Diffs: commit headers and each file's first header line (`diff …`, or
/// `+++` where no `diff` line names the file), the newest commit's hunk
/// headers (and each diffstat's summary, in a `git log --stat`), its header
/// fields and diffstat (a log shows it first), the first change of each of
/// its hunks (a removal with the addition after it), the older commits'
/// hunk headers, the other header lines, the other hunks' first changes,
/// the other changed lines, then context.
fn diff(lines: TextLines<'_>) -> Vec<Vec<u32>> {
    let (mut files, mut hunks, mut other_headers, mut first_changes, mut changes, mut context) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    // The first commit's header fields and diffstat.
    let (mut commits, mut newest) = (0usize, vec![]);
    let mut in_message = false;
    let (mut awaiting_change, mut awaiting_addition) = (false, false);
    let (mut newest_changes, mut older_hunks) = (vec![], vec![]);
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
            if commits <= 1 {
                hunks.push(k)
            } else {
                older_hunks.push(k)
            }
            (awaiting_change, awaiting_addition) = (true, false);
            file_named = false;
        } else if is_stat_summary(&v) {
            // `git log --stat`: a commit's ` N files changed, …` line.
            hunks.push(k);
        } else if v.starts_with('+') || v.starts_with('-') {
            // A hunk's first change, and where it removes first, its first
            // addition: the pair says what became of the line. The newest
            // commit's come first.
            let added = v.starts_with('+');
            let first = if commits == 1 { &mut newest_changes } else { &mut first_changes };
            if std::mem::take(&mut awaiting_change) {
                first.push(k);
                awaiting_addition = !added;
            } else if added && std::mem::take(&mut awaiting_addition) {
                first.push(k);
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
    vec![files, hunks, newest, newest_changes, older_hunks, other_headers, first_changes, changes, context]
}

/// Whether `v` is a diffstat's summary: ` 3 files changed, 10 insertions(+)`.
fn is_stat_summary(v: &str) -> bool {
    let t = v.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && (t[digits..].starts_with(" file changed") || t[digits..].starts_with(" files changed"))
}

/// A search hit's path and its text: `path:line:text` at the start of a
/// view (the path 1 to 400 bytes without white space or `:`).
fn search_hit(v: &[u8]) -> Option<(&[u8], &[u8])> {
    let path = v.iter().take(401).take_while(|&&b| b != b':' && !is_space(u16::from(b))).count();
    if path == 0 || path > 400 || v.get(path) != Some(&b':') {
        return None;
    }
    let digits = v[path + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
    (digits > 0 && v.get(path + 1 + digits) == Some(&b':')).then(|| (&v[..path], &v[path + digits + 2..]))
}

/// Search results: the first hit of every file that defines a name half
/// its file's hits or more hold (what was searched for: `pub enum
/// MatchKind {` in a search for `MatchKind`), else that is no import (its
/// first, where all are), then the others file by file in turn, then the
/// context lines.
fn search(lines: TextLines<'_>) -> Vec<Vec<u32>> {
    let mut by_file = Groups::default();
    // Each file's first hit that is no import, where it has one: a file's
    // imports of what was searched for say least about it.
    let mut lead: Vec<Option<usize>> = Vec::new();
    let mut defines: Vec<Option<(usize, Vec<u8>)>> = Vec::new();
    let mut context = Vec::new();
    let mut v = String::new();
    for k in 0..lines.len() {
        view(lines.line(k), &mut v);
        match search_hit(v.as_bytes()) {
            Some((path, text)) => {
                let import = is_import(text);
                let (g, at) = by_file.add(path, k as u32);
                if g == lead.len() {
                    lead.push(None);
                    defines.push(None);
                }
                if !import && lead[g].is_none() {
                    lead[g] = Some(at);
                }
                if defines[g].is_none()
                    && let Some(name) = defined_name(text)
                {
                    defines[g] = Some((at, name.to_vec()));
                }
            }
            None => context.push(k as u32),
        }
    }
    // That hit leads its file, the rest in their order.
    let mut files = by_file.lists;
    for ((hits, lead), defines) in files.iter_mut().zip(lead).zip(defines) {
        // A definition of a name half its file's hits or more hold: what was searched for.
        let defines = defines.and_then(|(at, name)| {
            let name = Needle::new(&name.iter().map(|&b| u16::from(b)).collect::<Vec<u16>>());
            let holds = |k: u32| name.is_in(lines.line(k as usize));
            // Read until half the hits are found holding it, or can no longer be.
            let (mut holding, mut read) = (0, 0);
            for &k in hits.iter() {
                if holding * 2 >= hits.len() || (hits.len() - read + holding) * 2 < hits.len() {
                    break;
                }
                read += 1;
                holding += usize::from(holds(k));
            }
            (holding * 2 >= hits.len()).then_some(at)
        });
        if let Some(i) = defines.or(lead) {
            hits[..=i].rotate_right(1);
        }
    }
    vec![files.iter().map(|hits| hits[0]).collect(), round_robin(&files, 1), context]
}

/// What opens a definition of a name ([`defined_name`]).
const KEYWORDS: &[&[u8]] =
    &[b"def", b"class", b"fn", b"func", b"function", b"struct", b"enum", b"trait", b"impl", b"interface", b"type"];
/// The name a line of code defines (a type, a function, a trait's
/// implementation), not a binding's (`let`, `var`, `const`): the first
/// identifier of three characters or more after the keyword (not a
/// generic's `T`).
fn defined_name(code: &[u8]) -> Option<&[u8]> {
    let t = code.trim_ascii_start();
    let ident = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'$';
    // Most hits are no definition: their first word says so before any pattern runs.
    let first = &t[..t.iter().position(|b| !ident(b)).unwrap_or(t.len())];
    let modifier = || DEFINITION_MODIFIERS.iter().any(|m| m.as_bytes() == first);
    if !(t.first() == Some(&b'@') || KEYWORDS.contains(&first) || modifier()) {
        return None;
    }
    let p = super::readers::patterns::patterns();
    if !(p.definition.is_match(code) || p.function.is_match(code)) {
        return None;
    }
    let mut words = t.split(|b| !ident(b)).filter(|w| !w.is_empty());
    words.find(|w| KEYWORDS.contains(w))?;
    words.find(|w| !matches!(*w, b"for" | b"dyn" | b"mut")).filter(|w| w.len() >= 3)
}

/// Whether a line of code only imports (`import x`, `from x import y`,
/// `use x::y;`, `#include <x>`, `const x = require('x')`).
fn is_import(code: &[u8]) -> bool {
    let code = code.trim_ascii();
    let has = |needle: &[u8]| code.windows(needle.len()).any(|w| w == needle);
    code.starts_with(b"import ")
        || code.starts_with(b"from ") && has(b" import ")
        || code.starts_with(b"use ") && code.ends_with(b";")
        || code.starts_with(b"#include")
        || (code.starts_with(b"const ") || code.starts_with(b"var ") || code.starts_with(b"let ")) && has(b"require(")
}

/// Lines grouped by a key (a file, a directory), groups in the order their
/// keys first appear; hashed, so many groups cost no more than few.
#[derive(Default)]
struct Groups {
    index: HashMap<Vec<u8>, usize>,
    lists: Vec<Vec<u32>>,
}

impl Groups {
    /// Adds `line` to `key`'s group; returns the group's index and the
    /// line's place in it.
    fn add(&mut self, key: &[u8], line: u32) -> (usize, usize) {
        match self.index.get(key) {
            Some(&i) => {
                self.lists[i].push(line);
                (i, self.lists[i].len() - 1)
            }
            None => {
                self.index.insert(key.to_owned(), self.lists.len());
                self.lists.push(vec![line]);
                (self.lists.len() - 1, 0)
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
/// shallowest first. The second level comes value by value in turn, each
/// value's keys spread over it (its first, its last, its middle, …) and
/// its closing bracket after them: a small object is whole after a few
/// rounds, a long map (a package's release times) gives a key a round. One
/// scan of each line's bytes; the nesting is a byte a level, and whether
/// any open array is past its first element is a count.
fn json(lines: TextLines<'_>, reports: &mut Vec<u32>) -> (Vec<Vec<u32>>, usize) {
    const ARRAY: u8 = 1;
    // Lines read, and nesting levels opened and closed.
    let mut steps = 0;
    const PAST_FIRST: u8 = 2;
    let mut stack: Vec<u8> = Vec::new();
    // Open arrays past their first element.
    let mut later_arrays = 0usize;
    let (mut top, mut first_elements) = (Vec::new(), Vec::new());
    // The second level's lines, by the top-level line whose value holds
    // them (its place in `top`): a group only for a value that has some,
    // its keys apart from its closing brackets.
    let mut shallow: Vec<(usize, Vec<u32>, Vec<u32>)> = Vec::new();
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
        if line.get(start) == Some(&0x22) && reports_failure(&line[start..]) {
            reports.push(k);
        }
        if !later && depth <= 1 && key {
            top.push(k);
        } else if !later && depth <= 2 && key {
            if shallow.last().is_none_or(|&(owner, _, _)| owner != top.len()) {
                shallow.push((top.len(), Vec::new(), Vec::new()));
            }
            if let Some((_, keys, closing)) = shallow.last_mut() {
                // A value's closing bracket is no key of it.
                if matches!(line.get(start), Some(&(0x7D | 0x5D))) { closing.push(k) } else { keys.push(k) }
            }
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
    // The top level: its first lines in order, the rest spread; a key whose
    // value is a small object (no more than [`SMALL_OBJECT`] members, each
    // on its line) brings it, right after it.
    let top = {
        let mut members: HashMap<u32, Vec<u32>> = HashMap::new();
        for (owner, keys, closing) in &shallow {
            let Some(&key) = owner.checked_sub(1).and_then(|o| top.get(o)) else { continue };
            let whole = keys.len() <= SMALL_OBJECT
                && keys.iter().enumerate().all(|(i, &k)| k == key + 1 + i as u32)
                && closing.as_slice() == [key + 1 + keys.len() as u32];
            if whole {
                members.insert(key, keys.iter().chain(closing).copied().collect());
            }
        }
        let order = head_then_spread(top.len(), OUTLINE_HEAD).map(|i| top[i]);
        order.flat_map(|k| std::iter::once(k).chain(members.remove(&k).unwrap_or_default())).collect::<Vec<u32>>()
    };
    // Each value's keys spread over it, then value by value in turn: a
    // small object is whole after a few rounds, a long map (a package's
    // release times) gives one key a round.
    let shallow: Vec<Vec<u32>> = shallow
        .iter()
        .map(|(_, keys, closing)| {
            spread_positions(keys.len()).map(|i| keys[i]).chain(closing.iter().copied()).collect()
        })
        .collect();
    let shallow = round_robin(&shallow, 0);
    (vec![top, shallow, first_elements, sorted], steps)
}

#[cfg(test)]
mod tests;
