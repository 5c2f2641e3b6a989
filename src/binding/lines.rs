//! The line plan's functions for JS: strings, index arrays and plans in and
//! out; offsets are UTF-16 indices, as `String.prototype.slice` uses.

use std::collections::BTreeMap;
use std::ops::Range;

use napi::bindgen_prelude::Unknown;
use napi::{Env, JsValue, Result};
use napi_derive::napi;

use super::blocks::array_len;
use super::js::{Js, Raw, Value, safe_count};
use crate::config::Budgets;
use crate::content::{Block, render_texts};
use crate::lines;
use crate::markers::{self, Unit};
use crate::select::{self, LineOptions};

fn js(env: &Env) -> Js {
    Js(env.raw())
}

/// A JS string as UTF-16; `TypeError` naming `what` otherwise.
pub(crate) fn string_arg(js: Js, value: Value, what: &str) -> Result<Vec<u16>> {
    if !js.is_string(value)? {
        return Err(js.type_error(&format!("{what} must be a string")));
    }
    let mut units = Vec::new();
    js.read_utf16(value, &mut units)?;
    Ok(units)
}

/// A non-negative integer; `TypeError` naming `what` otherwise.
fn count_arg(js: Js, value: Value, what: &str) -> Result<usize> {
    match js.as_number(value)?.and_then(safe_count) {
        Some(n) => Ok(n as usize),
        None => Err(js.type_error(&format!("{what} must be a non-negative integer"))),
    }
}

/// A property of an options object, `None` when there are no options or
/// the property is `undefined`.
fn option_value(js: Js, options: Option<Value>, name: &std::ffi::CStr) -> Result<Option<Value>> {
    let Some(options) = options else { return Ok(None) };
    let value = js.get(options, name)?;
    Ok((js.type_of(value)? != napi::sys::ValueType::napi_undefined).then_some(value))
}

/// An optional non-negative integer property of an options object.
fn option_count(js: Js, options: Option<Value>, name: &std::ffi::CStr, what: &str, default: usize) -> Result<usize> {
    match option_value(js, options, name)? {
        Some(value) => count_arg(js, value, what),
        None => Ok(default),
    }
}

/// An options argument: `undefined` or an object.
fn options_arg(js: Js, value: Option<Unknown<'_>>, what: &str) -> Result<Option<Value>> {
    let Some(value) = value.map(|v| v.raw()) else { return Ok(None) };
    match js.type_of(value)? {
        napi::sys::ValueType::napi_undefined => Ok(None),
        _ if js.is_object(value)? => Ok(Some(value)),
        _ => Err(js.type_error(&format!("{what} must be an object"))),
    }
}

/// A JS array of strings joined into one text, with each string's range.
fn lines_arg(js: Js, value: Value, what: &str) -> Result<(Vec<u16>, Vec<Range<usize>>)> {
    let len = array_len(js, value, what)?;
    let mut text = Vec::new();
    let mut ranges = Vec::with_capacity(len as usize);
    let mut line = Vec::new();
    for i in 0..len {
        let item = js.get_index(value, i)?;
        if !js.is_string(item)? {
            return Err(js.type_error(&format!("{what}[{i}] must be a string")));
        }
        js.read_utf16(item, &mut line)?;
        ranges.push(text.len()..text.len() + line.len());
        text.extend_from_slice(&line);
    }
    Ok((text, ranges))
}

/// A JS array of non-negative integers.
fn indices_arg(js: Js, value: Value, what: &str) -> Result<Vec<usize>> {
    let len = array_len(js, value, what)?;
    (0..len).map(|i| count_arg(js, js.get_index(value, i)?, &format!("{what}[{i}]"))).collect()
}

/// `[start, end)` spans from a JS array of `[start, end]` pairs.
fn spans_arg(js: Js, value: Value, what: &str) -> Result<Vec<Range<usize>>> {
    let len = array_len(js, value, what)?;
    let mut spans = Vec::with_capacity(len as usize);
    for i in 0..len {
        let pair = js.get_index(value, i)?;
        let path = format!("{what}[{i}]");
        if !js.is_object(pair)? || array_len(js, pair, &path)? != 2 {
            return Err(js.type_error(&format!("{path} must be a [start, end] pair")));
        }
        let start = count_arg(js, js.get_index(pair, 0)?, &format!("{path}[0]"))?;
        let end = count_arg(js, js.get_index(pair, 1)?, &format!("{path}[1]"))?;
        spans.push(start..end);
    }
    Ok(spans)
}

