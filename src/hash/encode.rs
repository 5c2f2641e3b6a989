//! UTF-16 to (W)UTF-8, the bytes a content hash is taken of: valid text as
//! UTF-8, a lone surrogate as the three bytes of its value (as WTF-8 and
//! Python's `surrogatepass` write it), so distinct texts never share bytes.

/// Writes the (W)UTF-8 bytes of `units` (a chunk from [`chunks`]) to the
/// start of `out`, growing it as needed; returns how many.
pub(super) fn encode_chunk(units: &[u16], out: &mut Vec<u8>) -> usize {
    let room = 3 * units.len() + 1;
    if out.len() < room {
        out.resize(room, 0);
    }
    crate::kernels::encode(units, out)
}

#[cfg(test)]
pub(crate) mod tests;
