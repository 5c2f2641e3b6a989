//! The session policy's keys resolved: `recentTokens`, `readKeepChars`, `contextWindow`,
//! `thresholdRatio` and `tools`, each absent unless given, so the default
//! config stays upstream's. Ranges and words are the key table's. A tool
//! rule is resolved as a whole config is, its missing keys the top level's
//! (the values already read there), and its refusals name it
//! (`tools["bash"].headChars (-1) must be …`).

use super::keys::{Key, Range};
use super::resolve::{
    ConfigObject, ConfigValue, ConfigValues, ErrorKind, Failure, MESSAGE_PREFIX, Message, Raw, ResolvedConfig,
    check_keys_of, integer, must_be, not_given, resolve,
};
use crate::text::{json_quoted, utf16};

/// A tool rule's one key besides the pruner's: `prune: false` keeps the
/// tool's results whole.
pub const PRUNE_KEY: &str = "prune";

/// One tool's rule.
#[derive(Clone, Debug, PartialEq)]
pub enum ToolRule {
    /// `{ prune: false }`: its results are never pruned.
    Keep,
    /// Its results are pruned by this config.
    Prune(ResolvedConfig),
}

/// The policy's keys as resolved: each `None` (or no rules) unless given.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResolvedPolicy {
    /// `recentTokens`: a non-negative integer.
    pub recent_tokens: Option<f64>,
    /// `readKeepChars`: an integer of at least the marker's length.
    pub read_keep_chars: Option<f64>,
    /// `contextWindow`: a positive integer.
    pub context_window: Option<f64>,
    /// `thresholdRatio`: greater than 0 and at most 1.
    pub threshold_ratio: Option<f64>,
    /// `tools`: empty when it names none.
    pub tools: ToolRules,
}

/// Tool rules by tool name (its exact UTF-16), in the config's order.
pub type ToolRules = Vec<(Vec<u16>, ToolRule)>;

/// Resolves the policy's keys of `config`, whose keys were checked and
/// whose pruner's keys were read into `top`, in [`Key::ALL`] order, each
/// read and then checked.
pub fn resolve_policy<O: ConfigObject>(
    config: &O,
    top: &ConfigValues<O::Value>,
) -> Result<ResolvedPolicy, Failure<O::Error>> {
    let read = |key: Key| config.get(&utf16(key.name())).map_err(Failure::Read);
    let recent_tokens = count(Key::RecentTokens, &read(Key::RecentTokens)?)?;
    let read_keep_chars = count(Key::ReadKeepChars, &read(Key::ReadKeepChars)?)?;
    let context_window = count(Key::ContextWindow, &read(Key::ContextWindow)?)?;
    let threshold_ratio = ratio(&read(Key::ThresholdRatio)?)?;
    let tools = read(Key::Tools)?;
    let tools = if not_given(Key::Tools, tools.raw()) { Vec::new() } else { rules(config, &tools, top)? };
    Ok(ResolvedPolicy { recent_tokens, read_keep_chars, context_window, threshold_ratio, tools })
}

/// An integer key's value, `None` when not given.
fn count<V: ConfigValue>(key: Key, value: &V) -> Result<Option<f64>, super::ConfigError> {
    if not_given(key, value.raw()) {
        return Ok(None);
    }
    let Range::Integer { min } = key.spec().range else { unreachable!("{} is not a count", key.name()) };
    integer(key, value, f64::from(min), &key.spec().wording(f64::NAN)).map(Some)
}

/// `thresholdRatio`, `None` when not given: a `TypeError` for a value that
/// is not a number, a `RangeError` for one out of range.
fn ratio<V: ConfigValue>(value: &V) -> Result<Option<f64>, super::ConfigError> {
    let key = Key::ThresholdRatio;
    match value.raw() {
        raw if not_given(key, raw) => Ok(None),
        Raw::Number(r) if r > 0.0 && r <= 1.0 => Ok(Some(r)),
        raw => {
            let kind = if matches!(raw, Raw::Number(_)) { ErrorKind::Range } else { ErrorKind::Type };
            Err(must_be(&utf16(key.name()), value, &key.spec().wording(f64::NAN), kind))
        }
    }
}

