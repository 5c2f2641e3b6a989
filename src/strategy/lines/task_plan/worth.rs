//! What a matched line is worth in the task's ranking ([`Worth`]): its
//! score, less for a listing's directory header and more for an entry
//! under one, less for a diff's unchanged line and a file's name repeated
//! in its header ([`unchanged_lines`]);
//! within a source file, raised in the body of a definition the task
//! names (a matched line that opens one) by that definition's score
//! ([`named_bodies`]); in search hits, raised by the task's words
//! its hunk holds that it does not ([`search_hunks`]: the hits of one
//! function hold the request's words between them); in a commit log,
//! where the request asks when something first appeared, raised where it
//! is a term's oldest mention ([`oldest_mentions`]); and for a line
//! longer than the cap, the share of it that is kept.
//!
//! Work: a step per matched line, the named definitions' bodies (at most
//! [`NAMED_DEFINITIONS`] walks over the text), a look at each line's end
//! of a listing up to its last matched line, and `2 × HUNK_REACH + 1`
//! comparisons per search hit, a step per matched line of a commit log,
//! and a look at each line's start of a diff up to its last matched line.

use std::ops::Range;

use super::super::index::LineIndex;
use super::super::kind::Kind;
use super::super::readers::commits::opens_with_commit;
use super::super::readers::places::{leading_file, leading_line};
use super::super::task::Matches;
use super::{ends_with_colon, is_dir_header, opens_definition};
use crate::signals::{is_blank, view};
use crate::text::{leading_blanks, starts_with_ascii};

/// Definitions the task names whose bodies its matched lines are raised in.
const NAMED_DEFINITIONS: usize = 4;
/// A matched line in the body of a definition the task names is raised by
/// this many times the definition's own score.
const NAMED_BODY_RAISE: f64 = 2.0;
/// Of a listing's directory header's score, the part it counts for (see
/// [`listing_headers`]).
const HEADER_PART: f64 = 0.5;
/// Of a diff's unchanged line's score, the part it counts for (see
/// [`unchanged_lines`]).
const UNCHANGED_PART: f64 = 0.5;
/// Source lines (and output lines) a search hit's hunk reaches either side.
const HUNK_REACH: usize = 24;
/// Of its hunk's other hits' scores, what a search hit is raised by.
const HUNK_RAISE: f64 = 0.5;
/// What its hunk raises a search hit by, at most, times its own score: a
/// hit holding one common word of the task inside a docstring dense with
/// the others stays below a hit that holds a rare one.
const HUNK_RAISE_MOST: f64 = 4.0;

/// What each matched line of one output is worth, read once per plan.
pub(super) struct Worth<'m, 'i, 'a> {
    index: &'i LineIndex<'a>,
    matches: &'m Matches,
    cap: usize,
    /// The named definitions' bodies, each with what it raises a line by.
    bodies: Vec<(Range<usize>, f64)>,
    /// A listing's matched lines, each with its directory header.
    headers: Vec<(usize, Option<usize>)>,
    /// Search hits raised by their hunk, ascending.
    hunks: Vec<(usize, f64)>,
    /// Where the request asks when something first appeared, the lines of
    /// a commit log that hold a term's oldest mention, each raised by the
    /// weights of the terms it is the oldest of, ascending.
    oldest: Vec<(usize, f64)>,
    /// A diff's matched lines that are a hunk's unchanged lines, ascending.
    unchanged: Vec<usize>,
}

impl<'m, 'i, 'a> Worth<'m, 'i, 'a> {
    /// Reads what raises or lowers the matched lines of `index`'s texts;
    /// adds the lines read to `steps`.
    pub fn new(index: &'i LineIndex<'a>, matches: &'m Matches, kinds: &[Kind], cap: usize, steps: &mut usize) -> Self {
        Worth {
            index,
            matches,
            cap,
            bodies: named_bodies(index, matches, kinds, steps),
            headers: listing_headers(index, matches, kinds, steps),
            hunks: search_hunks(index, matches, kinds, steps),
            oldest: oldest_mentions(index, matches, kinds, steps),
            unchanged: unchanged_lines(index, matches, kinds, steps),
        }
    }