fn index_array(js: Js, indices: &[usize]) -> Result<Value> {
    let values: Vec<Value> = indices.iter().map(|&i| js.number(i as f64)).collect::<Result<_>>()?;
    js.array_of(&values)
}

/// `{ [hash]: text }` as a plain object.
pub(crate) fn recoverable_object(js: Js, map: &BTreeMap<String, Vec<u16>>) -> Result<Value> {
    let out = js.object()?;
    for (hash, text) in map {
        let key = std::ffi::CString::new(hash.as_str()).expect("hex has no NUL");
        js.set(out, &key, js.string_utf16(text)?)?;
    }
    Ok(out)
}

fn plan_object(js: Js, content: &[u16], recoverable: &BTreeMap<String, Vec<u16>>, dropped: usize) -> Result<Value> {
    let out = js.object()?;
    js.set(out, c"content", js.string_utf16(content)?)?;
    js.set(out, c"recoverable", recoverable_object(js, recoverable)?)?;
    js.set(out, c"droppedLines", js.number(dropped as f64)?)?;
    Ok(out)
}

/// Splits on `"\n"` only, endings kept: `splitLines(t).join('') === t`.
#[napi(catch_unwind, ts_args_type = "text: string", ts_return_type = "string[]")]
pub fn split_lines(env: Env, text: Unknown) -> Result<Raw> {
    let js = js(&env);
    let units = string_arg(js, text.raw(), "splitLines: text")?;
    let values: Vec<Value> =
        lines::split_lines(&units).into_iter().map(|r| js.string_utf16(&units[r])).collect::<Result<_>>()?;
    Ok(Raw(js.array_of(&values)?))
}

/// Indices of the lines overlapping any `[start, end)` span (UTF-16
/// offsets into `lines.join('')`), ascending.
#[napi(
    catch_unwind,
    ts_args_type = "spans: ReadonlyArray<readonly [number, number]>, lines: readonly string[]",
    ts_return_type = "number[]"
)]
pub fn lines_touched(env: Env, spans: Unknown, lines: Unknown) -> Result<Raw> {
    let js = js(&env);
    let spans = spans_arg(js, spans.raw(), "linesTouched: spans")?;
    let (_, ranges) = lines_arg(js, lines.raw(), "linesTouched: lines")?;
    Ok(Raw(index_array(js, &lines::lines_touched(&spans, &ranges))?))
}

/// Indices of the lines that carry failure signal (see the README's list),
/// ascending.
#[napi(catch_unwind, ts_args_type = "lines: readonly string[]", ts_return_type = "number[]")]
pub fn mandatory_lines(env: Env, lines: Unknown) -> Result<Raw> {
    let js = js(&env);
    let (text, ranges) = lines_arg(js, lines.raw(), "mandatoryLines: lines")?;
    Ok(Raw(index_array(js, &crate::signals::mandatory_lines(&text, &ranges))?))
}

/// `keep` grown by `context` neighbours and the first/last `edge` lines.
#[napi(
    catch_unwind,
    ts_args_type = "keep: readonly number[], nLines: number, options?: { context?: number; edge?: number }",
    ts_return_type = "number[]"
)]
pub fn expand_keep(env: Env, keep: Unknown, n_lines: Unknown, options: Option<Unknown>) -> Result<Raw> {
    let js = js(&env);
    let keep = indices_arg(js, keep.raw(), "expandKeep: keep")?;
    let n = count_arg(js, n_lines.raw(), "expandKeep: nLines")?;
    let options = options_arg(js, options, "expandKeep: options")?;
    let context = option_count(js, options, c"context", "expandKeep: options.context", 2)?;
    let edge = option_count(js, options, c"edge", "expandKeep: options.edge", 2)?;
    Ok(Raw(index_array(js, &lines::expand_keep(&keep, n, context, edge))?))
}

