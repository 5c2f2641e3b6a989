//! The places failure lines name: the `path:line` a line opens with
//! (`src/lz4.c:373:57: runtime error: …`, `tests/test_a.py:12: AssertionError`).
//! A repeat of a template at a place no kept failure of it names is the same
//! error somewhere else, and says more than one more at a place already shown.

use std::collections::HashSet;

/// Units of a line read at most for its place.
const REACH: usize = 160;

/// A hash of the place line `line` (UTF-16) opens with, past indentation:
/// a path without white space, then `:` and the line's digits. `None` when
/// it opens with none.
pub(super) fn leading_place(line: &[u16]) -> Option<u64> {
    let start = line.iter().position(|&u| u != u16::from(b' ') && u != u16::from(b'\t'))?;
    let body = &line[start..line.len().min(start + REACH)];
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

fn is_digit(u: u16) -> bool {
    u.wrapping_sub(u16::from(b'0')) < 10
}

/// Places of failures kept, by template.
#[derive(Default)]
pub(super) struct Places(HashSet<(u32, u64)>);

impl Places {
    /// Notes where `line`, a failure of the template `template` gives, is;
    /// true when it opens with a place not noted for that template before.
    pub fn note(&mut self, line: &[u16], template: impl FnOnce() -> u32) -> bool {
        leading_place(line).is_some_and(|place| self.0.insert((template(), place)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::utf16;

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
}
