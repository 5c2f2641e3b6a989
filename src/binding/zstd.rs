//! Zstandard frames for the CLI's session logs: dsh writes `.jsonl.zstd`
//! as a concatenation of independent, checksummed frames, and Node 20 has
//! no zstd in `node:zlib`. Glue over the pure-Rust `ruzstd`.

use napi::Result;
use napi::bindgen_prelude::Buffer;
use napi_derive::napi;
use ruzstd::decoding::{BlockDecodingStrategy, FrameDecoder};
use ruzstd::encoding::{CompressionLevel, compress_to_vec};

const SKIPPABLE_MASK: u32 = 0xFFFF_FFF0;
const SKIPPABLE_MAGIC: u32 = 0x184D_2A50;

/// Why a frame could not be decoded, with the byte offset of its start.
fn frame_error(at: usize, reason: impl std::fmt::Display) -> String {
    format!("corrupt zstd frame at byte {at}: {reason}")
}

/// All frames of `data`, decoded and checksum-verified, concatenated.
fn decompress_frames(data: &[u8]) -> std::result::Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut decoder = FrameDecoder::new();
    while at < data.len() {
        let rest = &data[at..];
        if rest.len() >= 8
            && u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]) & SKIPPABLE_MASK == SKIPPABLE_MAGIC
        {
            let size = u32::from_le_bytes([rest[4], rest[5], rest[6], rest[7]]) as usize;
            if rest.len() < 8 + size {
                return Err(format!("incomplete zstd frame at byte {at} (the file ends inside it)"));
            }
            at += 8 + size;
            continue;
        }
        let mut source = rest;
        decoder.reset(&mut source).map_err(|e| incomplete_or_corrupt(at, source, e))?;
        decoder
            .decode_blocks(&mut source, BlockDecodingStrategy::All)
            .map_err(|e| incomplete_or_corrupt(at, source, e))?;
        if !decoder.is_finished() {
            return Err(format!("incomplete zstd frame at byte {at} (the file ends inside it)"));
        }
        // The computed checksum covers what has been collected: collect first.
        out.extend(decoder.collect().unwrap_or_default());
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
/// checksums verified). Throws `Error("corrupt zstd frame at byte N: …")` or
/// `Error("incomplete zstd frame at byte N …")`.
#[napi(catch_unwind, ts_args_type = "data: Uint8Array")]
pub fn zstd_decompress(data: Buffer) -> Result<Buffer> {
    decompress_frames(&data).map(Buffer::from).map_err(napi::Error::from_reason)
}

/// One independently decodable, checksummed zstd frame holding `data`.
#[napi(catch_unwind, ts_args_type = "data: Uint8Array")]
pub fn zstd_compress_frame(data: Buffer) -> Buffer {
    Buffer::from(compress_to_vec(&data[..], CompressionLevel::Fastest))
}
