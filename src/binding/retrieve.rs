//! Retrieval from a session's own log: `retrieve`, `retrievePage` and
//! `findHash`. The provenance rules are the core's ([`crate::session`]),
//! and so is paging ([`crate::pages`]).

use napi::bindgen_prelude::{Either, Unknown, Utf16String};
use napi::{Env, Result};
use napi_derive::napi;

use super::dsh::session::JsSession;
use super::page_options::page_request;
use super::text_page::TextPage;
use super::values::{range_error, string_arg};
use crate::hash::is_hash;
use crate::pages;
use crate::session::{find_hash, retrieve as retrieve_from};

/// The exact text a `<<ccr:HASH …>>` marker in one of `session`'s pruned
/// tool results stands for, found from the log (the replacement and the
/// original it cites); `undefined` for any hash the pruner did not write.
#[napi(catch_unwind, ts_args_type = "session: Session, hash: string")]
pub fn retrieve(env: Env, session: Unknown, hash: Unknown) -> Result<Either<Utf16String, ()>> {
    Ok(match retrieved(&env, &session, &hash, "retrieve")? {
        Some(text) => Either::A(Utf16String::from(text)),
        None => Either::B(()),
    })
}

/// Page `options.page` of the exact text behind `hash` in `session` (as
/// `retrieve` finds it): whole lines, at most `options.budget` code points,
/// optionally narrowed to a line range or a search (not both: a
/// `TypeError`); `undefined` for a hash the pruner did not write. Paged
/// here, so the whole dropped text never crosses into JS. A `RangeError`
/// for a page past the last or a selection with no line.
#[napi(catch_unwind, ts_args_type = "session: Session, hash: string, options: PageOptions")]
pub fn retrieve_page<'env>(
    env: &'env Env,
    session: Unknown<'env>,
    hash: Unknown<'env>,
    options: Unknown<'env>,
) -> Result<Either<TextPage, ()>> {
    let request = page_request(env, &options)?;
    let Some(units) = retrieved(env, &session, &hash, "retrievePage")? else { return Ok(Either::B(())) };
    let page = pages::page(&units, request.budget, &request.selection, request.page)
        .map_err(|e| range_error(env, &format!("retrievePage: {e}")))?;
    Ok(Either::A(TextPage::from(page)))
}

/// The hash `text` names: its first run of `HASH_LEN` lowercase hex digits
/// (a bare hash, or a whole marker); `undefined` when it holds none.
#[napi(catch_unwind, js_name = "findHash", ts_args_type = "text: string")]
pub fn find_hash_in(env: Env, text: Unknown) -> Result<Either<String, ()>> {
    Ok(find_hash(&string_arg(&env, &text, "findHash: text")?).map_or(Either::B(()), Either::A))
}

/// The text behind `hash` in `session`, for `retrieve` and `retrievePage`
/// (`what` names the caller in errors).
fn retrieved(env: &Env, session: &Unknown, hash: &Unknown, what: &'static str) -> Result<Option<Vec<u16>>> {
    let hash = String::from_utf16(&string_arg(env, hash, &format!("{what}: hash"))?).ok();
    let mut log = JsSession::new(env, session, what)?;
    match hash {
        Some(hash) if is_hash(&hash) => retrieve_from(&mut log, &hash),
        _ => Ok(None),
    }
}
