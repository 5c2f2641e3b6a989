//! `TextKind`: what lines mode takes a text to be.

use napi_derive::napi;

use crate::strategy::lines::Kind;

/// What lines mode takes a text to be, which decides how it is outlined
/// (`'log'`: by the failure rules).
#[napi(string_enum = "lowercase")]
pub enum TextKind {
    /// A build, test or CI log, or anything not recognised.
    Log,
    /// Source code.
    Code,
    /// A unified diff.
    Diff,
    /// Search results (`path:line:` prefixes).
    Search,
    /// Pretty-printed JSON.
    Json,
    /// A directory listing.
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
