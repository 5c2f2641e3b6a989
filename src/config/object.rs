//! A whole config read from a caller's object: its keys checked, the
//! pruner's keys read and resolved, then the policy's. The binding's
//! `resolveConfig` and `NativePruner` both resolve through [`resolve_object`].

use super::policy_keys::{ResolvedPolicy, resolve_policy};
use super::resolve::{ConfigObject, ConfigValues, Failure, ResolvedConfig, check_keys, resolve};
use crate::text::utf16;

/// A config resolved: how a result is cut, and the session policy.
#[derive(Clone, Debug, PartialEq)]
pub struct Resolved {
    /// The pruner's keys (the budget and lines scopes).
    pub config: ResolvedConfig,
    /// The policy's keys.
    pub policy: ResolvedPolicy,
}

/// Resolves `config`: an unknown key is refused before any value is read;
/// the pruner's keys are read in their order and resolved ([`resolve`]),
/// then the policy's, each read and checked in turn.
pub fn resolve_object<O: ConfigObject>(config: &O) -> Result<Resolved, Failure<O::Error>> {
    check_keys(&config.keys().map_err(Failure::Read)?)?;
    let values = ConfigValues::read(|key| config.get(&utf16(key.name()))).map_err(Failure::Read)?;
    let pruner = resolve(&values)?;
    let policy = resolve_policy(config, &values)?;
    Ok(Resolved { config: pruner, policy })
}
