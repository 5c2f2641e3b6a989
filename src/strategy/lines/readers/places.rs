//! The place a line opens with: the `path:line` of a finding
//! (`src/lz4.c:373:57: runtime error: …`, `tests/test_a.py:12:
//! AssertionError`), and its file, as the log plan reads repeats and as a
//! task reads a search hit.

/// Units of a line read at most for its place.
const REACH: usize = 160;

/// A hash of the place line `line` (UTF-16) opens with, past indentation:
/// a path without white space, then `:` and the line's digits. `None` when
/// it opens with none.
pub fn leading_place(line: &[u16]) -> Option<u64> {
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
pub fn leading_file(line: &[u16]) -> Option<&[u16]> {
    let body = opening(line)?;
    let end = body.iter().position(|&u| matches!(u, 0x20 | 0x09 | 0x0A | 0x0D | 0x3A | 0x28))?;
    let place_follows = matches!(body[end], 0x3A | 0x28) && body.get(end + 1).is_some_and(|&d| is_digit(d));
    (end > 0 && place_follows).then(|| &body[..end])
}

/// The line number of the place `line` (UTF-16) opens with, as
/// [`leading_file`] reads it: `12` of `path:12:3` or `path(12,3)`. `None`
/// when it opens with none (or the number is past `u32`).
pub fn leading_line(line: &[u16]) -> Option<u32> {
    let file = leading_file(line)?;
    let body = opening(line)?;
    body[file.len() + 1..]
        .iter()
        .take_while(|&&d| is_digit(d))
        .try_fold(0u32, |n, &d| n.checked_mul(10)?.checked_add(u32::from(d - u16::from(b'0'))))
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
