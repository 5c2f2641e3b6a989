//! Line views: the text the rules read.
//!
//! A view is a line without a leading CI timestamp
//! (`2026-04-22T16:11:57.0127816Z `), without ANSI escapes (also when a log
//! download kept them as caret text, `^[[31m`) and without its line ending;
//! lone surrogates become U+FFFD. Views are built only for the
//! lines the prefilter flags, so their cost stays small on large logs.

/// Code-unit offset where a line's content starts: after a CI timestamp
/// prefix, any ANSI escapes in front of the text, and a tool's own line
/// prefix (see [`tool_prefix_len`]).
pub(crate) fn content_start(line: &[u16]) -> usize {
    let mut at = timestamp_len(line);
    while let Some(len) = escape_len(&line[at..]) {
        at += len;
    }
    at + tool_prefix_len(&line[at..])
}

/// Length of the prefix a tool writes in front of every line of its
/// report, or 0: Valgrind's process tag (`==14506== `, `--14506-- `,
/// `**14506** `), pytest's `INTERNALERROR> ` and compileall's `*** `. The line is read from
/// after it, so a report's frames, blank lines and indentation read as
/// they would without it. Its one separating space is part of it.
#[inline]
pub(crate) fn tool_prefix_len(s: &[u16]) -> usize {
    let Some(&mark) = s.first() else { return 0 };
    if mark == u16::from(INTERNAL[0]) {
        return if crate::text::starts_with_ascii(s, INTERNAL) { INTERNAL.len() } else { 0 };
    }
    if crate::text::starts_with_ascii(s, COMPILEALL) {
        return COMPILEALL.len();
    }
    if let Some(len) = numbered_len(s) {
        return len;
    }
    valgrind_tag_len(s)
}

/// Length of Valgrind's process tag `s` opens with (`==14506== `,
/// `--14506-- `, `**14506** `, its space included), or 0.
fn valgrind_tag_len(s: &[u16]) -> usize {
    let Some(&mark) = s.first() else { return 0 };
    if !TAG_MARKS.contains(&mark) || s.get(1) != Some(&mark) {
        return 0;
    }
    let digits = s[2..].iter().take_while(|&&u| (0x30..=0x39).contains(&u)).count();
    let at = 2 + digits;
    let closed = digits > 0 && s.get(at) == Some(&mark) && s.get(at + 1) == Some(&mark);
    match s.get(at + 2) {
        Some(&0x20) if closed => at + 3,
        None | Some(&0x0A) | Some(&0x0D) if closed => at + 2,
        _ => 0,
    }
}

/// Length of a source line's number as `cat -n` and `nl` write it (six
/// columns, right-aligned, then a tab) or an agent's file reader does (a
/// `→` for the tab), if `s` opens with one: the source reads as it would
/// unnumbered, its indentation and blank lines included.
fn numbered_len(s: &[u16]) -> Option<usize> {
    let field = s.get(..NUMBER_WIDTH)?;
    let spaces = field.iter().take_while(|&&u| u == 0x20).count();
    let digits = field[spaces..].iter().all(|u| (0x30..=0x39).contains(u));
    (spaces < NUMBER_WIDTH && digits && matches!(s.get(NUMBER_WIDTH), Some(&(0x09 | 0x2192))))
        .then_some(NUMBER_WIDTH + 1)
}

/// Columns `cat -n` gives a line's number.
const NUMBER_WIDTH: usize = 6;

/// Where the content of a sanitizer's line glued into `line` after `at`
/// starts, if one is: a Valgrind line past its tag, or UBSan's report from
/// its `runtime error: ` on (its `file.c:55:29` is glued to the text
/// before it). The tool wrote to stderr while another's stdout line was
/// unfinished (`ok 1==6649== Invalid read of size 8`, `ok 320 -
/// unzigzag(4294test.c:55:29: runtime error: shift exponent 35`), so the
/// terminal shows two lines' text on one. Where the glued line reports a
/// failure, that is the line's verdict: the fragment before it is
/// completed on a later line.
pub(crate) fn glued_start(line: &[u16], at: usize) -> Option<usize> {
    // `--N-- ` is left out: options (`--x--`) are common text, and the tag
    // marks only Valgrind's own chatter.
    (at + 1..line.len()).find_map(|i| match line[i] {
        // Valgrind's tag only: make's `make: *** [all] Error 1` is one line.
        0x3D | 0x2A => Some(i + valgrind_tag_len(&line[i..])).filter(|&c| c > i),
        0x3A => runtime_error_after(line, i),
        _ => None,
    })
}

/// UBSan's report after the colon at `i` of `line`: where its `runtime
/// error: ` starts, if it follows a `:LINE:COLUMN` that ends at `i`.
fn runtime_error_after(line: &[u16], i: usize) -> Option<usize> {
    const RUNTIME_ERROR: &[u8] = b" runtime error: ";
    if !crate::text::starts_with_ascii(&line[i + 1..], RUNTIME_ERROR) {
        return None;
    }
    let digits_before = |end: usize| line[..end].iter().rev().take_while(|&&u| (0x30..=0x39).contains(&u)).count();
    let column = digits_before(i);
    let colon = i.checked_sub(column + 1)?;
    (column > 0 && line[colon] == 0x3A && digits_before(colon) > 0).then_some(i + 2)
}

