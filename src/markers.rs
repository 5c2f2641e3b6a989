//! The retrieval marker format: writing, finding and undoing markers.
//!
//! Every run the line plan drops becomes one marker naming the run by its
//! [content hash](crate::hash), and the run's exact text stays recoverable,
//! so a wrong drop costs a lookup, not the information. Shapes follow
//! Headroom's resolvers, whose marker regex is `<<ccr:([a-f0-9]{12,24})[^>]*>>`:
//!
//! - a dropped run of whole lines: `<<ccr:HASH N_lines_offloaded>>`, on a line
//!   of its own (followed by the run's final `\n`, if it had one);
//! - the removed middle of one line: `<<ccr:HASH N_chars_offloaded>>`, inline
//!   between the kept head and tail of that line (N in code points).

use std::collections::BTreeMap;
use std::ops::Range;

use crate::hash::{HASH_LEN, content_hash, is_hash};
use crate::words::word_enum;

/// How every retrieval marker begins: the one spelling of the prefix.
pub const MARKER_OPEN: &str = "<<ccr:";

/// How every retrieval marker ends, after `_` and its unit's name.
const MARKER_CLOSE: &str = "_offloaded>>";

word_enum! {
    /// What a marker stands for, named as the marker writes it.
    pub enum Unit {
        /// Whole lines (`N_lines_offloaded`).
        Lines => "lines",
        /// Code points inside one line (`N_chars_offloaded`).
        Chars => "chars",
    }
}

/// The marker for `count` dropped units of text named `hash`, without any
/// line ending: `<<ccr:HASH N_lines_offloaded>>` or `…_chars_offloaded>>`.
pub fn format_marker(hash: &str, count: u64, unit: Unit) -> String {
    format!("{MARKER_OPEN}{hash} {count}_{}{MARKER_CLOSE}", unit.name())
}

/// Length in code points (= UTF-16 units, it is ASCII) of a marker.
pub fn marker_len(count: u64, unit: Unit) -> usize {
    // The prefix, the hash, one space, the count, `_`, the unit's name, the close.
    MARKER_OPEN.len() + HASH_LEN + 1 + decimal_digits(count) + 1 + unit.name().len() + MARKER_CLOSE.len()
}

fn decimal_digits(mut n: u64) -> usize {
    let mut digits = 1;
    while n >= 10 {
        n /= 10;
        digits += 1;
    }
    digits
}

/// A marker found in text: where it is, the hash it names, and its count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundMarker {
    /// Code-unit range of the marker in the text.
    pub at: Range<usize>,
    /// The hash it names.
    pub hash: String,
    /// The number it states.
    pub count: u64,
    /// What the number counts.
    pub unit: Unit,
}

/// Every well-formed marker in `text` (as this crate writes them), in order.
pub fn find_markers(text: &[u16]) -> Vec<FoundMarker> {
    let open: Vec<u16> = MARKER_OPEN.encode_utf16().collect();
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(offset) = text[at..].windows(open.len()).position(|w| w == open) {
        let start = at + offset;
        match parse_marker(&text[start..]) {
            Some((len, hash, count, unit)) => {
                found.push(FoundMarker { at: start..start + len, hash, count, unit });
                at = start + len;
            }
            None => at = start + 1,
        }
    }
    found
}

/// Parses `<<ccr:HASH N_unit_offloaded>>` at the start of `text`.
fn parse_marker(text: &[u16]) -> Option<(usize, String, u64, Unit)> {
    let ascii = |i: usize| text.get(i).copied().filter(|&u| u < 0x80).map(|u| u as u8);
    let from = MARKER_OPEN.len();
    let hash: String = (from..from + HASH_LEN).map(|i| ascii(i).map(char::from)).collect::<Option<_>>()?;
    if !is_hash(&hash) {
        return None;
    }
    let mut i = from + HASH_LEN;
    if ascii(i)? != b' ' {
        return None;
    }
    i += 1;
    let digits_start = i;
    let mut count: u64 = 0;
    while let Some(c @ b'0'..=b'9') = ascii(i) {
        count = count.checked_mul(10)?.checked_add(u64::from(c - b'0'))?;
        i += 1;
    }
    if i == digits_start || (i - digits_start > 1 && text[digits_start] == u16::from(b'0')) {
        return None;
    }
    if ascii(i)? != b'_' {
        return None;
    }
    i += 1;
    let spelled = |at: usize, word: &str| word.bytes().enumerate().all(|(k, b)| ascii(at + k) == Some(b));
    let unit = Unit::ALL.into_iter().find(|u| spelled(i, u.name()))?;
    i += unit.name().len();
    spelled(i, MARKER_CLOSE).then(|| (i + MARKER_CLOSE.len(), hash, count, unit))
}