/// The rules of `tools`, an object mapping tool names to rules.
fn rules<O: ConfigObject>(
    config: &O,
    tools: &O::Value,
    top: &ConfigValues<O::Value>,
) -> Result<ToolRules, Failure<O::Error>> {
    let key = Key::Tools;
    let Some(tools) = config.object(tools) else {
        return Err(must_be(&utf16(key.name()), tools, &key.spec().wording(f64::NAN), ErrorKind::Type).into());
    };
    let mut out = Vec::new();
    for name in tools.keys().map_err(Failure::Read)? {
        // `tools["name"]`, the name as `JSON.stringify` writes it.
        let mut at = utf16(&format!("{}[", key.name()));
        at.extend(json_quoted(&name));
        at.push(u16::from(b']'));
        let rule = tools.get(&name).map_err(Failure::Read)?;
        let Some(rule) = tools.object(&rule) else {
            return Err(must_be(&at, &rule, "an object", ErrorKind::Type).into());
        };
        out.push((name, tool_rule(&rule, &at, top)?));
    }
    Ok(out)
}

/// One rule, `at` its place (`tools["bash"]`): its keys checked (the
/// pruner's and [`PRUNE_KEY`]), `prune` a boolean, `prune: false` alone;
/// otherwise its config, the top level's values where it gives none.
fn tool_rule<O: ConfigObject>(
    rule: &O,
    at: &[u16],
    top: &ConfigValues<O::Value>,
) -> Result<ToolRule, Failure<O::Error>> {
    let keys = rule.keys().map_err(Failure::Read)?;
    let mut place = at.to_vec();
    place.extend(utf16(": "));
    check_keys_of(&keys, Key::PRUNER.iter().map(|k| k.name()).chain([PRUNE_KEY]), &place)?;
    let prune = rule.get(&utf16(PRUNE_KEY)).map_err(Failure::Read)?;
    match prune.raw() {
        Raw::Absent | Raw::Bool(true) => {}
        Raw::Bool(false) if keys.len() > 1 => {
            return Err(Message::new()
                .quote(&place)
                .say("prune: false takes no other key")
                .error(ErrorKind::Type)
                .into());
        }
        Raw::Bool(false) => return Ok(ToolRule::Keep),
        _ => {
            let mut name = at.to_vec();
            name.extend(utf16(&format!(".{PRUNE_KEY}")));
            return Err(must_be(&name, &prune, "a boolean", ErrorKind::Type).into());
        }
    }
    let own = |key: Key| keys.iter().any(|k| utf16(key.name()) == *k);
    let values = ConfigValues::read(|key| {
        Ok(if own(key) { Inherited::Own(rule.get(&utf16(key.name()))?) } else { Inherited::Top(top.get(key)) })
    })
    .map_err(Failure::Read)?;
    resolve(&values).map(ToolRule::Prune).map_err(|mut e| {
        // The same refusal, naming the rule: `…: tools["bash"].headChars …`.
        let prefix = MESSAGE_PREFIX.encode_utf16().count();
        let mut named = e.message[..prefix].to_vec();
        named.extend_from_slice(at);
        named.push(u16::from(b'.'));
        named.extend_from_slice(&e.message[prefix..]);
        e.message = named;
        Failure::Refused(e)
    })
}

/// A rule's value of a key: its own, or the top level's.
enum Inherited<'a, V> {
    Own(V),
    Top(&'a V),
}

impl<V: ConfigValue> ConfigValue for Inherited<'_, V> {
    fn raw(&self) -> Raw<'_> {
        match self {
            Inherited::Own(v) => v.raw(),
            Inherited::Top(v) => v.raw(),
        }
    }

    fn describe(&self) -> Vec<u16> {
        match self {
            Inherited::Own(v) => v.describe(),
            Inherited::Top(v) => v.describe(),
        }
    }
}

#[cfg(test)]
mod tests;
