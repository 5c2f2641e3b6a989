//! The cost model of a line plan: what a dropped run and a cut cost in
//! code points once rendered. The keep-set counts with it and the renderer
//! writes what it counts, so a plan's size is known exactly before it is
//! rendered.

use crate::markers::{Unit, marker_len};

/// Cost in code points of a dropped run of `n` lines with `len` code points
/// ending (or not) in `\n`: its marker line, or the run itself when that is
/// not longer.
pub fn run_cost(n: usize, len: usize, ends_in_newline: bool) -> usize {
    len.min(marker_len(n as u64, Unit::Lines) + usize::from(ends_in_newline))
}

/// Cost in code points of cutting `removed` code points out of a line: the
/// inline marker, or nothing when the cut would not save anything.
pub fn cut_cost(removed: usize) -> usize {
    removed.min(marker_len(removed as u64, Unit::Chars))
}
