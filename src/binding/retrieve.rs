//! Retrieval from a session's own log: `retrieve`, `retrievePage` and
//! `findHash`. The provenance rules are the core's ([`crate::session`]),
//! and so is paging ([`crate::pages`]).

use napi::bindgen_prelude::{Either, Unknown, Utf16String};
use napi::{Env, Result};
use napi_derive::napi;

use super::dsh::session::JsSession;
use super::page_options::page_request;
use super::text_page::TextPage;
use super::values::{number, range_error, string_arg, type_error};
use crate::config::js_number;
use crate::hash::is_hash;
use crate::pages::{self, PageError};
use crate::session::{find_hash, retrieve as retrieve_from};

/// The exact text a `<<ccr:HASH …>>` marker in one of `session`'s pruned
/// tool results stands for, found from the log (the replacement and the
/// original it cites); `undefined` for any hash the pruner did not write.
#[napi(catch_unwind, ts_args_type = "session: Session, hash: string")]
pub fn retrieve(env: Env, session: Unknown, hash: Unknown) -> Result<Either<Utf16String, ()>> {
    Ok(match retrieved(&env, &session, &hash, "retrieve")? {
        Some((_, text)) => Either::A(Utf16String::from(text)),
        None => Either::B(()),
    })
}

/// The retrieval tool's name, as the model calls it (its header names it).
#[napi]
pub const RETRIEVE_TOOL_NAME: &str = pages::TOOL_NAME;

/// Page `options.page` of the exact text behind `hash` in `session` (as
/// `retrieve` finds it) under its header, the two within
/// `options.thresholdChars` code points: whole lines, optionally narrowed
/// to a line range or a search (not both: a `TypeError`); `undefined` for a
/// hash the pruner did not write. Paged here, so the whole dropped text
/// never crosses into JS. A `RangeError` for a page past the last, a
/// selection with no line, or a threshold with no room for a page.
#[napi(catch_unwind, ts_args_type = "session: Session, hash: string, options: PageOptions")]
pub fn retrieve_page<'env>(
    env: &'env Env,
    session: Unknown<'env>,
    hash: Unknown<'env>,
    options: Unknown<'env>,
) -> Result<Either<TextPage, ()>> {
    let request = page_request(env, &options)?;
    let Some((hash, units)) = retrieved(env, &session, &hash, "retrievePage")? else { return Ok(Either::B(())) };
    let found = pages::retrieval(&units, &hash, request.threshold, &request.selection, request.page).map_err(|e| {
        // The too-small message begins with the field's own name.
        let field = if matches!(e, PageError::ThresholdTooSmall { .. }) { "options." } else { "" };
        range_error(env, &format!("retrievePage: {field}{e}"))
    })?;
    Ok(Either::A(TextPage::from(found)))
}

/// Throws the `RangeError` `retrievePage` would for `thresholdChars` too
/// small for a page of any retrieval, so the tool can refuse it at load.
#[napi(catch_unwind, ts_args_type = "thresholdChars: number")]
pub fn check_retrieval_threshold(env: Env, threshold_chars: Unknown) -> Result<()> {
    let Some(n) = number(&threshold_chars)? else {
        return Err(type_error(&env, "thresholdChars must be a number"));
    };
    if !(n >= 1.0 && n.fract() == 0.0) {
        return Err(range_error(&env, &format!("thresholdChars ({}) must be a positive integer", js_number(n))));
    }
    // Saturates past usize::MAX: no page is that long.
    let threshold = n as usize;
    let needed = pages::min_threshold();
    if threshold < needed {
        return Err(range_error(&env, &PageError::ThresholdTooSmall { threshold, needed }.to_string()));
    }
    Ok(())
}

/// The hash `text` names: its first run of `HASH_LEN` lowercase hex digits
/// (a bare hash, or a whole marker); `undefined` when it holds none.
#[napi(catch_unwind, js_name = "findHash", ts_args_type = "text: string")]
pub fn find_hash_in(env: Env, text: Unknown) -> Result<Either<String, ()>> {
    Ok(find_hash(&string_arg(&env, &text, "findHash: text")?).map_or(Either::B(()), Either::A))
}

/// The hash and the text behind it in `session`, for `retrieve` and
/// `retrievePage` (`what` names the caller in errors).
fn retrieved(env: &Env, session: &Unknown, hash: &Unknown, what: &'static str) -> Result<Option<(String, Vec<u16>)>> {
    let hash = String::from_utf16(&string_arg(env, hash, &format!("{what}: hash"))?).ok();
    let mut log = JsSession::new(env, session, what)?;
    match hash {
        Some(hash) if is_hash(&hash) => Ok(retrieve_from(&mut log, &hash)?.map(|text| (hash, text))),
        _ => Ok(None),
    }
}
