//! The raw Node-API calls the binding makes, each because napi-rs's own
//! types cost measurably more on the paths every prune takes (A/B in one
//! process, `benches/node/compare.js`):
//!
//! - reading a JS string's code units into memory that is not zeroed first:
//!   napi-rs's `Utf16String` zero-fills its buffer before Node-API
//!   overwrites it, a second pass over the memory; head/tail on 1 MiB
//!   results took 0.154 ms with it and 0.106 ms with this read (ASCII; CJK
//!   0.215 vs 0.155, emoji 0.275 vs 0.191);
//! - comparing a short string such as a block's `type` with `"text"`
//!   through a stack buffer, where the safe way creates a JS string per
//!   call: `pruneContent` on a 1 KiB result (under the threshold) took
//!   0.80 µs with a JS string per call and 0.70 µs with this read, as
//!   before the rewrite.

use std::ptr;

use napi::bindgen_prelude::Unknown;
use napi::{Error, JsValue, Result, Status, sys};

/// The code units of `value`, which must be a string (lone surrogates kept).
pub fn string_units(value: &Unknown<'_>) -> Result<Vec<u16>> {
    let raw = value.value();
    let mut len = 0;
    // SAFETY: `raw.env` and `raw.value` are the live handles of a value
    // borrowed for this call; a null buffer asks only for the length.
    check(unsafe { sys::napi_get_value_string_utf16(raw.env, raw.value, ptr::null_mut(), 0, &mut len) })?;
    // Node-API writes a terminating NUL after the units.
    let mut units: Vec<u16> = Vec::with_capacity(len + 1);
    let mut written = 0;
    // SAFETY: the buffer has room for `len + 1` units, the size passed;
    // Node-API writes at most that many.
    check(unsafe { sys::napi_get_value_string_utf16(raw.env, raw.value, units.as_mut_ptr(), len + 1, &mut written) })?;
    // SAFETY: Node-API initialised the first `written <= len` units.
    unsafe { units.set_len(written.min(len)) };
    Ok(units)
}

/// True when `value` is a string equal to `expected` (ASCII, at most 31
/// characters); no allocation.
pub fn is_str(value: &Unknown<'_>, expected: &str) -> Result<bool> {
    const ROOM: usize = 32;
    debug_assert!(expected.len() < ROOM && expected.is_ascii());
    let raw = value.value();
    let mut kind = sys::ValueType::napi_undefined;
    // SAFETY: live handles borrowed for this call; `kind` is written once.
    check(unsafe { sys::napi_typeof(raw.env, raw.value, &mut kind) })?;
    if kind != sys::ValueType::napi_string {
        return Ok(false);
    }
    let mut buf = [0u16; ROOM];
    let mut written = 0;
    // SAFETY: the buffer has room for `ROOM` units, the size passed; a
    // longer string is cut short (its length then differs from `expected`).
    check(unsafe { sys::napi_get_value_string_utf16(raw.env, raw.value, buf.as_mut_ptr(), ROOM, &mut written) })?;
    Ok(written == expected.len() && buf[..written].iter().copied().eq(expected.encode_utf16()))
}

fn check(status: sys::napi_status) -> Result<()> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(Error::new(Status::from(status), "reading a string failed".to_owned()))
    }
}
