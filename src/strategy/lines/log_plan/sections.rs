//! A section of a log under a title framed by rules (pytest's
//! `____ test_x ____`): read as a title, and its block walked, in order.

use super::super::Reason;
use super::super::index::LineIndex;
use super::super::keep::KeepSet;
use crate::signals::{Signals, is_blank};
use crate::text::{is_space, leading_blanks};

/// Lines (not blank) of a titled section the task names kept with it, at most.
const TITLED_BLOCK_LINES: usize = 40;

/// Whether `line` is a title framed by rules: a run of three or more of
/// one of `_=-*#~` at each end and words between (`____ test_x ____`).
pub(super) fn framed_title(line: &[u16]) -> bool {
    let start = leading_blanks(line);
    let end = line.iter().rposition(|&u| !is_space(u)).map_or(0, |e| e + 1);
    let body = &line[start.min(end)..end];
    let Some(&rule) = body.first().filter(|&&u| [b'_', b'=', b'-', b'*', b'#', b'~'].map(u16::from).contains(&u))
    else {
        return false;
    };
    let lead = body.iter().take_while(|&&u| u == rule).count();
    let trail = body.iter().rev().take_while(|&&u| u == rule).count();
    lead >= 3
        && trail >= 3
        && lead + trail < body.len()
        && body[lead..body.len() - trail].iter().take(256).any(|&u| u < 0x80 && (u as u8).is_ascii_alphanumeric())
}

/// Keeps the block under the titled line `k`: the lines after it, in
/// order, up to the next framed title or a summary, at most
/// [`TITLED_BLOCK_LINES`] of them not blank (and four times as many read).
pub(super) fn keep_titled_block(
    keep: &mut KeepSet<'_, '_>,
    index: &LineIndex<'_>,
    signals: &Signals,
    k: usize,
    cap: usize,
) {
    let text = &index.bounds[index.text_of(k)];
    let mut lines = 0;
    // Blank lines too: the walk reads at most four times its lines.
    for j in (k + 1..text.end).take(4 * TITLED_BLOCK_LINES) {
        let line = index.line(j);
        if framed_title(line) || signals.get(j).summary() || lines >= TITLED_BLOCK_LINES || keep.full() {
            break;
        }
        lines += usize::from(!is_blank(line));
        keep.add(j, cap, Reason::Task);
    }
}