/// Undoes markers: every marker whose hash is in `recoverable` replaced
/// by its text (a line marker together with the `\n` that closed it).
/// Markers with unknown hashes, and any other text, are left as they are.
pub fn expand(content: &[u16], recoverable: &BTreeMap<String, Vec<u16>>) -> Vec<u16> {
    let mut out = Vec::with_capacity(content.len());
    let mut at = 0;
    for found in find_markers(content) {
        let Some(text) = recoverable.get(&found.hash) else { continue };
        out.extend_from_slice(&content[at..found.at.start]);
        out.extend_from_slice(text);
        at = found.at.end;
        let closes_line = found.unit == Unit::Lines && text.last() == Some(&u16::from(b'\n'));
        if closes_line && content.get(at) == Some(&u16::from(b'\n')) {
            at += 1;
        }
    }
    out.extend_from_slice(&content[at..]);
    out
}

/// The exact text that the marker named `hash` stands for in `pruned`,
/// recovered from `original` (the text `pruned` was made from), or `None`
/// when `pruned` holds no such marker for `original`.
///
/// `pruned` is walked against `original`: text between markers must match
/// exactly; marker text that the original holds at that point is literal
/// (a tool printed it); any other marker is taken as one only when the
/// original text there, `count` lines or code points long, hashes to the
/// marker's hash. So a result is always text whose hash is `hash`, never
/// another run's, and the work is linear in the original's length.
pub fn recover(original: &[u16], pruned: &[u16], hash: &str) -> Option<Vec<u16>> {
    const NEWLINE: u16 = b'\n' as u16;
    let (mut i, mut j) = (0usize, 0usize);
    for m in find_markers(pruned) {
        if m.at.start < j {
            continue;
        }
        let literal = &pruned[j..m.at.start];
        if !original[i..].starts_with(literal) {
            return None;
        }
        i += literal.len();
        // The original holds the marker's own text here: a tool printed it.
        // (A real marker's text would have to begin with a marker naming
        // its own hash.) Checked first, so a printed marker costs its
        // length, not a hash of the lines it claims.
        let text = &pruned[m.at.clone()];
        if original[i..].starts_with(text) {
            i += text.len();
            j = m.at.end;
            continue;
        }
        let end = match m.unit {
            Unit::Lines => {
                let mut end = i;
                let mut lines = 0;
                while lines < m.count && end < original.len() {
                    end = original[end..].iter().position(|&u| u == NEWLINE).map_or(original.len(), |p| end + p + 1);
                    lines += 1;
                }
                (lines == m.count && m.count > 0).then_some(end)
            }
            Unit::Chars => {
                let (len, walked) = crate::text::walk_forward(&original[i..], m.count as usize);
                (walked as u64 == m.count).then_some(i + len)
            }
        };
        match end.filter(|&end| content_hash(&original[i..end]) == m.hash) {
            Some(end) => {
                if m.hash == hash {
                    return Some(original[i..end].to_vec());
                }
                let closes_line = m.unit == Unit::Lines && original[end - 1] == NEWLINE;
                i = end;
                j = m.at.end + usize::from(closes_line && pruned.get(m.at.end) == Some(&NEWLINE));
            }
            // Neither the original's text nor a verifiable marker.
            None => return None,
        }
    }
    None
}

#[cfg(test)]
mod tests;