/// pytest's prefix on the lines of its internal errors.
const INTERNAL: &[u8] = b"INTERNALERROR> ";
/// `python -m compileall`'s mark on the first line of a file's error
/// (`***   File "pkg/m.py", line 228`).
const COMPILEALL: &[u8] = b"*** ";
/// The marks around Valgrind's process tag (`==`, `--`, `**`).
const TAG_MARKS: [u16; 3] = [0x3D, 0x2D, 0x2A];

/// Whether a line opening with unit `u` may have a prefix that
/// [`content_start`] reads past: a timestamp's digit, an escape, a caret
/// escape, or a tool prefix's first character. Any other line's content
/// starts at its first unit.
pub(crate) fn may_open_prefix(u: u16) -> bool {
    (0x30..=0x39).contains(&u)
        || matches!(u, 0x1B | 0x5E | 0x20)
        || u == u16::from(INTERNAL[0])
        || TAG_MARKS.contains(&u)
}

/// Length of a leading `YYYY-MM-DDTHH:MM:SS[.frac]Z ` timestamp, or 0.
fn timestamp_len(line: &[u16]) -> usize {
    const SHAPE: &[u8] = b"dddd-dd-ddTdd:dd:dd";
    if line.len() < SHAPE.len() + 1 {
        return 0;
    }
    for (i, &want) in SHAPE.iter().enumerate() {
        let u = line[i];
        let ok = if want == b'd' { (u16::from(b'0')..=u16::from(b'9')).contains(&u) } else { u == u16::from(want) };
        if !ok {
            return 0;
        }
    }
    let mut at = SHAPE.len();
    if line.get(at) == Some(&u16::from(b'.')) {
        at += 1;
        while line.get(at).is_some_and(|u| (u16::from(b'0')..=u16::from(b'9')).contains(u)) {
            at += 1;
        }
    }
    if line.get(at) != Some(&u16::from(b'Z')) {
        return 0;
    }
    at += 1;
    if line.get(at) == Some(&u16::from(b' ')) {
        at += 1;
    }
    at
}

/// Length of an ANSI escape sequence at the start of `s`, if there is one:
/// introduced by ESC, or by its caret form `^[` followed by a CSI `[`.
pub(crate) fn escape_len(s: &[u16]) -> Option<usize> {
    const ESC: u16 = 0x1B;
    if s.starts_with(&[0x5E, 0x5B, 0x5B]) {
        // `^[[…m`: a CSI whose ESC was written as caret text.
        let end = s[3..].iter().position(|&u| (0x40..=0x7E).contains(&u))?;
        return Some(3 + end + 1);
    }
    if s.first() != Some(&ESC) {
        return None;
    }
    match s.get(1).copied() {
        Some(0x5B) => {
            // CSI: parameters and intermediates, then one final byte.
            let end = s[2..].iter().position(|&u| (0x40..=0x7E).contains(&u))?;
            Some(2 + end + 1)
        }
        Some(0x5D) => {
            // OSC: up to BEL or ESC '\'.
            let mut i = 2;
            while i < s.len() {
                if s[i] == 0x07 {
                    return Some(i + 1);
                }
                if s[i] == ESC && s.get(i + 1) == Some(&0x5C) {
                    return Some(i + 2);
                }
                i += 1;
            }
            Some(s.len())
        }
        Some(_) => Some(2),
        None => Some(1),
    }
}

/// Writes the matching view of `line` into `out` (cleared first): no CI
/// timestamp, no ANSI escapes, no `\r`/`\n`; box-drawing characters before
/// the text (a tree's `│  ├─`, as JUnit's console draws) become spaces, so
/// the text keeps its indentation; lone surrogates become U+FFFD.
pub fn view(line: &[u16], out: &mut String) {
    view_from(line, content_start(line), out);
}