/// Kept lines verbatim, one marker line per dropped run.
#[napi(
    catch_unwind,
    ts_args_type = "lines: readonly string[], keep: readonly number[]",
    ts_return_type = "{ content: string; recoverable: Record<string, string>; droppedLines: number }"
)]
pub fn render(env: Env, lines: Unknown, keep: Unknown) -> Result<Raw> {
    let js = js(&env);
    let (text, ranges) = lines_arg(js, lines.raw(), "render: lines")?;
    let keep = indices_arg(js, keep.raw(), "render: keep")?;
    let plan = lines::render(&text, &ranges, &lines::fates_from_keep(&keep, ranges.len()));
    Ok(Raw(plan_object(js, &plan.content, &plan.recovered(&[&text]), plan.dropped_lines)?))
}

/// The 24-hex-digit retrieval hash of `text`.
#[napi(catch_unwind, ts_args_type = "text: string")]
pub fn content_hash(env: Env, text: Unknown) -> Result<String> {
    let js = js(&env);
    Ok(markers::content_hash(&string_arg(js, text.raw(), "contentHash: text")?))
}

/// `<<ccr:HASH N_lines_offloaded>>` (no line ending).
#[napi(catch_unwind, ts_args_type = "hash: string, nLines: number")]
pub fn format_marker(env: Env, hash: Unknown, n_lines: Unknown) -> Result<String> {
    let js = js(&env);
    let hash = String::from_utf16_lossy(&string_arg(js, hash.raw(), "formatMarker: hash")?);
    if !markers::is_hash(&hash) {
        return Err(js.type_error("formatMarker: hash must be 24 lowercase hex digits"));
    }
    let n = count_arg(js, n_lines.raw(), "formatMarker: nLines")?;
    Ok(markers::format_marker(&hash, n as u64, Unit::Lines))
}

/// The seed's plan of `text`, or with `thresholdChars` the budgeted plan
/// that lines mode uses (`headChars`/`tailChars`, default 0, give the
/// head:tail ratio of cut lines, as in the service's config).
#[napi(
    catch_unwind,
    ts_args_type = "text: string, options?: { spans?: ReadonlyArray<readonly [number, number]>; contextLines?: number; edgeLines?: number; thresholdChars?: number; headChars?: number; tailChars?: number }",
    ts_return_type = "{ content: string; recoverable: Record<string, string>; droppedLines: number }"
)]
pub fn plan_lines(env: Env, text: Unknown, options: Option<Unknown>) -> Result<Raw> {
    let js = js(&env);
    let units = string_arg(js, text.raw(), "planLines: text")?;
    let options = options_arg(js, options, "planLines: options")?;
    let spans = match option_value(js, options, c"spans")? {
        Some(spans) => spans_arg(js, spans, "planLines: options.spans")?,
        None => Vec::new(),
    };
    let context = option_count(js, options, c"contextLines", "planLines: options.contextLines", 2)?;
    let edge = option_count(js, options, c"edgeLines", "planLines: options.edgeLines", 2)?;
    let threshold = match option_value(js, options, c"thresholdChars")? {
        Some(value) => {
            let t = count_arg(js, value, "planLines: options.thresholdChars")?;
            if (t as u64) < crate::config::PRUNE_MARKER_LEN {
                return Err(js.range_error("planLines: options.thresholdChars must be at least 39"));
            }
            Some(t as u64)
        }
        None => None,
    };
    let Some(threshold) = threshold else {
        let plan = lines::plan(&units, &spans, context, edge);
        return Ok(Raw(plan_object(js, &plan.content, &plan.recovered(&[&units]), plan.dropped_lines)?));
    };
    let head = option_count(js, options, c"headChars", "planLines: options.headChars", 0)? as u64;
    let tail = option_count(js, options, c"tailChars", "planLines: options.tailChars", 0)? as u64;
    let budgets = Budgets::new(threshold, head, tail).map_err(|e| js.range_error(&format!("planLines: {e}")))?;
    let blocks = [Block::Text(&units)];
    match select::prune_with_spans(&blocks, &budgets, &LineOptions { context, edge }, &spans) {
        Some(p) => {
            let content = render_texts(&blocks, &p).collect::<Vec<_>>().concat();
            Ok(Raw(plan_object(js, &content, &p.recovered(&blocks), p.dropped_lines)?))
        }
        None => Ok(Raw(plan_object(js, &units, &BTreeMap::new(), 0)?)),
    }
}
