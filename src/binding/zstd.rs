//! Zstandard frames for the CLI's session logs: dsh writes `.jsonl.zstd`
//! as a concatenation of independent, checksummed frames, and Node 20 has
//! no zstd in `node:zlib`. Glue over the pure-Rust `ruzstd`.

use napi::Result;
use napi::bindgen_prelude::Buffer;
use napi_derive::napi;
use ruzstd::decoding::{BlockDecodingStrategy, FrameDecoder};
use ruzstd::encoding::{CompressionLevel, compress_to_vec};

const ZSTD_MAGIC: u32 = 0xFD2F_B528;
const SKIPPABLE_MASK: u32 = 0xFFFF_FFF0;
const SKIPPABLE_MAGIC: u32 = 0x184D_2A50;

/// The little-endian magic number at the start of `data`, if it has four bytes.
fn magic(data: &[u8]) -> Option<u32> {
    Some(u32::from_le_bytes(data.get(..4)?.try_into().ok()?))
}

/// Whether `data` starts with a zstd frame (a skippable one included).
#[napi(ts_args_type = "data: Uint8Array")]
pub fn starts_with_zstd_frame(data: Buffer) -> bool {
    magic(&data).is_some_and(|m| m == ZSTD_MAGIC || m & SKIPPABLE_MASK == SKIPPABLE_MAGIC)
}

/// Why a frame could not be decoded, with the byte offset of its start.
fn frame_error(at: usize, reason: impl std::fmt::Display) -> String {
    format!("corrupt zstd frame at byte {at}: {reason}")
}

/// Decoded bytes produced per step, so a frame is read in bounded pieces.
const STEP: usize = 1 << 20;

/// All frames of `data`, decoded and checksum-verified, concatenated; an
/// error as soon as the output would pass `cap` bytes, so memory stays
/// within the cap (plus one step and the frame's window) whatever the
/// frames claim.
fn decompress_frames(data: &[u8], cap: usize) -> std::result::Result<Vec<u8>, String> {
    let mut out: Vec<u8> = Vec::new();
    let mut at = 0;
    let mut decoder = FrameDecoder::new();
    while at < data.len() {
        let rest = &data[at..];
        if rest.len() >= 8 && magic(rest).is_some_and(|m| m & SKIPPABLE_MASK == SKIPPABLE_MAGIC) {
            let size = u32::from_le_bytes([rest[4], rest[5], rest[6], rest[7]]) as usize;
            if rest.len() < 8 + size {
                return Err(format!("incomplete zstd frame at byte {at} (the file ends inside it)"));
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
            return Err(frame_error(at, "checksum mismatch"));
        }
        at += rest.len() - source.len();
    }
    Ok(out)
}

/// An error reading a frame: "incomplete" when the input ran out, else "corrupt".
fn incomplete_or_corrupt(at: usize, left: &[u8], e: impl std::fmt::Display) -> String {
    if left.is_empty() {
        format!("incomplete zstd frame at byte {at} (the file ends inside it)")
    } else {
        frame_error(at, e)
    }
}

/// Decodes a concatenation of zstd frames (skippable frames skipped, content
/// checksums verified), at most [`MAX_INPUT_BYTES`] of output. Throws
/// `Error("corrupt zstd frame at byte N: …")`, `Error("incomplete zstd
/// frame at byte N …")` or `Error("over N bytes once decompressed")`.
#[napi(catch_unwind, ts_args_type = "data: Uint8Array")]
pub fn zstd_decompress(data: Buffer) -> Result<Buffer> {
    decompress_frames(&data, MAX_INPUT_BYTES as usize).map(Buffer::from).map_err(napi::Error::from_reason)
}

/// The most bytes the command line reads from one input (a file, stdin, a
/// decompressed log): V8's longest string in UTF-16 code units, which no
/// more UTF-8 bytes than this can need.
#[napi]
pub const MAX_INPUT_BYTES: u32 = crate::text::MAX_JS_STRING_UNITS as u32;

/// One independently decodable, checksummed zstd frame holding `data`.
#[napi(catch_unwind, ts_args_type = "data: Uint8Array")]
pub fn zstd_compress_frame(data: Buffer) -> Buffer {
    Buffer::from(compress_to_vec(&data[..], CompressionLevel::Fastest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoding_stops_at_the_cap_and_reads_skippable_frames_past() {
        let frame = compress_to_vec(&vec![b'x'; 8 << 20][..], CompressionLevel::Fastest);
        let mut data = vec![0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3];
        data.extend(&frame);
        data.extend(&frame);
        assert_eq!(decompress_frames(&data, 16 << 20).map(|v| v.len()), Ok(16 << 20));
        let err = decompress_frames(&data, (16 << 20) - 1).unwrap_err();
        assert_eq!(err, format!("over {} bytes once decompressed", (16 << 20) - 1));
        assert!(decompress_frames(&data, 1 << 20).unwrap_err().starts_with("over "));
    }
}
