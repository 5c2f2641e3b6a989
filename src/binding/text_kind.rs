//! `TextKind`: what lines mode takes a text to be.

use napi_derive::napi;

use crate::strategy::lines::Kind;

/// What lines mode takes a text to be, which decides how it is outlined
/// (`'log'`: by the failure rules).
// The core's `Kind` by its names (`__test__/words.test.js` checks them).
#[napi(string_enum = "lowercase")]
pub enum TextKind {
    /// [`Kind::Log`].
    Log,
    /// [`Kind::Code`].
    Code,
    /// [`Kind::Diff`].
    Diff,
    /// [`Kind::Search`].
    Search,
    /// [`Kind::Json`].
    Json,
    /// [`Kind::Listing`].
    Listing,
}

impl From<Kind> for TextKind {
    fn from(kind: Kind) -> Self {
        match kind {
            Kind::Log => TextKind::Log,
            Kind::Code => TextKind::Code,
            Kind::Diff => TextKind::Diff,
            Kind::Search => TextKind::Search,
            Kind::Json => TextKind::Json,
            Kind::Listing => TextKind::Listing,
        }
    }
}
