//! A failure's subject named earlier in a log: the package a resolver
//! could not find (`No matching version found for uuid@^14.2.0`) was
//! fetched and placed long before the error (`fetch manifest
//! uuid@^14.2.0`), and those lines say where it came from.

use memchr::memmem;

use super::LogPlan;
use crate::strategy::lines::Reason;
use crate::text::unit_bytes;

/// Failures whose subjects are looked for, in rank order.
const FAILURES: usize = 6;
/// Subjects looked for at most.
const SUBJECTS: usize = 6;
/// Mentions kept at most, the earliest first.
const MENTIONS: usize = 3;
/// Code units of each text searched for mentions, from its start (the
/// steps that name a subject come before its failure; the search is
/// bounded whatever the text).
const REACH: usize = 1 << 17;
/// Code units of a failure line read for subjects, from its start (a
/// message names what failed early; a line of megabytes costs no more).
const LINE_REACH: usize = 1024;
/// A subject's length in code units, at least and at most.
const SUBJECT_LEN: std::ops::RangeInclusive<usize> = 4..=80;

impl LogPlan<'_, '_, '_> {
    /// Keeps the earliest lines, not kept yet, that name the subject of one
    /// of the first kept `failures` (see [`subjects`]), at most
    /// [`MENTIONS`], from the first text that has any. Each text is searched
    /// once a subject, from its start up to [`REACH`] code units.
    pub(super) fn keep_mentions(&mut self, failures: &[usize]) {
        let mut wanted: Vec<Vec<u16>> = Vec::new();
        for &k in failures.iter().take(FAILURES) {
            let line = self.index.line(k);
            for s in subjects(&line[..line.len().min(LINE_REACH)]) {
                if wanted.len() == SUBJECTS {
                    break;
                }
                if !wanted.iter().any(|w| w == s) {
                    wanted.push(s.to_vec());
                }
            }
        }
        if wanted.is_empty() {
            return;
        }
        // The texts in order, each line's hits ascending: the first text
        // with a mention not kept yet holds the earliest ones.
        let finders: Vec<_> = wanted
            .iter()
            .map(|subject| memmem::FinderBuilder::new().build_forward_with_ranker(Utf16Rank, unit_bytes(subject)))
            .collect();
        let mut found: Vec<usize> = Vec::new();
        for t in 0..self.index.texts.len() {
            let (lines, first) = (self.index.lines_of(t), self.index.bounds[t].start);
            let bytes = unit_bytes(&lines.text[..lines.text.len().min(REACH)]);
            for finder in &finders {
                // Only even offsets start a unit; the failure lines
                // themselves (kept) are among the hits.
                let hits = finder.find_iter(bytes).filter(|at| at % 2 == 0).map(|at| first + lines.line_at(at / 2));
                found.extend(hits.filter(|&k| !self.keep.is_kept(k)).take(MENTIONS));
            }
            if !found.is_empty() {
                break;
            }
        }
        found.sort_unstable();
        found.dedup();
        let cap = self.cap;
        for k in found.into_iter().take(MENTIONS) {
            self.keep.add(k, cap, Reason::Cause);
        }
    }
}

/// The words of failure line `line` that name what failed: a word joining
/// a name to a version, a test to its file or a name to its module
/// (`uuid@^14.2.0`, `tests/test_x.py::test_y`, `pkg.module`), with a
/// letter, of [`SUBJECT_LEN`], without the quotes or punctuation around
/// it, and not a bare path; for `name@version`, also `name@`.
fn subjects(line: &[u16]) -> impl Iterator<Item = &[u16]> {
    let is_space = |u: &u16| matches!(*u, 0x20 | 0x09 | 0x0A | 0x0D);
    line.split(is_space).map(trimmed).filter(|word| names_a_subject(word)).flat_map(|word| {
        let name = word.iter().position(|&u| u == 0x40).filter(|&at| at >= 2).map(|at| &word[..=at]);
        std::iter::once(word).chain(name)
    })
}

/// `word` without the quotes, brackets and punctuation around it.
fn trimmed(word: &[u16]) -> &[u16] {
    let opening = |u: u16| matches!(u, 0x22 | 0x27 | 0x60 | 0x28 | 0x5B | 0x7B | 0x3C);
    let closing =
        |u: u16| matches!(u, 0x22 | 0x27 | 0x60 | 0x29 | 0x5D | 0x7D | 0x3E | 0x2C | 0x2E | 0x3B | 0x3A | 0x21 | 0x3F);
    let start = word.iter().position(|&u| !opening(u)).unwrap_or(word.len());
    let end = word.iter().rposition(|&u| !closing(u)).map_or(start, |e| e + 1).max(start);
    &word[start..end]
}

/// Whether a trimmed word can be a subject (see [`subjects`]).
fn names_a_subject(word: &[u16]) -> bool {
    let joiner = |u: u16| matches!(u, 0x40 | 0x2F | 0x2E | 0x3A);
    let letter = word.iter().any(|&u| u < 0x80 && (u as u8).is_ascii_alphabetic());
    let has = |u: u16| word.contains(&u);
    // A bare path (an executable, a log file) is where, not what.
    let bare_path = has(0x2F) && !has(0x40) && !word.windows(2).any(|w| w == [0x3A, 0x3A]);
    SUBJECT_LEN.contains(&word.len()) && letter && word[1..].iter().any(|&u| joiner(u)) && !bare_path
}

/// How common a byte is in UTF-16 text, roughly, so that a search keys on
/// the needle's rarest bytes: the zero high byte of every ASCII unit most
/// of all, then spaces, letters and digits, then punctuation.
struct Utf16Rank;

impl memchr::arch::all::packedpair::HeuristicFrequencyRank for Utf16Rank {
    fn rank(&self, byte: u8) -> u8 {
        match byte {
            0 => 255,
            b' ' => 250,
            b'a'..=b'z' => 200,
            b'0'..=b'9' => 160,
            b'A'..=b'Z' => 120,
            b'\t' | b'\n' | b'\r' | b'.' | b'-' | b'/' | b'_' | b':' | b',' => 100,
            0x21..=0x7E => 60,
            _ => 20,
        }
    }
}
