//! Lines redrawn by carriage returns, read as a terminal shows them.
//!
//! Progress bars (`pip`, `curl`, `wget`, `docker pull`, cargo without a
//! tty) redraw one line with bare `\r`s: the log holds every frame, a
//! terminal showed the last. A redrawn line is kept as its last frame
//! (and its first, where that says something else), the frames between
//! them one retrievable inline marker.

use crate::text::{code_point_len, last_frame};

/// The code-unit range of `line` that a terminal overwrote, when the line
/// is redrawn, and its code points: from the end of its first frame (or its
/// start, where the first frame is the same bar as the last) to the start
/// of its last frame ([`last_frame`]). `None` for a line without a bare
/// `\r` inside it, or where the frames between are not longer than
/// `marker` (a marker would not save).
///
/// Invariant: `from <= to <= line.len()`, the last frame and the line
/// ending are after `to`, and `line[from..to]` ends with a `\r`.
pub(super) fn overwritten(line: &[u16], marker: impl Fn(usize) -> usize) -> Option<((usize, usize), usize)> {
    let last = last_frame(line)?;
    let first = line.iter().position(|&u| u == u16::from(b'\r'))?;
    let from = if same_bar(&line[..first], &line[last.clone()]) { 0 } else { first + 1 };
    let to = last.start;
    let removed = code_point_len(&line[from..to]);
    (from < to && removed > marker(removed)).then_some(((from, to), removed))
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
