//! The places failure lines name: the `path:line` a line opens with
//! (`src/lz4.c:373:57: runtime error: …`, `tests/test_a.py:12: AssertionError`).
//! Where a template's repeats name few places, each many times (a sanitizer
//! reporting one error at five source lines, again and again), a repeat at a
//! place no kept failure of it names is the same error somewhere else, and
//! says more than one more at a place already shown. A flood naming a new
//! place a line (a linter's, a type checker's) is no such template.
//! And the file a line opens with: a type checker's repeats come file by
//! file, and each file's first says where its run starts.

use std::collections::{HashMap, HashSet};

/// Units of a line read at most for its place.
const REACH: usize = 160;

/// A hash of the place line `line` (UTF-16) opens with, past indentation:
/// a path without white space, then `:` and the line's digits. `None` when
/// it opens with none.
pub(super) fn leading_place(line: &[u16]) -> Option<u64> {
    let body = opening(line)?;
    let mut at = 0;
    let end = loop {
        // The next white space ends the path; a `:` and a digit end the place.
        let i = at + body[at..].iter().position(|&u| matches!(u, 0x20 | 0x09 | 0x0A | 0x0D | 0x3A))?;
        if body[i] != 0x3A {
            return None;
        }
        let digits = body[i + 1..].iter().take_while(|&&d| is_digit(d)).count();
        if i > 0 && digits > 0 {
            break i + 1 + digits;
        }
        at = i + 1;
    };
    let hash = body[..end]
        .iter()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, &u| (h ^ u64::from(u)).wrapping_mul(0x0000_0100_0000_01B3));
    Some(hash)
}

/// The path `line` (UTF-16) opens with, past indentation, where a place
/// follows it: `path:12` or `path(12,3)` (a type checker's). `None` when
/// it opens with none.
pub(super) fn leading_file(line: &[u16]) -> Option<&[u16]> {
    let body = opening(line)?;
    let end = body.iter().position(|&u| matches!(u, 0x20 | 0x09 | 0x0A | 0x0D | 0x3A | 0x28))?;
    let place_follows = matches!(body[end], 0x3A | 0x28) && body.get(end + 1).is_some_and(|&d| is_digit(d));
    (end > 0 && place_follows).then(|| &body[..end])
}

/// The positions in `files` (each repeat's [`leading_file`], in the order
/// of the text) where a file's run of repeats opens: a type checker's
/// findings come file by file, and each file's first says where its run
/// starts. Empty unless runs are at least two repeats long on average: a
/// flood naming a new file a line has no runs.
pub(super) fn file_openings(files: &[Option<&[u16]>]) -> Vec<usize> {
    let openings: Vec<usize> =
        (0..files.len()).filter(|&i| files[i].is_some() && (i == 0 || files[i - 1] != files[i])).collect();
    let naming = files.iter().flatten().count();
    if openings.len() * 2 > naming {
        return Vec::new();
    }
    openings
}

/// The first [`REACH`] units of `line` past its indentation, where a
/// place would be; `None` for a blank line.
fn opening(line: &[u16]) -> Option<&[u16]> {
    let start = line.iter().position(|&u| u != u16::from(b' ') && u != u16::from(b'\t'))?;
    Some(&line[start..line.len().min(start + REACH)])
}

fn is_digit(u: u16) -> bool {
    u.wrapping_sub(u16::from(b'0')) < 10
}

/// The templates among `repeats` (each repeat's template and
/// [`leading_place`]) whose repeats naming a place name at most half as
/// many distinct places.
pub(super) fn recurring(repeats: impl Iterator<Item = (u32, Option<u64>)>) -> HashSet<u32> {
    let mut seen: HashMap<u32, (usize, HashSet<u64>)> = HashMap::new();
    for (template, place) in repeats {
        if let Some(place) = place {
            let (count, places) = seen.entry(template).or_default();
            *count += 1;
            places.insert(place);
        }
    }
    seen.into_iter().filter(|(_, (count, places))| places.len() * 2 <= *count).map(|(t, _)| t).collect()
}

/// Places of failures kept, by template.
#[derive(Default)]
pub(super) struct Places(HashSet<(u32, u64)>);

impl Places {
    /// Notes `place` (a failure line's [`leading_place`]) for `template`;
    /// true when it names one not noted for that template before.
    pub fn note(&mut self, template: u32, place: Option<u64>) -> bool {
        place.is_some_and(|place| self.0.insert((template, place)))
    }
}

#[cfg(test)]
mod tests;
