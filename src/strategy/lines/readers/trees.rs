//! A `tree` drawing's entries and their depth.

/// How deep the entry `line` (UTF-16, as printed: a line's view draws
/// boxes as blanks) is in a `tree` drawing (`├── src`, `│   └── lib.rs`,
/// or in ASCII `|-- src`, `` `-- lib.rs``): the indentation steps before
/// its branch, or `None` when it is no entry.
pub fn tree_depth(line: &[u16]) -> Option<usize> {
    const BRANCHES: [[u16; 4]; 4] = [
        [0x251C, 0x2500, 0x2500, 0x20],
        [0x2514, 0x2500, 0x2500, 0x20],
        [0x7C, 0x2D, 0x2D, 0x20],
        [0x60, 0x2D, 0x2D, 0x20],
    ];
    let mut s = line;
    for depth in 0..TREE_DEPTH_MOST {
        let step = s.get(..4)?;
        if BRANCHES.iter().any(|b| b == step) {
            return Some(depth);
        }
        // One step of indentation: a bar or a space, then three blanks
        // (`tree` pads with no-break spaces).
        let blank = |u: u16| u == 0x20 || u == 0xA0;
        if !(matches!(step[0], 0x2502 | 0x7C | 0x20) && step[1..].iter().all(|&u| blank(u))) {
            return None;
        }
        s = &s[4..];
    }
    None
}

/// Steps of a `tree` drawing read at most.
const TREE_DEPTH_MOST: usize = 64;

#[cfg(test)]
mod tests;
