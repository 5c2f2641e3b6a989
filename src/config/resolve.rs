//! A caller's config values resolved into a pruner's config: upstream's
//! keys, defaults, conditions and messages, in upstream's arithmetic, plus
//! this package's four keys of the budget and lines scopes; and what
//! resolution reads a config through ([`ConfigValue`], [`ConfigObject`]).
//! The policy's keys are [`super::policy_keys`]'s.
//!
//! Values arrive as the caller's language holds them ([`ConfigValue`]): the
//! numbers are JavaScript's doubles, so the budget sum is a double sum, as
//! upstream computes it, and messages print numbers as JavaScript does.
//! Messages are UTF-16, as JavaScript strings are: an unknown key or a
//! strategy string is quoted exactly, lone surrogates included.

use super::js_number::js_number;
use super::keys::{Key, KeyDefault, Range, Scope, StrategyName};
use super::{Budgets, PRUNE_MARKER_LEN};

/// A config value, as far as resolution looks at it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Raw<'a> {
    /// `undefined`: not given.
    Absent,
    /// `null`: not given for a key of the budget and lines scopes.
    Null,
    /// A number.
    Number(f64),
    /// A string, as UTF-16.
    Text(&'a [u16]),
    /// A boolean.
    Bool(bool),
    /// An object that is not an array or a function ([`ConfigObject::object`] reads it).
    Object,
    /// Anything else (an array, a function, a bigint, a symbol).
    Other,
}

/// A value read from a caller's config object.
pub trait ConfigValue {
    /// What resolution sees of it.
    fn raw(&self) -> Raw<'_>;
    /// How a template literal prints it (`${value}`), for a [`Raw::Other`]
    /// value named in a message; called only when one is.
    fn describe(&self) -> Vec<u16>;
}

/// Whether `raw` leaves `key` not given: `undefined`, or for a key of the
/// budget and lines scopes `null` too (upstream's `??`); a policy key given
/// `null` is refused.
pub(super) fn not_given(key: Key, raw: Raw<'_>) -> bool {
    raw == Raw::Absent || (raw == Raw::Null && key.spec().scope != Scope::Policy)
}

/// A caller's object (the config, its `tools`, a rule), read key by key.
pub trait ConfigObject: Sized {
    /// Its values.
    type Value: ConfigValue;
    /// Why reading failed (a getter threw).
    type Error;
    /// `Object.keys(object)`: its own enumerable string keys, in order.
    fn keys(&self) -> Result<Vec<Vec<u16>>, Self::Error>;
    /// `object[key]`.
    fn get(&self, key: &[u16]) -> Result<Self::Value, Self::Error>;
    /// `value` as an object it can read, when it is a [`Raw::Object`].
    fn object(&self, value: &Self::Value) -> Option<Self>;
}

/// Why a config read from a [`ConfigObject`] has no resolution.
#[derive(Debug)]
pub enum Failure<E> {
    /// The config was refused.
    Refused(ConfigError),
    /// Reading it failed.
    Read(E),
}

impl<E> From<ConfigError> for Failure<E> {
    fn from(e: ConfigError) -> Self {
        Failure::Refused(e)
    }
}

/// The value of every key a pruner is made from, in [`Key::PRUNER`] order.
#[derive(Clone, Debug)]
pub struct ConfigValues<V>([V; Key::PRUNER.len()]);

impl<V> ConfigValues<V> {
    /// Reads each key's value with `read`, in [`Key::PRUNER`] order (the
    /// order the caller's getters run in), stopping at the first error.
    pub fn read<E>(mut read: impl FnMut(Key) -> Result<V, E>) -> Result<Self, E> {
        let mut values = Vec::with_capacity(Key::PRUNER.len());
        for &key in Key::PRUNER {
            values.push(read(key)?);
        }
        Ok(ConfigValues(values.try_into().ok().expect("one value a key")))
    }

    /// The value of `key`, one of [`Key::PRUNER`].
    pub(super) fn get(&self, key: Key) -> &V {
        &self.0[key as usize]
    }
}

/// Which JavaScript error a refusal is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A wrong key, or a value of the wrong type: `TypeError`.
    Type,
    /// A number out of range: `RangeError`.
    Range,
}

/// A refused config: the error's kind and its message, upstream's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// `TypeError` or `RangeError`.
    pub kind: ErrorKind,
    /// The message, UTF-16 (it quotes the caller's strings exactly).
    pub message: Vec<u16>,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&String::from_utf16_lossy(&self.message))
    }
}

impl std::error::Error for ConfigError {}

/// A message under construction, from ASCII words and the caller's UTF-16.
pub(super) struct Message(Vec<u16>);

/// What every refusal's message starts with.
pub(super) const MESSAGE_PREFIX: &str = "ToolResultPruneConfig: ";

