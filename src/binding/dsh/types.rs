//! dsh's own types, by name. The generated index.d.ts imports `CallId`,
//! `ContentBlock`, `Message` and `Session` from dsh's packages in its
//! header (`napi.dtsHeader` in package.json), and napi-rs declares a value
//! of a type it does not know by the type's name; so a value of one of
//! these types is declared with dsh's type, and the plugin passes it on
//! without a cast. Each holds the JS value as the caller gave it.

use napi::bindgen_prelude::{ToNapiValue, Unknown};
use napi::{JsValue, Result, sys};

/// A content block as the caller passed it, or a copy of a text block with
/// its new text: dsh-llm's `ContentBlock`.
pub struct ContentBlock<'env>(pub Unknown<'env>);

/// A tool call's id as the session holds it, passed through: dsh-llm's `CallId`.
pub struct CallId<'env>(pub Unknown<'env>);

impl ToNapiValue for ContentBlock<'_> {
    unsafe fn to_napi_value(_env: sys::napi_env, block: Self) -> Result<sys::napi_value> {
        Ok(block.0.raw())
    }
}

impl ToNapiValue for CallId<'_> {
    unsafe fn to_napi_value(_env: sys::napi_env, id: Self) -> Result<sys::napi_value> {
        Ok(id.0.raw())
    }
}
