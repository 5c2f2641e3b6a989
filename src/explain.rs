//! What `--explain` prints: one row per line of a text, saying what lines
//! mode read in it and what the plan does with it.
//!
//! Rows are written as they are made, in chunks of at most about
//! [`CHUNK_UNITS`] code units, so the memory is the plan's, not a row or an
//! object per line.

use crate::config::Budgets;
use crate::signals::{Failure, Frame};
use crate::strategy::lines::render::Fate;
use crate::strategy::lines::{self, Explained, Kind, LineOptions, Reason};
use crate::text::{count_newlines, is_high_surrogate, is_low_surrogate, utf16};

/// Code units a chunk of rows reaches before it is written.
pub const CHUNK_UNITS: usize = 1 << 16;

/// Code units of a line a row shows whole; a longer line is cut (at a code
/// point) to three fewer, then `...`.
pub const ROW_LINE_UNITS: usize = 160;

/// The words of one explained line: its class (`pass`, `failure`, `weak`,
/// `cause`, `summary`, `frame`, `flood` or `""`), its fate (`keep`, `cut`,
/// `drop`) and why (the [`Reason`]'s name, `no room` for a dropped line
/// that carries signal, else `""`).
pub fn words(line: &Explained) -> [&'static str; 3] {
    let s = &line.signal;
    let class = if line.flood {
        "flood"
    } else if s.pass() {
        "pass"
    } else {
        match s.failure {
            Failure::Strong => "failure",
            Failure::Weak => "weak",
            Failure::None if s.summary() => "summary",
            Failure::None if s.frame != Frame::None => "frame",
            Failure::None if s.cause() => "cause",
            Failure::None => "",
        }
    };
    let fate = match line.fate {
        Fate::Keep => "keep",
        Fate::Cut { .. } => "cut",
        Fate::Drop => "drop",
    };
    let why = match line.reason {
        Some(reason) => match reason {
            Reason::Span => "span",
            Reason::Failure => "failure",
            Reason::Cause => "cause",
            Reason::Summary => "summary",
            Reason::Frame => "frame",
            Reason::Repeat => "repeat",
            Reason::Weak => "weak",
            Reason::Start => "start",
            Reason::End => "end",
            Reason::Context => "context",
            Reason::Fill => "fill",
            Reason::Outline => "outline",
        },
        None if !class.is_empty() && class != "pass" => "no room",
        None => "",
    };
    [class, fate, why]
}

/// Writes the rows of `text` to `write`, chunk by chunk, and returns the
/// kind of the text; `Ok(None)` (nothing written) when lines mode would not
/// plan it. A row is the line's number (right-aligned to the widest), its
/// fate, why, class (`-` for none) and the line without its `\n`, two spaces
/// apart, ending in `\n`. The first error `write` returns stops the writing
/// and is returned.
pub fn rows<E>(
    text: &[u16],
    budgets: &Budgets,
    options: &LineOptions,
    mut write: impl FnMut(&[u16]) -> Result<(), E>,
) -> Result<Option<Kind>, E> {
    let lines = count_newlines(text) + usize::from(text.last().is_some_and(|&u| u != u16::from(b'\n')));
    let width = lines.max(1).ilog10() as usize + 1;
    let mut chunk: Vec<u16> = Vec::with_capacity(CHUNK_UNITS + 512);
    let (mut number, mut kind, mut failed) = (0usize, None, None);
    let planned = lines::explain(text, budgets, options, |line, explained| {
        if failed.is_some() {
            return;
        }
        number += 1;
        kind.get_or_insert(explained.kind);
        let [class, fate, why] = words(&explained);
        let or_dash = |w: &'static str| if w.is_empty() { "-" } else { w };
        let digits = number.ilog10() as usize + 1;
        chunk.resize(chunk.len() + width - digits, u16::from(b' '));
        let at = chunk.len();
        let mut n = number;
        chunk.resize(at + digits, 0);
        for slot in chunk[at..].iter_mut().rev() {
            *slot = u16::from(b'0') + (n % 10) as u16;
            n /= 10;
        }
        for (word, pad) in [(fate, 4usize), (or_dash(why), 8), (or_dash(class), 7)] {
            chunk.extend_from_slice(&[u16::from(b' '); 2]);
            chunk.extend(word.bytes().map(u16::from));
            chunk.resize(chunk.len() + pad.saturating_sub(word.len()), u16::from(b' '));
        }
        chunk.extend_from_slice(&[u16::from(b' '); 2]);
        let line = line.strip_suffix(&[u16::from(b'\n')]).unwrap_or(line);
        if line.len() > ROW_LINE_UNITS {
            let mut cut = ROW_LINE_UNITS - 3;
            if is_high_surrogate(line[cut - 1]) && is_low_surrogate(line[cut]) {
                cut -= 1;
            }
            chunk.extend_from_slice(&line[..cut]);
            chunk.extend(utf16("..."));
        } else {
            chunk.extend_from_slice(line);
        }
        chunk.push(u16::from(b'\n'));
        if chunk.len() >= CHUNK_UNITS {
            failed = write(&chunk).err();
            chunk.clear();
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    if !planned {
        return Ok(None);
    }
    if !chunk.is_empty() {
        write(&chunk)?;
    }
    Ok(Some(kind.unwrap_or(Kind::Log)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_number_each_line_and_come_in_bounded_chunks() {
        let mut text = utf16(&"a line of a log\n".repeat(20_000));
        text.extend(utf16("error: it failed\n"));
        text.extend(utf16(&format!("{}😀tail\n", "x".repeat(ROW_LINE_UNITS - 4))));
        let (mut out, mut chunks) = (Vec::new(), 0);
        let kind = rows(&text, &Budgets::default(), &LineOptions::default(), |c| {
            assert!(c.len() < CHUNK_UNITS + 512, "a chunk of {} units", c.len());
            chunks += 1;
            out.extend_from_slice(c);
            Ok::<(), ()>(())
        });
        assert_eq!(kind, Ok(Some(Kind::Log)));
        let out = String::from_utf16(&out).expect("no pair is cut");
        let printed: Vec<&str> = out.lines().collect();
        assert_eq!(printed.len(), 20_002);
        assert!(chunks > 1);
        assert!(printed[0].starts_with("    1  keep  start     -        a line of a log"), "{}", printed[0]);
        let failure = printed[20_000];
        assert!(failure.starts_with("20001  keep  ") && failure.ends_with("  failure  error: it failed"), "{failure}");
        // Cut before the pair it would split: 156 units, then `...`.
        let long = printed[20_001];
        assert!(long.ends_with(&format!("{}...", "x".repeat(ROW_LINE_UNITS - 4))), "{long}");
        let short = utf16("short\n");
        assert_eq!(rows(&short, &Budgets::default(), &LineOptions::default(), |_| Err(())), Ok(None));
    }

    #[test]
    fn a_failing_write_stops_the_rows() {
        let text = utf16(&"a line\n".repeat(100_000));
        let mut calls = 0;
        let got = rows(&text, &Budgets::default(), &LineOptions::default(), |_| {
            calls += 1;
            Err("EPIPE")
        });
        assert_eq!((got, calls), (Err("EPIPE"), 1));
    }
}
