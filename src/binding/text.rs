//! Functions of one text: its length in code points, its retrieval hash,
//! the markers in it, and how a marker is written; and the one conversion
//! every result with dropped texts shares.

use std::collections::BTreeMap;

use napi::bindgen_prelude::{Unknown, Utf16String};
use napi::{Env, Result};
use napi_derive::napi;

use super::values::string_arg;
use crate::hash;
use crate::markers::{Unit, find_markers, format_marker};

/// Code points in `text`, counted as `Array.from(text).length` does.
#[napi(catch_unwind, ts_args_type = "text: string")]
pub fn code_point_length(env: Env, text: Unknown) -> Result<f64> {
    Ok(crate::text::code_point_len(&string_arg(&env, &text, "codePointLength: text")?) as f64)
}

/// The `HASH_LEN`-hex-digit retrieval hash of `text`.
#[napi(catch_unwind, ts_args_type = "text: string")]
pub fn content_hash(env: Env, text: Unknown) -> Result<String> {
    Ok(hash::content_hash(&string_arg(&env, &text, "contentHash: text")?))
}

/// Retrieval markers in `text`, as this package writes them.
#[napi(catch_unwind, ts_args_type = "text: string")]
pub fn count_markers(env: Env, text: Unknown) -> Result<u32> {
    Ok(find_markers(&string_arg(&env, &text, "countMarkers: text")?).len() as u32)
}

/// What a retrieval marker stands for.
// The core's `Unit` by its names (`__test__/words.test.js` checks them).
#[napi(string_enum = "lowercase")]
pub enum MarkerUnit {
    /// [`Unit::Lines`]: a dropped run of whole lines.
    Lines,
    /// [`Unit::Chars`]: the removed middle of one line.
    Chars,
}

impl From<MarkerUnit> for Unit {
    fn from(unit: MarkerUnit) -> Self {
        match unit {
            MarkerUnit::Lines => Unit::Lines,
            MarkerUnit::Chars => Unit::Chars,
        }
    }
}

/// The marker for `count` dropped units named `hash`, as this package
/// writes it (no line ending): `<<ccr:HASH N_lines_offloaded>>`.
#[napi(catch_unwind, js_name = "formatMarker")]
pub fn format_retrieval_marker(hash: String, count: u32, unit: MarkerUnit) -> String {
    format_marker(&hash, u64::from(count), unit.into())
}

/// `kindFrom` when the text's own sample decided its kind (no command named it).
pub const SAMPLE: &str = "sample";

/// Hash → dropped text, as JS strings (exact: lone surrogates included).
pub fn recoverable(map: BTreeMap<String, Vec<u16>>) -> BTreeMap<String, Utf16String> {
    map.into_iter().map(|(hash, text)| (hash, Utf16String::from(text))).collect()
}