impl Message {
    pub(super) fn new() -> Self {
        Message(MESSAGE_PREFIX.encode_utf16().collect())
    }

    pub(super) fn say(mut self, words: &str) -> Self {
        self.0.extend(words.encode_utf16());
        self
    }

    pub(super) fn quote(mut self, units: &[u16]) -> Self {
        self.0.extend_from_slice(units);
        self
    }

    pub(super) fn error(self, kind: ErrorKind) -> ConfigError {
        ConfigError { kind, message: self.0 }
    }
}

/// The refusal of a config that is not an object at all; `described` is
/// the value as a template literal prints it.
pub fn not_an_object(described: &[u16]) -> ConfigError {
    Message::new().say("config (").quote(described).say(") must be an object").error(ErrorKind::Type)
}

/// Checks a config's own enumerable keys (`Object.keys`, in order): the
/// first unknown one is refused, naming the allowed keys ([`Key::ALL`]).
/// Resolution checks the keys before it reads any value.
pub fn check_keys(keys: &[Vec<u16>]) -> Result<(), ConfigError> {
    check_keys_of(keys, Key::ALL.map(Key::name).into_iter(), &[])
}

/// Checks the keys of an object at `place` (empty for the config itself,
/// `tools["bash"]: ` for a rule) against `allowed`: the first unknown one
/// is refused, naming them.
pub(super) fn check_keys_of<'a>(
    keys: &[Vec<u16>],
    allowed: impl Iterator<Item = &'a str> + Clone,
    place: &[u16],
) -> Result<(), ConfigError> {
    let known = |key: &[u16]| allowed.clone().any(|name| name.encode_utf16().eq(key.iter().copied()));
    match keys.iter().find(|key| !known(key)) {
        None => Ok(()),
        Some(key) => {
            let allowed = allowed.collect::<Vec<_>>().join(", ");
            let message = Message::new().quote(place).say("unknown key \"").quote(key).say("\" (allowed: ");
            Err(message.say(&allowed).say(")").error(ErrorKind::Type))
        }
    }
}

/// A validated config, detached from the caller's object. The counts are
/// integers held as JavaScript numbers (so `2 ** 53`, or `1e21`, is kept as
/// given), with `headChars + marker + tailChars <= thresholdChars` and
/// `keepChars` from the marker's length to the threshold, in double
/// arithmetic.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResolvedConfig {
    /// Prune when the text is longer than this many code points (at least 1).
    pub threshold_chars: f64,
    /// Leading code points head/tail keeps.
    pub head_chars: f64,
    /// Trailing code points head/tail keeps.
    pub tail_chars: f64,
    /// The transform.
    pub strategy: StrategyName,
    /// Lines mode's output budget; by default `headChars + marker + tailChars`.
    pub keep_chars: f64,
    /// Lines mode's neighbours of each kept line.
    pub context_lines: f64,
    /// Lines mode's lines kept at each end.
    pub edge_lines: f64,
}

/// Resolves `values` (the keys already checked): each absent key takes its
/// default; every count must be an integer in its range (a `TypeError` for
/// a value that is not a number, a `RangeError` for one out of range); the
/// strategy must be one of [`StrategyName::ALL`]; then head, marker and
/// tail must fit the threshold, and `keepChars` (which defaults to their
/// sum) must be from the marker's length to the threshold. The checks run
/// in that order; defaults, ranges and words are the key table's.
pub fn resolve<V: ConfigValue>(values: &ConfigValues<V>) -> Result<ResolvedConfig, ConfigError> {
    let threshold_chars = count(values, Key::ThresholdChars)?;
    let head_chars = count(values, Key::HeadChars)?;
    let tail_chars = count(values, Key::TailChars)?;
    let strategy = strategy(values.get(Key::Strategy))?;
    let context_lines = count(values, Key::ContextLines)?;
    let edge_lines = count(values, Key::EdgeLines)?;
    let marker = PRUNE_MARKER_LEN as f64;
    // Upstream's sum, in upstream's (double) arithmetic.
    let emitted = head_chars + marker + tail_chars;
    if emitted > threshold_chars {
        let message = Message::new()
            .say(&format!("headChars + marker + tailChars ({}) must be at most ", js_number(emitted)))
            .say(&format!("thresholdChars ({})", js_number(threshold_chars)));
        return Err(message.error(ErrorKind::Range));
    }
    let keep_range = Key::KeepChars.spec().wording(threshold_chars);
    let keep_chars = match values.get(Key::KeepChars) {
        value if not_given(Key::KeepChars, value.raw()) => emitted,
        value => integer(Key::KeepChars, value, marker, &keep_range)?,
    };
    if keep_chars > threshold_chars {
        let message = Message::new().say(&format!("keepChars ({}) must be {keep_range}", js_number(keep_chars)));
        return Err(message.error(ErrorKind::Range));
    }
    Ok(ResolvedConfig { threshold_chars, head_chars, tail_chars, strategy, keep_chars, context_lines, edge_lines })
}

