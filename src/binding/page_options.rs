//! `PageOptions`: what part of a retrieved text to page through, read from
//! JS field by field so that a bad one is named in `retrievePage`'s words.

use napi::bindgen_prelude::{Object, Unknown};
use napi::{Env, Result, ValueType};
use napi_derive::napi;

use super::values::{get, number, object, range_error, string_arg, type_error};
use crate::config::js_number;
use crate::pages::Selection;

/// What part of a retrieved text to page through, and within what: every
/// line, a line range, or a search, never a range and a search. Each count
/// is a positive integer; an absent (or `null`) optional is unset.
#[allow(dead_code, reason = "declared for index.d.ts; read field by field, never built in Rust")]
#[napi(object, object_to_js = false, object_from_js = false)]
pub struct PageOptions {
    /// The pruner's `thresholdChars`: each page and its header fit in it.
    pub threshold_chars: f64,
    /// The page wanted, from 1 (default 1).
    pub page: Option<f64>,
    /// With `lastLine`: only lines `firstLine..=lastLine`, counted from 1.
    pub first_line: Option<f64>,
    /// See `firstLine`.
    pub last_line: Option<f64>,
    /// Only the lines holding this text, with `SEARCH_CONTEXT` neighbours
    /// each. (Read as the JS string it is: exact, lone surrogates included.)
    pub search: Option<String>,
}

/// What `retrievePage`'s options ask for: the selection, the page wanted
/// and the threshold a page and its header fit in.
pub struct PageRequest {
    /// The lines to page through.
    pub selection: Selection,
    /// The page wanted, from 1.
    pub page: usize,
    /// Code points a page and its header hold at most.
    pub threshold: usize,
}

/// The `options` of `retrievePage`: a `TypeError` naming the field for a
/// value of the wrong type or options that name no selection (half a
/// range, or a range and a search), a `RangeError` for a count that is not
/// a positive integer.
pub fn page_request(env: &Env, options: &Unknown<'_>) -> Result<PageRequest> {
    let options = object(env, options, "retrievePage: options")?;
    let threshold = count(env, &options, c"thresholdChars", "thresholdChars")?
        .ok_or_else(|| type_error(env, "retrievePage: options.thresholdChars must be a number"))?;
    let page = count(env, &options, c"page", "page")?.unwrap_or(1);
    let first = count(env, &options, c"firstLine", "firstLine")?;
    let last = count(env, &options, c"lastLine", "lastLine")?;
    let search = get(&options, c"search")?;
    let search = match search.get_type()? {
        ValueType::Undefined | ValueType::Null => None,
        _ => Some(string_arg(env, &search, "retrievePage: options.search")?),
    };
    let selection =
        Selection::from_options(first, last, search).map_err(|e| type_error(env, &format!("retrievePage: {e}")))?;
    Ok(PageRequest { selection, page, threshold })
}

/// `options[key]` as a positive integer, `None` when absent or `null`.
fn count(env: &Env, options: &Object<'_>, key: &std::ffi::CStr, name: &str) -> Result<Option<usize>> {
    let value = get(options, key)?;
    if matches!(value.get_type()?, ValueType::Undefined | ValueType::Null) {
        return Ok(None);
    }
    let Some(n) = number(&value)? else {
        return Err(type_error(env, &format!("retrievePage: options.{name} must be a number")));
    };
    if !(n.fract() == 0.0 && n >= 1.0) {
        let message = format!("retrievePage: options.{name} ({}) must be a positive integer", js_number(n));
        return Err(range_error(env, &message));
    }
    // A count past `usize` (past any text) saturates.
    Ok(Some(n as usize))
}