    /// What matched line `k`, of score `own`, is worth.
    pub fn value(&self, k: usize, own: f64) -> f64 {
        // In a listing, a directory header is where its entries are, not a
        // finding: it counts for a part, for itself and for each entry under it.
        let score = match self.headers.binary_search_by_key(&k, |&(e, _)| e).map(|i| self.headers[i].1) {
            Ok(None) => HEADER_PART * own,
            Ok(Some(h)) => own + HEADER_PART * self.matches.score(h),
            Err(_) => own,
        };
        let score = if self.unchanged.binary_search(&k).is_ok() { UNCHANGED_PART * score } else { score };
        let body = self.bodies.iter().filter(|(body, _)| body.contains(&k)).map(|&(_, by)| by).fold(0.0, f64::max);
        let hunk = self.hunks.binary_search_by_key(&k, |&(j, _)| j).map_or(0.0, |i| self.hunks[i].1);
        let hunk = hunk.min(own * HUNK_RAISE_MOST);
        let oldest = self.oldest.binary_search_by_key(&k, |&(j, _)| j).map_or(0.0, |i| self.oldest[i].1);
        // A line longer than the cap is cut to it, and its words may be in
        // the part cut: it is worth the share of it that is kept.
        let kept_share = match self.index.cps(k) {
            c if c > self.cap => self.cap as f64 / c as f64,
            _ => 1.0,
        };
        // What the task sets aside is worth a part, raised or not.
        (score + (body + hunk + oldest) * self.matches.aside_share(k)) * kept_share
    }
}

/// The bodies of the definitions the task names in a source file: of the
/// matched lines that open a definition (`def`, `fn`, `class`, …), the
/// [`NAMED_DEFINITIONS`] of highest score, each with the lines after it
/// indented under it (a closing bracket at its own indentation included)
/// and what a matched line there is raised by, [`NAMED_BODY_RAISE`] times
/// the definition's score: the task's words inside the function it names
/// answer it before the same words elsewhere (a usage example in another
/// docstring). Work: a step per matched line of a source file, and the
/// bodies walked, at most [`NAMED_DEFINITIONS`] passes over the text.
fn named_bodies(
    index: &LineIndex<'_>,
    matches: &Matches,
    kinds: &[Kind],
    steps: &mut usize,
) -> Vec<(Range<usize>, f64)> {
    let mut opens: Vec<(f64, usize)> = Vec::new();
    let mut v = String::new();
    for k in matches.lines() {
        if kinds[index.text_of(k)] != Kind::Code {
            continue;
        }
        *steps += 1;
        if opens_definition(index.line(k), &mut v) {
            opens.push((matches.score(k), k));
        }
    }
    opens.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    opens.truncate(NAMED_DEFINITIONS);
    opens
        .into_iter()
        .map(|(score, k)| {
            let end = index.bounds[index.text_of(k)].end;
            let indent = leading_blanks(index.line(k));
            let mut last = k;
            for j in k + 1..end {
                *steps += 1;
                let line = index.line(j);
                if is_blank(line) {
                    continue;
                }
                let at = leading_blanks(line);
                let closes = at == indent && matches!(line.get(at).copied(), Some(0x29 | 0x5D | 0x7D));
                if at <= indent && !closes {
                    break;
                }
                last = j;
            }
            (k + 1..last + 1, score * NAMED_BODY_RAISE)
        })
        .collect()
}

/// In a search's hits, what each matched hit is raised by: a part
/// ([`HUNK_RAISE`]) of the weights of the task's terms it does not hold
/// that its hunk holds (the matched hits of its file within
/// [`HUNK_REACH`] source lines of it, looked for among the [`HUNK_REACH`]
/// matched hits either side): a function whose hits hold the task's words
/// between them, none all of them. Ascending by line; each hit read once,
/// then `2 × HUNK_REACH + 1` comparisons a hit.
fn search_hunks(index: &LineIndex<'_>, matches: &Matches, kinds: &[Kind], steps: &mut usize) -> Vec<(usize, f64)> {
    // Each matched hit read once: its text, its file, its line, its terms.
    let hits: Vec<(usize, usize, &[u16], u32, u32)> = matches
        .lines()
        .filter(|&k| kinds[index.text_of(k)] == Kind::Search)
        .filter_map(|k| {
            *steps += 1;
            let line = index.line(k);
            Some((k, index.text_of(k), leading_file(line)?, leading_line(line)?, matches.terms_on(k)))
        })
        .collect();
    let mut out = Vec::new();
    for (i, &(k, text, file, at, own)) in hits.iter().enumerate() {
        let mut union = own;
        for &(j, t, f, l, terms) in &hits[i.saturating_sub(HUNK_REACH)..(i + HUNK_REACH + 1).min(hits.len())] {
            *steps += 1;
            if j.abs_diff(k) <= HUNK_REACH && t == text && f == file && l.abs_diff(at) as usize <= HUNK_REACH {
                union |= terms;
            }
        }
        let more = matches.weight_of(union & !own);
        if more > 0.0 {
            out.push((k, more * HUNK_RAISE));
        }
    }
    out
}