/// The count under `key`, or its default when absent; see [`integer`].
fn count<V: ConfigValue>(values: &ConfigValues<V>, key: Key) -> Result<f64, ConfigError> {
    let spec = key.spec();
    let (KeyDefault::Count(default), Range::Integer { min }) = (spec.default, spec.range) else {
        unreachable!("{} is not a count", spec.name)
    };
    let value = values.get(key);
    if not_given(key, value.raw()) {
        Ok(f64::from(default))
    } else {
        integer(key, value, f64::from(min), &spec.wording(f64::NAN))
    }
}

/// `value` when it is an integer of at least `min`: otherwise a `RangeError`
/// for a number, a `TypeError` for anything else, saying it must be `what`.
pub(super) fn integer<V: ConfigValue>(key: Key, value: &V, min: f64, what: &str) -> Result<f64, ConfigError> {
    let raw = value.raw();
    if let Raw::Number(n) = raw
        && n.is_finite()
        && n.fract() == 0.0
        && n >= min
    {
        // As given: `-0` stays `-0`, as upstream's copy keeps it.
        return Ok(n);
    }
    let kind = if matches!(raw, Raw::Number(_)) { ErrorKind::Range } else { ErrorKind::Type };
    Err(must_be(&key.name().encode_utf16().collect::<Vec<_>>(), value, what, kind))
}

/// The refusal `<name> (<value>) must be <what>`.
pub(super) fn must_be<V: ConfigValue>(name: &[u16], value: &V, what: &str, kind: ErrorKind) -> ConfigError {
    Message::new().quote(name).say(" (").quote(&describe(value)).say(&format!(") must be {what}")).error(kind)
}

/// The strategy named by `value` (the default when absent); a `TypeError`
/// listing the strategies for anything else.
fn strategy<V: ConfigValue>(value: &V) -> Result<StrategyName, ConfigError> {
    let raw = value.raw();
    if not_given(Key::Strategy, raw) {
        return Ok(StrategyName::default());
    }
    let named = |s: &StrategyName| matches!(raw, Raw::Text(t) if s.name().encode_utf16().eq(t.iter().copied()));
    if let Some(found) = StrategyName::ALL.iter().find(|s| named(s)) {
        return Ok(*found);
    }
    let name: Vec<u16> = Key::Strategy.name().encode_utf16().collect();
    Err(must_be(&name, value, &Key::Strategy.spec().wording(f64::NAN), ErrorKind::Type))
}

/// `${value}`: a number as JavaScript prints it, a string as it is, anything
/// else as the caller's language says.
pub(super) fn describe<V: ConfigValue>(value: &V) -> Vec<u16> {
    match value.raw() {
        Raw::Number(n) => js_number(n).encode_utf16().collect(),
        Raw::Text(units) => units.to_vec(),
        Raw::Absent | Raw::Null | Raw::Bool(_) | Raw::Object | Raw::Other => value.describe(),
    }
}

impl ResolvedConfig {
    /// The defaults: what [`resolve`] makes of an empty config.
    pub fn defaults() -> Self {
        struct Nothing;
        impl ConfigValue for Nothing {
            fn raw(&self) -> Raw<'_> {
                Raw::Absent
            }
            fn describe(&self) -> Vec<u16> {
                Vec::new()
            }
        }
        let values = ConfigValues::read(|_| Ok::<_, ()>(Nothing)).expect("nothing to read");
        resolve(&values).expect("the defaults are valid")
    }

    /// The budgets, in exact integer arithmetic. Past 2^53 a double sum can
    /// round under the threshold where the exact one does not; no text is
    /// that long (a JavaScript string holds fewer than 2^30 code units), so
    /// head and tail are then narrowed to fit, which changes no result.
    pub fn budgets(&self) -> Budgets {
        // Non-negative integers: the casts are exact below 2^64 and saturate above.
        let (threshold, head, tail) = (self.threshold_chars as u64, self.head_chars as u64, self.tail_chars as u64);
        let budgets = Budgets::new(threshold, head, tail).unwrap_or_else(|_| {
            let head = head.min(threshold - PRUNE_MARKER_LEN);
            let tail = tail.min(threshold - PRUNE_MARKER_LEN - head);
            Budgets::new(threshold, head, tail).expect("narrowed to fit")
        });
        budgets.with_keep(self.keep_chars as u64).expect("keepChars was checked against the threshold")
    }
}

#[cfg(test)]
mod tests;
