//! The raw Node-API calls the binding makes, each for a reason napi-rs's
//! own types cannot meet. The first two are for speed, on the paths every
//! prune takes (A/B in one process, `benches/node/compare.js`):
//!
//! - reading a JS string's code units into memory that is not zeroed first:
//!   napi-rs's `Utf16String` zero-fills its buffer before Node-API
//!   overwrites it, a second pass over the memory; head/tail on 1 MiB
//!   results took 0.154 ms with it and 0.106 ms with this read (ASCII; CJK
//!   0.215 vs 0.155, emoji 0.275 vs 0.191);
//! - comparing a short string such as a block's `type` with `"text"`
//!   through a stack buffer, where the safe way creates a JS string per
//!   call: `pruneContent` on a 1 KiB result (under the threshold) took
//!   0.80 µs with a JS string per call and 0.70 µs with this read;
//! - throwing a `TypeError`/`RangeError` whose message is UTF-16 (a config
//!   message quotes the caller's strings exactly, lone surrogates included),
//!   where napi-rs's throws take UTF-8;
//! - printing a value as a template literal does, falling back as the
//!   plugin always did when that throws (a symbol), which needs the pending
//!   exception cleared.

use std::ptr;

use napi::bindgen_prelude::Unknown;
use napi::{Env, Error, JsValue, Result, Status, sys};

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

/// Which error [`throw_utf16`] throws.
#[derive(Clone, Copy, Debug)]
pub enum Thrown {
    /// `TypeError`.
    Type,
    /// `RangeError`.
    Range,
}

/// Throws a `TypeError` or `RangeError` with a UTF-16 `message`; the error
/// to return from the export (napi-rs leaves a pending exception as it is).
pub fn throw_utf16(env: &Env, kind: Thrown, message: &[u16]) -> Error {
    let thrown = || -> Result<()> {
        let text = env.create_string_utf16(message)?;
        let mut error = ptr::null_mut();
        // SAFETY: `env` is the live environment of this call and `text` a
        // string created in it; `error` is written once.
        check(unsafe {
            match kind {
                Thrown::Type => sys::napi_create_type_error(env.raw(), ptr::null_mut(), text.raw(), &mut error),
                Thrown::Range => sys::napi_create_range_error(env.raw(), ptr::null_mut(), text.raw(), &mut error),
            }
        })?;
        // SAFETY: `error` is the error object just created in `env`.
        check(unsafe { sys::napi_throw(env.raw(), error) })
    };
    match thrown() {
        Ok(()) => Error::from_status(Status::PendingException),
        Err(e) => e,
    }
}

/// `value` as a template literal prints it (`${value}`, JavaScript's
/// ToString); when that throws (a symbol, an object whose `toString`
/// throws), `Object.prototype.toString.call(value)`, and when that throws
/// too, `[object Object]`. No exception is left pending.
pub fn describe(env: &Env, value: &Unknown<'_>) -> Vec<u16> {
    let raw = value.value();
    let mut text = ptr::null_mut();
    // SAFETY: live handles borrowed for this call; `text` is written once.
    if unsafe { sys::napi_coerce_to_string(raw.env, raw.value, &mut text) } == sys::Status::napi_ok {
        // SAFETY: `napi_coerce_to_string` succeeded: `text` is a string of this env.
        if let Ok(units) = string_units(&unsafe { Unknown::from_raw_unchecked(raw.env, text) }) {
            return units;
        }
    }
    clear_exception(env);
    tag_of(env, value).unwrap_or_else(|| {
        clear_exception(env);
        "[object Object]".encode_utf16().collect()
    })
}

/// `Object.prototype.toString.call(value)`, or `None` when it throws.
fn tag_of(env: &Env, value: &Unknown<'_>) -> Option<Vec<u16>> {
    use napi::bindgen_prelude::{Function, JsObjectValue, Object};
    let object: Object = env.get_global().ok()?.get_named_property_unchecked("Object").ok()?;
    let prototype: Object = object.get_named_property_unchecked("prototype").ok()?;
    let to_string: Function<(), Unknown> = prototype.get_named_property_unchecked("toString").ok()?;
    let tag = to_string.apply(*value, ()).ok()?;
    string_units(&tag).ok()
}

/// Clears a pending exception, if there is one.
fn clear_exception(env: &Env) {
    let mut exception = ptr::null_mut();
    // SAFETY: `env` is the live environment of this call; with no exception
    // pending this writes `undefined` and changes nothing.
    unsafe { sys::napi_get_and_clear_last_exception(env.raw(), &mut exception) };
}

fn check(status: sys::napi_status) -> Result<()> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(Error::new(Status::from(status), "a Node-API call failed".to_owned()))
    }
}