/// The matched lines of a listing (`ls -R`), ascending, each with the
/// directory header above it (`None` for a header itself): an entry's path
/// is its header's and its own name, and the header is kept with it as
/// what places it, so an entry is ranked by its own words and a part
/// ([`HEADER_PART`]) of its header's, a header by that part of its own.
/// However far below its header an entry is: one look at each line's end
/// up to the last matched line, in one pass.
fn listing_headers(
    index: &LineIndex<'_>,
    matches: &Matches,
    kinds: &[Kind],
    steps: &mut usize,
) -> Vec<(usize, Option<usize>)> {
    let mut out = Vec::new();
    let mut v = String::new();
    // The last header seen in the text read.
    let mut header = None;
    walk_to_matches(index, matches, kinds, Kind::Listing, steps, |j, matched, opens_text| {
        if opens_text {
            header = None;
        }
        let line = index.line(j);
        if matched {
            let own = is_dir_header(view_of(line, &mut v));
            out.push((j, if own { None } else { header }));
            if own {
                header = Some(j);
            }
        } else if ends_with_colon(line) && is_dir_header(view_of(line, &mut v)) {
            header = Some(j);
        }
    });
    out
}

/// Each line of `kind`'s texts of `index`, in order, from a text's first
/// line up to its last matched line: `visit(line, matched, opens_text)`.
/// One step a line visited, added to `steps`; each line visited once.
fn walk_to_matches(
    index: &LineIndex<'_>,
    matches: &Matches,
    kinds: &[Kind],
    kind: Kind,
    steps: &mut usize,
    mut visit: impl FnMut(usize, bool, bool),
) {
    // The text read and the next line to visit in it.
    let (mut text, mut at) = (usize::MAX, 0);
    for k in matches.lines() {
        let t = index.text_of(k);
        if kinds[t] != kind {
            continue;
        }
        if t != text {
            (text, at) = (t, index.bounds[t].start);
        }
        for j in at..=k {
            *steps += 1;
            visit(j, j == k, j == index.bounds[t].start);
        }
        at = k + 1;
    }
}

/// The view of `line` in `v` (see [`view`]).
fn view_of<'v>(line: &[u16], v: &'v mut String) -> &'v str {
    view(line, v);
    v
}

/// Where `matches` asks when something first appeared: in each commit log
/// of `index` (a diff's text that opens with a commit, newest first), each
/// term's last matched line (its oldest commit's), raised by the term's
/// weight; ascending. Work: a step per matched line of a commit log, read
/// from the end.
fn oldest_mentions(index: &LineIndex<'_>, matches: &Matches, kinds: &[Kind], steps: &mut usize) -> Vec<(usize, f64)> {
    if !matches.earliest {
        return Vec::new();
    }
    let logs: Vec<bool> = (0..index.texts.len())
        .map(|t| {
            let lines = index.bounds[t].clone();
            kinds[t] == Kind::Diff && !lines.is_empty() && opens_with_commit(index.line(lines.start))
        })
        .collect();
    // From the end: a term not yet met in its text is at its oldest mention.
    let (mut out, mut text, mut met) = (Vec::new(), None, 0u32);
    for k in matches.lines().rev().filter(|&k| logs[index.text_of(k)]) {
        *steps += 1;
        let t = index.text_of(k);
        if text != Some(t) {
            (text, met) = (Some(t), 0);
        }
        let oldest = matches.terms_on(k) & !met;
        met |= oldest;
        if oldest != 0 {
            out.push((k, matches.weight_of(oldest)));
        }
    }
    out.reverse();
    out
}

