//! The keyword pre-check: which lines are worth building a view for.
//!
//! One fast, case-insensitive multi-literal scan over the text narrowed to
//! one byte per code unit, in bounded windows, split over two threads on
//! large texts. The keywords are the rules' anchors
//! ([`rules::anchors`](super::rules::anchors)), so a line a rule would
//! match is always flagged; a line no trigger touches is never read by the
//! rules.

use std::ops::Range;
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

/// Byte that stands for a failure glyph (`●`, `✕`, `✗`, `×`, `✘`) in the
/// narrowed text, where such glyphs are found apart from the keywords.
const GLYPH: u8 = 1;

/// True for a failure glyph: the dingbat marks U+2700..U+27BF, `●`, `×`.
#[inline(always)]
fn is_glyph(u: u16) -> bool {
    (0x2700..0x27C0).contains(&u) || u == 0x25CF || u == 0x00D7
}

/// The keyword scan, over the text narrowed to one byte per code unit: a
/// SIMD multi-literal searcher where the CPU has one, else an automaton;
/// then the glyph bytes, by `memchr`.
enum Triggers {
    Packed(aho_corasick::packed::Searcher),
    Automaton(AhoCorasick),
}

impl Triggers {
    /// Start offsets of keyword matches in `haystack`, in order.
    fn starts(&self, haystack: &[u8], mut f: impl FnMut(usize)) {
        match self {
            Triggers::Packed(s) => s.find_iter(haystack).for_each(|m| f(m.start())),
            Triggers::Automaton(a) => a.find_iter(haystack).for_each(|m| f(m.start())),
        }
    }
}

fn triggers() -> &'static Triggers {
    static TRIGGER_SCAN: OnceLock<Triggers> = OnceLock::new();
    TRIGGER_SCAN.get_or_init(|| {
        let packed = aho_corasick::packed::Config::new()
            .match_kind(aho_corasick::packed::MatchKind::LeftmostFirst)
            .builder()
            .extend(super::rules::anchors())
            .build();
        match packed {
            Some(searcher) => Triggers::Packed(searcher),
            None => Triggers::Automaton(
                AhoCorasickBuilder::new()
                    .match_kind(MatchKind::LeftmostFirst)
                    .build(super::rules::anchors())
                    .expect("static trigger patterns"),
            ),
        }
    })
}

/// `E   ` at the start of a line's content (pytest's assertion details).
pub(crate) fn starts_pytest_detail(content: &[u16]) -> bool {
    content.len() >= 3
        && content[0] == u16::from(b'E')
        && content[1] == u16::from(b' ')
        && content[2] == u16::from(b' ')
}

/// Lines containing a trigger keyword outside a path-like token (a match
/// inside `dist/lib/error-once.js` is not a reason to look closer).
pub(crate) fn flag_lines(text: &[u16], lines: &[Range<usize>]) -> Vec<bool> {
    let mut flagged = vec![false; lines.len()];
    if text.len() < PARALLEL_FROM {
        flag_range(text, lines, &mut flagged);
        return flagged;
    }
    // Large texts: the second half of the lines on another core.
    let split = lines.len() / 2;
    let (first_lines, second_lines) = lines.split_at(split);
    let (second, ()) = crate::parallel::join(
        || {
            let mut flags = vec![false; second_lines.len()];
            flag_range(text, second_lines, &mut flags);
            flags
        },
        || flag_range(text, first_lines, &mut flagged[..split]),
    );
    flagged[split..].copy_from_slice(&second);
    flagged
}

/// Texts at least this long (code units) have their keyword scan split
/// over two threads.
const PARALLEL_FROM: usize = 1 << 18;

/// Code units narrowed and scanned at a time, to keep memory flat.
pub(crate) const SCAN_WINDOW: usize = 1 << 16;
/// Longer than any trigger: how far windows inside one long line overlap.
const TRIGGER_OVERLAP: usize = 16;

/// Flags `lines` (contiguous, in order) of `text` into `flagged`, a window
/// of about `SCAN_WINDOW` code units at a time.
fn flag_range(text: &[u16], lines: &[Range<usize>], flagged: &mut [bool]) {
    let mut narrowed = Vec::with_capacity(SCAN_WINDOW + TRIGGER_OVERLAP);
    let mut first = 0;
    while first < lines.len() {
        // Whole lines up to the window, or one line on its own.
        let start = lines[first].start;
        let mut last = first;
        while last + 1 < lines.len() && lines[last + 1].end - start <= SCAN_WINDOW {
            last += 1;
        }
        let end = lines[last].end;
        let mut from = start;
        while from < end {
            let to = (from + SCAN_WINDOW).min(end);
            let window_end = (to + TRIGGER_OVERLAP).min(end);
            narrow_into(&text[from..window_end], &mut narrowed);
            // Offsets come in order within each search; `line` follows them.
            let mut mark = |offset: usize, line: &mut usize| {
                let unit = from + offset;
                while lines[*line].end <= unit {
                    *line += 1;
                }
                if !flagged[*line] && !in_path_token(text, lines[*line].clone(), unit) {
                    flagged[*line] = true;
                }
            };
            let mut line = first;
            triggers().starts(&narrowed, |offset| mark(offset, &mut line));
            let mut line = first;
            memchr::memchr_iter(GLYPH, &narrowed).for_each(|offset| mark(offset, &mut line));
            from = to;
        }
        first = last + 1;
    }
}

/// One byte per code unit: ASCII lowercased with every digit as `0` (so an
/// anchor's `0` stands for any digit), failure glyphs as [`GLYPH`],
/// anything else `0x80`. Offsets equal code-unit offsets.
fn narrow_into(text: &[u16], out: &mut Vec<u8>) {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::avx2() {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { narrow_avx2(text, out) };
    }
    narrow(text, out);
}

/// [`narrow`] compiled for AVX2: twice the lanes of the baseline. The whole
/// signal scan of 1 MiB (`cargo bench --bench core -- FILE`, best of
/// three): ASCII logs 0.58 ms with AVX2, 0.81 ms portable; CJK 0.43 vs
/// 0.57; emoji-heavy text 1.22 vs 1.31.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn narrow_avx2(text: &[u16], out: &mut Vec<u8>) {
    narrow(text, out);
}

#[inline(always)]
fn narrow(text: &[u16], out: &mut Vec<u8>) {
    out.clear();
    // Selects only, no branches: the compiler vectorises this.
    out.extend(text.iter().map(|&u| {
        let lower = (u as u8).to_ascii_lowercase();
        let byte = if u >= 0x80 {
            0x80
        } else if lower.is_ascii_digit() {
            b'0'
        } else {
            lower
        };
        if is_glyph(u) { GLYPH } else { byte }
    }));
}

/// True when the whitespace-delimited token around `at` (within `line`)
/// holds a `/` or `\\`. Looks at most a few hundred units each way.
fn in_path_token(text: &[u16], line: Range<usize>, at: usize) -> bool {
    const REACH: usize = 256;
    let is_space = |u: u16| u == u16::from(b' ') || u == u16::from(b'\t');
    let is_slash = |u: u16| u == u16::from(b'/') || u == u16::from(b'\\');
    let from = line.start.max(at.saturating_sub(REACH));
    let to = line.end.min(at + REACH);
    let left = text[from..at].iter().rev().take_while(|&&u| !is_space(u));
    let right = text[at..to].iter().take_while(|&&u| !is_space(u));
    left.chain(right).any(|&u| is_slash(u))
}
