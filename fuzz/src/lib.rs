//! Shared decoding of fuzz input into the core's inputs.
//!
//! Bytes become UTF-16 units so the fuzzer reaches every case cheaply: a
//! byte below 0x80 is that ASCII unit (newlines and letters are common);
//! a byte from 0x80 up is followed by two bytes that make any unit at all
//! (little-endian), lone surrogates included. Unit 0xFFFF ends a text
//! block, 0xFFFE stands for a rich block.

use tool_result_pruner::content::Block;

/// Reads units from `data`.
pub fn units(data: &[u8]) -> Vec<u16> {
    let mut out = Vec::with_capacity(data.len());
    let mut i = 0;
    while i < data.len() {
        let b = data[i];
        if b < 0x80 {
            out.push(u16::from(b));
            i += 1;
        } else {
            let lo = data.get(i + 1).copied().unwrap_or(0);
            let hi = data.get(i + 2).copied().unwrap_or(0);
            out.push(u16::from_le_bytes([lo, hi]));
            i += 3;
        }
    }
    out
}

/// Splits units into text and rich blocks (see the module docs).
pub fn blocks(units: &[u16]) -> Vec<Option<&[u16]>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &u) in units.iter().enumerate() {
        if u == 0xFFFF || u == 0xFFFE {
            out.push(Some(&units[start..i]));
            if u == 0xFFFE {
                out.push(None);
            }
            start = i + 1;
        }
    }
    out.push(Some(&units[start..]));
    out
}

/// The core's view of decoded blocks.
pub fn core<'a>(blocks: &'a [Option<&'a [u16]>]) -> Vec<Block<'a>> {
    blocks.iter().map(|b| b.map_or(Block::Rich, Block::Text)).collect()
}

/// A little-endian u16 from `data` at `at` (zero past the end).
pub fn word(data: &[u8], at: usize) -> u64 {
    u64::from(u16::from_le_bytes([data.get(at).copied().unwrap_or(0), data.get(at + 1).copied().unwrap_or(0)]))
}
