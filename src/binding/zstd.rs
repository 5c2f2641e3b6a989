//! Zstandard frames for the command line's session logs: glue over the
//! core's [`zstd`](crate::zstd) module.

use napi::Result;
use napi::bindgen_prelude::Buffer;
use napi_derive::napi;

use crate::zstd;

/// Whether `data` starts with a zstd frame (a skippable one included).
#[napi(catch_unwind, ts_args_type = "data: Uint8Array")]
pub fn starts_with_zstd_frame(data: Buffer) -> bool {
    zstd::starts_with_frame(&data)
}

/// Decodes a concatenation of zstd frames (skippable frames skipped, content
/// checksums verified), at most `MAX_INPUT_BYTES` of output. Throws
/// `Error("corrupt zstd frame at byte N: …")`, `Error("incomplete zstd
/// frame at byte N …")` or `Error("over N bytes once decompressed")`.
#[napi(catch_unwind, ts_args_type = "data: Uint8Array")]
pub fn zstd_decompress(data: Buffer) -> Result<Buffer> {
    zstd::decompress_frames(&data, zstd::MAX_INPUT_BYTES).map(Buffer::from).map_err(napi::Error::from_reason)
}

/// One independently decodable, checksummed zstd frame holding `data`.
#[napi(catch_unwind, ts_args_type = "data: Uint8Array")]
pub fn zstd_compress_frame(data: Buffer) -> Buffer {
    Buffer::from(zstd::compress_frame(&data))
}
