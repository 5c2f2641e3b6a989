//! Lines redrawn by carriage returns, read as a terminal shows them.
//!
//! Progress bars (`pip`, `curl`, `wget`, `docker pull`, cargo without a
//! tty) redraw one line with bare `\r`s: the log holds every frame, a
//! terminal showed the last. A redrawn line is kept as its last frame
//! (and its first, where that says something else), the frames between
//! them one retrievable inline marker.

use crate::text::code_point_len;

const CR: u16 = b'\r' as u16;
const LF: u16 = b'\n' as u16;

/// The code-unit range of `line` that a terminal overwrote, when the line
/// is redrawn: from the end of its first frame (or its start, where the
/// first frame is the same bar as the last) to the start of its last
/// frame. `None` for a line without a bare `\r` inside it, or where the
/// frames between are not longer than `marker` (a marker would not save).
///
/// Invariant: `from <= to <= line.len()`, the last frame and the line
/// ending are after `to`, and `line[from..to]` ends with a `\r`.
pub(super) fn overwritten(line: &[u16], marker: impl Fn(usize) -> usize) -> Option<(usize, usize)> {
    // The content: the line without its `\n` or `\r\n` ending.
    let mut end = line.len();
    if end > 0 && line[end - 1] == LF {
        end -= 1;
        if end > 0 && line[end - 1] == CR {
            end -= 1;
        }
    }
    let content = &line[..end];
    let first = content.iter().position(|&u| u == CR)?;
    // A `\r` closing the content draws nothing after it: the frame before
    // it is the last one shown.
    let body = if content.last() == Some(&CR) { &content[..end - 1] } else { content };
    let last = body.iter().rposition(|&u| u == CR)?;
    let to = last + 1;
    let from = if same_bar(&content[..first], &body[to..]) { 0 } else { first + 1 };
    let removed = code_point_len(&line[from..to]);
    (from < to && removed > marker(removed)).then_some((from, to))
}

/// Whether two frames draw the same bar: equal once digits are left out
/// (a percentage, a byte count, a rate), over their first 48 units.
fn same_bar(a: &[u16], b: &[u16]) -> bool {
    fn shape(s: &[u16]) -> impl Iterator<Item = u16> + '_ {
        s.iter().copied().filter(|u| !(u16::from(b'0')..=u16::from(b'9')).contains(u)).take(48)
    }
    shape(a).eq(shape(b))
}

#[cfg(test)]
mod tests;
