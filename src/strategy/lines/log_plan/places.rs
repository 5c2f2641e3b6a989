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
mod tests {
    use super::*;
    use crate::text::utf16;

    #[test]
    fn a_template_recurs_when_its_repeats_name_few_places() {
        let lines: Vec<(u32, Vec<u16>)> = (0..40)
            .map(|i| (1, utf16(&format!("src/lz4.c:{}:52: runtime error: load", 372 + i % 3))))
            .chain(
                (0..40)
                    .map(|i| (2, utf16(&format!("src/m.py:{}: error: Function is missing a type annotation", i + 10)))),
            )
            .collect();
        let recurring = recurring(lines.iter().map(|(t, l)| (*t, leading_place(l))));
        assert_eq!(recurring, HashSet::from([1]));
    }

    #[test]
    fn a_place_is_the_path_and_line_a_failure_opens_with() {
        let place = |s: &str| leading_place(&utf16(s));
        let a = place("src/lz4.c:373:57: runtime error: load of misaligned address 0x1");
        assert!(a.is_some());
        // The column and what follows do not count; the line does.
        assert_eq!(a, place("src/lz4.c:373:12: runtime error: store to misaligned address 0x2"));
        assert_ne!(a, place("src/lz4.c:372:57: runtime error: load of misaligned address 0x1"));
        assert_ne!(a, place("src/lz5.c:373:57: runtime error: load of misaligned address 0x1"));
        assert_eq!(place("  tests/test_a.py:12: AssertionError"), place("tests/test_a.py:12: TypeError"));
        for none in ["AssertionError: 3 != 4", "E   assert 1 == 2", "at x.py line 3:4", "Error: 12", ":12: x", ""] {
            assert_eq!(place(none), None, "{none}");
        }
    }

    #[test]
    fn a_file_opens_a_line_before_its_place_and_runs_open_where_it_changes() {
        let file = |s: &str| leading_file(&utf16(s)).map(<[u16]>::to_vec);
        let a = file("src/a.ts(2,3): error TS1484: 'T' is a type");
        assert!(a.is_some());
        assert_eq!(a, file("src/a.ts(9,1): error TS2551: Property"));
        assert_eq!(file("src/a.py:12: error: x"), file("  src/a.py:3: note: y"));
        assert_ne!(a, file("src/b.ts(2,3): error TS1484: 'T' is a type"));
        for none in ["Found 3 errors", "src/a.ts: error", "(1,2): x", "error TS1484: x", ""] {
            assert_eq!(file(none), None, "{none}");
        }
        let (x, y): (Option<&[u16]>, Option<&[u16]>) = (Some(&[1]), Some(&[2]));
        assert_eq!(file_openings(&[x, x, x, None, x, y, y, y]), [0, 4, 5]);
        // A new file a line: no runs.
        assert!(file_openings(&[x, y, x, y]).is_empty());
    }
}
