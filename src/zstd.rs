//! Zstandard frames, for dsh's `.jsonl.zstd` session logs: a concatenation
//! of independent, checksummed frames (Node 20 has no zstd in `node:zlib`).
//! Decoding is bounded: it stops as soon as the output would pass a cap,
//! whatever sizes the frames claim. Pure Rust, over the `ruzstd` crate.

use ruzstd::decoding::{BlockDecodingStrategy, FrameDecoder};
use ruzstd::encoding::{CompressionLevel, compress_to_vec};

/// The most bytes the command line reads from one input (a file, stdin, a
/// decompressed log): V8's longest string in UTF-16 code units, which no
/// more UTF-8 bytes than this can need. The cap [`decompress_frames`] is
/// called with.
pub const MAX_INPUT_BYTES: usize = crate::text::MAX_JS_STRING_UNITS;

const ZSTD_MAGIC: u32 = 0xFD2F_B528;
const SKIPPABLE_MASK: u32 = 0xFFFF_FFF0;
const SKIPPABLE_MAGIC: u32 = 0x184D_2A50;

/// Decoded bytes produced per step, so a frame is read in bounded pieces.
const STEP: usize = 1 << 20;

/// The little-endian magic number at the start of `data`, if it has four bytes.
fn magic(data: &[u8]) -> Option<u32> {
    Some(u32::from_le_bytes(data.get(..4)?.try_into().ok()?))
}

/// Whether `data` starts with a zstd frame (a skippable one included).
pub fn starts_with_frame(data: &[u8]) -> bool {
    magic(data).is_some_and(|m| m == ZSTD_MAGIC || m & SKIPPABLE_MASK == SKIPPABLE_MAGIC)
}

/// One independently decodable, checksummed frame holding `data`.
pub fn compress_frame(data: &[u8]) -> Vec<u8> {
    compress_to_vec(data, CompressionLevel::Fastest)
}

/// All frames of `data`, decoded and checksum-verified, concatenated
/// (skippable frames skipped). An error as soon as the output would pass
/// `cap` bytes, so memory stays within the cap (plus one step and the
/// frame's window) whatever the frames claim. The error says
/// `corrupt zstd frame at byte N: …`, `incomplete zstd frame at byte N …`
/// or `over N bytes once decompressed`.
pub fn decompress_frames(data: &[u8], cap: usize) -> Result<Vec<u8>, String> {
    let mut out: Vec<u8> = Vec::new();
    let mut at = 0;
    let mut decoder = FrameDecoder::new();
    while at < data.len() {
        let rest = &data[at..];
        if rest.len() >= 8 && magic(rest).is_some_and(|m| m & SKIPPABLE_MASK == SKIPPABLE_MAGIC) {
            let size = u32::from_le_bytes([rest[4], rest[5], rest[6], rest[7]]) as usize;
            if rest.len() < 8 + size {
                return Err(incomplete(at));
            }
            at += 8 + size;
            continue;
        }
        let mut source = rest;
        decoder.reset(&mut source).map_err(|e| incomplete_or_corrupt(at, source, e))?;
        loop {
            let finished = decoder
                .decode_blocks(&mut source, BlockDecodingStrategy::UptoBytes(STEP))
                .map_err(|e| incomplete_or_corrupt(at, source, e))?;
            let needed = out.len() + decoder.can_collect();
            if needed > cap {
                return Err(format!("over {cap} bytes once decompressed"));
            }
            if needed > out.capacity() {
                out.reserve_exact((needed * 2).min(cap) - out.len());
            }
            // The computed checksum covers what has been collected: collect first.
            out.extend(decoder.collect().unwrap_or_default());
            if finished {
                break;
            }
        }
        if let (Some(stored), Some(computed)) = (decoder.get_checksum_from_data(), decoder.get_calculated_checksum())
            && stored != computed
        {
            return Err(corrupt(at, "checksum mismatch"));
        }
        at += rest.len() - source.len();
    }
    Ok(out)
}

/// Why a frame could not be decoded, with the byte offset of its start.
fn corrupt(at: usize, reason: impl std::fmt::Display) -> String {
    format!("corrupt zstd frame at byte {at}: {reason}")
}

/// A frame the input ends inside of.
fn incomplete(at: usize) -> String {
    format!("incomplete zstd frame at byte {at} (the file ends inside it)")
}

/// An error reading a frame: "incomplete" when the input ran out, else "corrupt".
fn incomplete_or_corrupt(at: usize, left: &[u8], e: impl std::fmt::Display) -> String {
    if left.is_empty() { incomplete(at) } else { corrupt(at, e) }
}

#[cfg(test)]
mod tests;