/// [`view`] of a line whose content starts at `at` (see [`content_start`]).
pub(crate) fn view_from(line: &[u16], mut at: usize, out: &mut String) {
    out.clear();
    // Most lines: ASCII without escapes, carets or carriage returns.
    if push_plain(&line[at..], out) {
        return;
    }
    // A line redrawn by carriage returns reads as a terminal shows it: its
    // last frame (a progress bar, then `\r` and the error that replaced it).
    if let Some(frame) = crate::text::last_frame(&line[at..]) {
        at += frame.start;
        while let Some(len) = escape_len(&line[at..]) {
            at += len;
        }
        if push_plain(&line[at..], out) {
            return;
        }
    }
    if clean(&line[at..]) {
        // No escape, caret or carriage return, and no tree drawing to turn
        // into indentation: only transcoded (lone surrogates as U+FFFD).
        let body = &line[at..];
        transcode(body.strip_suffix(&[u16::from(b'\n')]).unwrap_or(body), out);
        return;
    }
    // Still in the line's indentation: only spaces written so far.
    let mut leading = true;
    while at < line.len() {
        if leading && (0x2500..=0x257F).contains(&line[at]) {
            out.push(' ');
            at += 1;
            continue;
        }
        let u = line[at];
        match u {
            0x1B => at += escape_len(&line[at..]).unwrap_or(1),
            0x5E if escape_len(&line[at..]).is_some() => at += escape_len(&line[at..]).unwrap_or(1),
            0x0D | 0x0A => at += 1,
            0x00..=0x7F => {
                // An ASCII run: copied byte for byte (a `^` ends it, to look for a caret escape).
                let run = 1 + line[at + 1..]
                    .iter()
                    .take_while(|&&u| u < 0x80 && u != 0x1B && u != 0x0D && u != 0x0A && u != 0x5E)
                    .count();
                // SAFETY: every unit of the run is below 0x80, so each byte
                // pushed is ASCII and the string stays valid UTF-8.
                unsafe { out.as_mut_vec() }.extend(line[at..at + run].iter().map(|&u| u as u8));
                leading &= line[at..at + run].iter().all(|&u| u == 0x20 || u == 0x09);
                at += run;
            }
            _ => {
                let width = crate::text::step_forward(line, at);
                let c = char::decode_utf16(line[at..at + width].iter().copied())
                    .next()
                    .map_or('\u{FFFD}', |c| c.unwrap_or('\u{FFFD}'));
                out.push(c);
                leading = false;
                at += width;
            }
        }
    }
}

/// The view of a line without a CI timestamp or leading escape, when
/// `line` is plain (see [`push_plain`]): written to `out`, true; false
/// otherwise (`out` then holds nothing to read).
pub(crate) fn plain_view(line: &[u16], out: &mut String) -> bool {
    out.clear();
    // A leading escape or caret escape is not plain; a timestamp or a
    // tool's prefix is looked for.
    timestamp_len(line) == 0 && tool_prefix_len(line) == 0 && push_plain(line, out)
}

/// Appends `units` (less a final `\n`) to the empty `out` as bytes when
/// they are ASCII with no escape, caret escape (`^[`), `\r` or inner `\n`,
/// their view being their bytes, and says whether they were; `out` stays
/// empty when not. SSE2 on x86-64, else [`plain_bytes`]; the tests hold
/// both to the general path.
#[inline]
fn push_plain(units: &[u16], out: &mut String) -> bool {
    debug_assert!(out.is_empty());
    let body = units.strip_suffix(&[u16::from(b'\n')]).unwrap_or(units);
    // SAFETY: either function appends only ASCII bytes, and only when it
    // returns true, so the string stays valid UTF-8.
    let bytes = unsafe { out.as_mut_vec() };
    crate::kernels::plain_bytes(body, bytes)
}

/// True when `units` hold no escape, caret, carriage return or inner line
/// feed, and their indentation is not followed by a box-drawing character:
/// their view is their text, transcoded.
fn clean(units: &[u16]) -> bool {
    let body = units.strip_suffix(&[u16::from(b'\n')]).unwrap_or(units);
    let special = body.iter().fold(false, |acc, &u| acc | matches!(u, 0x1B | 0x5E | 0x0D | 0x0A));
    let first = body.iter().find(|&&u| u != 0x20 && u != 0x09);
    !special && !first.is_some_and(|&u| (0x2500..=0x257F).contains(&u))
}

/// Appends the UTF-8 of `units` to `out`, a lone surrogate as U+FFFD.
fn transcode(units: &[u16], out: &mut String) {
    use crate::text::{is_high_surrogate, is_low_surrogate};
    let mut bytes = std::mem::take(out).into_bytes();
    bytes.reserve(3 * units.len());
    let mut i = 0;
    while i < units.len() {
        let u = units[i];
        if u < 0x80 {
            bytes.push(u as u8);
        } else if u < 0x800 {
            bytes.extend_from_slice(&[0xC0 | (u >> 6) as u8, 0x80 | (u & 0x3F) as u8]);
        } else if is_high_surrogate(u) && units.get(i + 1).is_some_and(|&v| is_low_surrogate(v)) {
            let c = 0x10000 + ((u32::from(u) - 0xD800) << 10) + (u32::from(units[i + 1]) - 0xDC00);
            bytes.extend_from_slice(&[
                0xF0 | (c >> 18) as u8,
                0x80 | (c >> 12 & 0x3F) as u8,
                0x80 | (c >> 6 & 0x3F) as u8,
                0x80 | (c & 0x3F) as u8,
            ]);
            i += 1;
        } else if (0xD800..0xE000).contains(&u) {
            bytes.extend_from_slice("\u{FFFD}".as_bytes());
        } else {
            bytes.extend_from_slice(&[0xE0 | (u >> 12) as u8, 0x80 | (u >> 6 & 0x3F) as u8, 0x80 | (u & 0x3F) as u8]);
        }
        i += 1;
    }
    // Every sequence written above is well-formed UTF-8.
    *out = String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
}

/// True when the view starts with whitespace (an indented line).
pub(crate) fn indented(view: &str) -> bool {
    view.starts_with([' ', '\t'])
}

#[cfg(test)]
mod tests;
