//! `configKeys`: the core's key table as data, which the plugin's schema
//! and the command line's flags and help are built from.

use napi::bindgen_prelude::Either;
use napi_derive::napi;

use super::strategy_name::StrategyName;
use crate::config::{self, KEYS, KeyDefault, KeySpec, Range, Scope};

/// Which part of the config a key belongs to.
#[napi(string_enum = "lowercase")]
pub enum KeyScope {
    /// How a result is cut, whatever the strategy.
    Budget,
    /// How lines mode cuts a result.
    Lines,
    /// The session policy.
    Policy,
}

/// What a key's value must be.
#[napi(string_enum = "kebab-case")]
pub enum KeyRange {
    /// An integer of at least `min`.
    Integer,
    /// An integer from `min` (the marker's length) to `thresholdChars`.
    MarkerToThreshold,
    /// One of the key's `values`.
    Strategy,
    /// A number greater than 0 and at most 1.
    Ratio,
    /// An object mapping tool names to rules.
    ToolRules,
}

/// One key of the config, as the core's table has it.
#[napi(object, object_from_js = false)]
pub struct ConfigKey {
    /// The key as the config spells it.
    pub name: &'static str,
    /// The part of the config it belongs to.
    pub scope: KeyScope,
    /// What its value must be.
    pub range: KeyRange,
    /// The least value of an integer range.
    pub min: Option<u32>,
    /// What an absent key resolves to, where that is a constant.
    pub default: Option<Either<u32, StrategyName>>,
    /// Every value a key with a list of them takes, the default first.
    pub values: Option<Vec<StrategyName>>,
    /// What a reader assumes for an absent key that resolves to nothing.
    pub fallback: Option<f64>,
    /// The command line's flag (`threshold-chars`), for a key it takes.
    pub flag: Option<String>,
    /// The placeholder of the flag's value in the help (`N`).
    pub arg: Option<&'static str>,
    /// The flag's help: what it does and its default.
    pub help: Option<String>,
}

impl From<&KeySpec> for ConfigKey {
    fn from(spec: &KeySpec) -> Self {
        let (range, min, values) = match spec.range {
            Range::Integer { min } => (KeyRange::Integer, Some(min), None),
            Range::MarkerToThreshold => (KeyRange::MarkerToThreshold, Some(config::PRUNE_MARKER_LEN as u32), None),
            Range::Strategy => {
                (KeyRange::Strategy, None, Some(config::StrategyName::ALL.map(StrategyName::from).to_vec()))
            }
            Range::Ratio => (KeyRange::Ratio, None, None),
            Range::ToolRules => (KeyRange::ToolRules, None, None),
        };
        let (default, fallback) = match spec.default {
            KeyDefault::Count(n) => (Some(Either::A(n)), None),
            KeyDefault::Strategy(s) => (Some(Either::B(s.into())), None),
            KeyDefault::HeadMarkerTail => (None, None),
            KeyDefault::Absent { fallback } => (None, fallback),
        };
        let scope = match spec.scope {
            Scope::Budget => KeyScope::Budget,
            Scope::Lines => KeyScope::Lines,
            Scope::Policy => KeyScope::Policy,
        };
        ConfigKey {
            name: spec.name,
            scope,
            range,
            min,
            default,
            values,
            fallback,
            flag: spec.flag.map(|_| spec.flag_name()),
            arg: spec.flag.map(|f| f.arg),
            help: spec.help(),
        }
    }
}

/// Every config key, in the order the allowed list names them.
#[napi]
pub fn config_keys() -> Vec<ConfigKey> {
    KEYS.iter().map(ConfigKey::from).collect()
}