/// A diff's matched lines that are unchanged lines of a hunk (a space
/// first, under an `@@` header), or a file's header lines after its
/// `diff` line (`index`, `---`, `+++`: the file named again), ascending:
/// what a diff shows is what changed, and an unchanged line holding the
/// task's words is only where the change is, so it counts for a part
/// ([`UNCHANGED_PART`]). One look at each line's start up to the last
/// matched line, in one pass.
fn unchanged_lines(index: &LineIndex<'_>, matches: &Matches, kinds: &[Kind], steps: &mut usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut in_hunk = false;
    walk_to_matches(index, matches, kinds, Kind::Diff, steps, |j, matched, opens_text| {
        let line = index.line(j);
        if starts_with_ascii(line, b"@@") {
            in_hunk = true;
        } else if opens_text || starts_with_ascii(line, b"diff ") || starts_with_ascii(line, b"commit ") {
            in_hunk = false;
        }
        // A file's `index`, `---` and `+++` lines name it a second time.
        let repeats_file = !in_hunk
            && (starts_with_ascii(line, b"--- ")
                || starts_with_ascii(line, b"+++ ")
                || starts_with_ascii(line, b"index "));
        if matched && ((in_hunk && line.first() == Some(&0x20)) || repeats_file) {
            out.push(j);
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Block;
    use crate::strategy::lines::task::Task;
    use crate::text::utf16;

    #[test]
    fn a_hunk_raises_a_hit_by_four_times_its_own_score_at_most() {
        // A docstring dense with the task's words around a hit holding a
        // common one; far below, a hit holding a rare one alone.
        let mut hits = String::new();
        for i in 0..40 {
            hits.push_str(&format!("src/logger.rs:{}:    /// the logger {i} of the crate\n", 100 + i));
        }
        hits.push_str("src/logger.rs:150:    /// sets module path, target, level and builder method\n"); // 40
        hits.push_str("src/logger.rs:151:    /// the logger\n"); // 41
        hits.push_str("src/logger.rs:900:    pub fn stamp_millis(&mut self) {\n"); // 42
        let text = utf16(&hits);
        let index = LineIndex::new(&[Block::Text(&text)]).unwrap();
        let task = Task::new(&[&utf16("logger: millis stamps? module path, target, level, builder method?")]);
        let matches = Matches::find(&index, &task).unwrap();
        let worth = Worth::new(&index, &matches, &[Kind::Search], 1000, &mut 0);
        let value = |k: usize| worth.value(k, matches.score(k));
        assert!(value(41) <= (1.0 + HUNK_RAISE_MOST) * matches.score(41) + 1e-9, "{} {}", value(41), matches.score(41));
        assert!(value(42) > value(41), "{} vs {}", value(42), value(41));
    }

    #[test]
    fn a_diffs_unchanged_line_and_repeated_file_header_count_for_a_part() {
        // `git diff`: the task's word on an unchanged line and on a changed
        // one; a commit message's indented line is no hunk's; the file the
        // task names on its `diff` line, and again on `---` and `+++`.
        let diff = "commit 0a1b\n\n    retry once on timeout\n\ndiff --git a/x.py b/x.py\nindex 3f2a1b0..9c8d7e6 100644\n--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n     timeout = 30\n-    retries = 1\n+    retries = 3\n";
        let text = utf16(diff);
        let index = LineIndex::new(&[Block::Text(&text)]).unwrap();
        let task = Task::new(&[&utf16("did the timeout or the retries change in x.py?")]);
        let matches = Matches::find(&index, &task).unwrap();
        assert_eq!(unchanged_lines(&index, &matches, &[Kind::Diff], &mut 0), vec![6, 7, 9]);
        let worth = Worth::new(&index, &matches, &[Kind::Diff], 1000, &mut 0);
        for (k, part) in [(9, UNCHANGED_PART), (6, UNCHANGED_PART), (7, UNCHANGED_PART), (2, 1.0), (4, 1.0), (11, 1.0)]
        {
            assert_eq!(worth.value(k, 1.0), part, "line {k}");
        }
    }

    #[test]
    fn a_listings_entry_has_its_header_however_far_below_it() {
        // `ls -lR styles`: the entries the task asks about come 300 lines
        // below the header of the directory they are in.
        let entry = |name: &str| format!("-rw-r--r-- 1 root root  4103 Dec  7 00:13 {name}\n");
        let mut listing = String::from("styles:\n");
        listing.extend((0..20).map(|i| entry(&format!("theme{i}.css"))));
        listing.push_str("\nstyles/base16:\n");
        listing.extend((0..300).map(|i| entry(&format!("scheme{i}.css"))));
        listing.push_str(&entry("solarized-dark.css"));
        let text = utf16(&listing);
        let index = LineIndex::new(&[Block::Text(&text)]).unwrap();
        let matches = Matches::find(&index, &Task::new(&[&utf16("a base16 solarized theme?")])).unwrap();
        let headers = listing_headers(&index, &matches, &[Kind::Listing], &mut 0);
        let base16 = 22;
        assert!(headers.contains(&(base16, None)), "{headers:?}");
        assert!(headers.contains(&(base16 + 301, Some(base16))), "{headers:?}");
    }
}
