//! `CommandKind`: the kind a shell command names for what it prints
//! ([`crate::command_kind`] decides), and the optional `command` argument
//! of `planLines` and `explain`.

use napi::bindgen_prelude::Unknown;
use napi::{Env, Result, ValueType};
use napi_derive::napi;

use super::text_kind::TextKind;
use super::values::string_arg;
use crate::command_kind::{CallKind, kind_of_command as named_by};

/// The kind a shell command names for its output.
#[napi(object, object_from_js = false)]
pub struct CommandKind {
    /// The kind.
    pub kind: TextKind,
    /// The words that decided, such as `` `git diff` ``.
    pub reason: String,
}

/// The kind the shell command `command` names for what it prints, or
/// `null` when it is ambiguous (the sample decides).
#[napi(catch_unwind, ts_args_type = "command: string")]
pub fn kind_of_command(env: Env, command: Unknown) -> Result<Option<CommandKind>> {
    let named = command_kind(&env, Some(&command), "kindOfCommand: command")?;
    Ok(named.map(|c| CommandKind { kind: c.kind.into(), reason: c.reason }))
}

/// The kind an optional command argument names; a `TypeError` naming
/// `what` for a value that is neither a string nor `undefined`, and `None`
/// for a command with a lone surrogate (never read lossily).
pub fn command_kind(env: &Env, command: Option<&Unknown>, what: &str) -> Result<Option<CallKind>> {
    let Some(command) = command else { return Ok(None) };
    if command.get_type()? == ValueType::Undefined {
        return Ok(None);
    }
    Ok(named_by_units(&string_arg(env, command, what)?))
}

/// The kind the shell command `units` names; `None` for an ambiguous one
/// or one with a lone surrogate (never read lossily).
pub fn named_by_units(units: &[u16]) -> Option<CallKind> {
    String::from_utf16(units).ok().and_then(|c| named_by(&c))
}
