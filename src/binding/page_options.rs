//! `PageOptions`: what part of a retrieved text to page through.

use napi::{Env, JsString, JsValue};
use napi_derive::napi;

use super::values::{range_error, string_arg, type_error};
use crate::pages::Selection;

/// What part of a retrieved text to page through, and how large a page is:
/// every line, a line range, or a search, never a range and a search.
#[napi(object, object_to_js = false)]
pub struct PageOptions<'env> {
    /// Code points a page holds at most.
    pub budget: i64,
    /// The page wanted, from 1 (default 1).
    pub page: Option<i64>,
    /// With `lastLine`: only lines `firstLine..=lastLine`, counted from 1.
    pub first_line: Option<i64>,
    /// See `firstLine`.
    pub last_line: Option<i64>,
    /// Only the lines holding this text, with `SEARCH_CONTEXT` neighbours
    /// each. (Read as the JS string it is: exact, lone surrogates included.)
    pub search: Option<JsString<'env>>,
}

/// A count from an option; a `RangeError` naming it when negative.
fn count(env: &Env, name: &str, value: i64) -> napi::Result<usize> {
    usize::try_from(value)
        .map_err(|_| range_error(env, &format!("retrievePage: options.{name} ({value}) must not be negative")))
}

impl PageOptions<'_> {
    /// The selection, the page wanted and the page size; a `TypeError` for
    /// options that name no selection, a `RangeError` for a negative count.
    pub fn read(self, env: &Env) -> napi::Result<(Selection, usize, usize)> {
        let first = self.first_line.map(|v| count(env, "firstLine", v)).transpose()?;
        let last = self.last_line.map(|v| count(env, "lastLine", v)).transpose()?;
        let search =
            self.search.map(|s| string_arg(env, &s.to_unknown(), "retrievePage: options.search")).transpose()?;
        let selection =
            Selection::from_options(first, last, search).map_err(|e| type_error(env, &format!("retrievePage: {e}")))?;
        Ok((selection, count(env, "page", self.page.unwrap_or(1))?, count(env, "budget", self.budget)?))
    }
}
