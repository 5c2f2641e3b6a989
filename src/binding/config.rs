//! A JS config read for the core's resolver, and `resolveConfig`.
//! `ToolResultPruneConfig` is the shape a caller writes; the core decides
//! what is valid and says so in upstream's words.

use std::collections::HashMap;

use napi::bindgen_prelude::{JsObjectValue, KeyCollectionMode, KeyConversion, KeyFilter, Object, Unknown};
use napi::{Env, JsValue, Result, ValueType};
use napi_derive::napi;

use super::raw::{Thrown, describe, string_units, throw_utf16};
use super::resolved_config::ResolvedConfig;
use super::strategy_name::StrategyName;
use super::values::{as_object, number};
use crate::config::{self, ConfigError, ConfigObject, ConfigValue, ErrorKind, Failure, Raw, Resolved};

/// Character-budget policy and strategy: upstream's three keys, this
/// package's four, and the session policy's four. Every key is optional; see `ResolvedConfig` for what
/// each resolves to. (The binding reads a config key by key, as the core
/// asks, not through this struct: it is the shape callers write.)
#[allow(dead_code, reason = "declared for index.d.ts; never built in Rust")]
#[napi(object, object_to_js = false, object_from_js = false)]
pub struct ToolResultPruneConfig {
    /// Prune when total text exceeds this many Unicode code points. Defaults
    /// to upstream's (every default is in `configKeys()`).
    pub threshold_chars: Option<f64>,
    /// Maximum leading Unicode code points retained (head/tail; the head
    /// share of cut lines). Defaults to upstream's.
    pub head_chars: Option<f64>,
    /// Maximum trailing Unicode code points retained (head/tail; the tail
    /// share of cut lines). Defaults to upstream's.
    pub tail_chars: Option<f64>,
    /// `'head-tail'` (upstream's rule, the default) or `'lines'`.
    pub strategy: Option<StrategyName>,
    /// Lines mode: code points a pruned result keeps at most. Defaults to
    /// `headChars + PRUNE_MARKER_LEN + tailChars`, what head/tail keeps; at
    /// most `thresholdChars`.
    pub keep_chars: Option<f64>,
    /// Lines mode: neighbours kept on each side of a kept line.
    pub context_lines: Option<f64>,
    /// Lines mode: lines kept at the start and at the end.
    pub edge_lines: Option<f64>,
    /// Session policy: meter tokens of the newest over-threshold tool results
    /// the model has not read that `pruneSession` leaves whole while pruning
    /// the others brings the session under the compaction threshold. Absent:
    /// none (upstream's pass).
    pub recent_tokens: Option<f64>,
    /// Session policy, lines mode, with `recentTokens`: code points a result
    /// the model has read keeps when a pass prunes it (at most its rule's
    /// `keepChars`). Absent: the key's `fallback` in `configKeys()`.
    pub read_keep_chars: Option<f64>,
    /// Session policy: the model's context window when the session's last
    /// request did not record one.
    pub context_window: Option<f64>,
    /// Session policy: the compaction threshold ratio when the compaction
    /// service's cannot be read. Absent: compaction-basic's default.
    pub threshold_ratio: Option<f64>,
    /// Session policy: per-tool rules, by tool name. `tool_result_retrieve`
    /// results are never pruned.
    pub tools: Option<HashMap<String, ToolRuleConfig>>,
}

/// One tool's rule: its own budget keys and strategy (the rest the top
/// level's), or `{ prune: false }`.
#[allow(dead_code, reason = "declared for index.d.ts; never built in Rust")]
#[napi(object, object_to_js = false, object_from_js = false)]
pub struct ToolRuleConfig {
    /// As the top level's `thresholdChars`.
    pub threshold_chars: Option<f64>,
    /// As the top level's `headChars`.
    pub head_chars: Option<f64>,
    /// As the top level's `tailChars`.
    pub tail_chars: Option<f64>,
    /// As the top level's `strategy`.
    pub strategy: Option<StrategyName>,
    /// As the top level's `keepChars`.
    pub keep_chars: Option<f64>,
    /// As the top level's `contextLines`.
    pub context_lines: Option<f64>,
    /// As the top level's `edgeLines`.
    pub edge_lines: Option<f64>,
    /// `false`: this tool's results are never pruned (and the rule has no other key).
    pub prune: Option<bool>,
}

/// Resolves and validates a config as upstream does (its keys, defaults,
/// conditions and messages), with this package's keys (the session
/// policy's too): a `TypeError` for an unknown key or a value of the wrong
/// type, a `RangeError` for a number out of range. The result is detached
/// from `config`; a policy key not given is absent from it.
#[napi(catch_unwind, ts_args_type = "config?: ToolResultPruneConfig")]
pub fn resolve_config(env: Env, config: Unknown) -> Result<ResolvedConfig> {
    resolved(&env, &config).map(ResolvedConfig::from)
}

/// The core's config from a JS one (`undefined`, or no argument, is `{}`;
/// `null` is refused, as upstream's `Object.keys(null)` refuses it); the
/// errors thrown. (A napi-rs `Option` would take `null` for `undefined`.)
pub fn resolved(env: &Env, config: &Unknown<'_>) -> Result<Resolved> {
    let thrown = |e: ConfigError| {
        let kind = match e.kind {
            ErrorKind::Type => Thrown::Type,
            ErrorKind::Range => Thrown::Range,
        };
        throw_utf16(env, kind, &e.message)
    };
    // `typeof config === 'object'`, `null` excluded: a function is refused.
    let object = match config.get_type()? {
        ValueType::Undefined => Object::new(env)?,
        ValueType::Object => as_object(config)?.expect("an object"),
        _ => return Err(thrown(config::not_an_object(&describe(env, config)))),
    };
    config::resolve_object(&JsConfigObject { env, object }).map_err(|failure| match failure {
        Failure::Refused(e) => thrown(e),
        Failure::Read(e) => e,
    })
}

/// `Object.keys(object)`: its own enumerable string keys, in order.
fn own_keys(object: &Object<'_>) -> Result<Vec<Vec<u16>>> {
    let keys = object.get_all_property_names(
        KeyCollectionMode::OwnOnly,
        KeyFilter::Enumerable,
        KeyConversion::NumbersToStrings,
    )?;
    let mut out = Vec::new();
    for i in 0..keys.get_array_length()? {
        let key: Unknown = keys.get_element(i)?;
        // Symbols are not among `Object.keys`.
        if key.get_type()? == ValueType::String {
            out.push(string_units(&key)?);
        }
    }
    Ok(out)
}

/// A JS object the core reads a config (or its rules) from.
struct JsConfigObject<'a, 'env> {
    env: &'a Env,
    object: Object<'env>,
}

impl<'a, 'env> ConfigObject for JsConfigObject<'a, 'env> {
    type Value = JsConfigValue<'a, 'env>;
    type Error = napi::Error;

    fn keys(&self) -> Result<Vec<Vec<u16>>> {
        own_keys(&self.object)
    }

    fn get(&self, key: &[u16]) -> Result<Self::Value> {
        let value: Unknown<'env> = self.object.get_property(self.env.create_string_utf16(key)?)?;
        JsConfigValue::new(self.env, value)
    }

    fn object(&self, value: &Self::Value) -> Option<Self> {
        let object = Object::from_raw(value.value.value().env, value.value.raw());
        matches!(value.raw, Read::Object).then_some(JsConfigObject { env: self.env, object })
    }
}

/// A JS config value, read once: its type and number or code units.
struct JsConfigValue<'a, 'env> {
    env: &'a Env,
    value: Unknown<'env>,
    raw: Read,
}

/// What a value is, read from JS.
enum Read {
    Absent,
    Null,
    Number(f64),
    Text(Vec<u16>),
    Bool(bool),
    Object,
    Other,
}

impl<'a, 'env> JsConfigValue<'a, 'env> {
    fn new(env: &'a Env, value: Unknown<'env>) -> Result<Self> {
        let raw = match value.get_type()? {
            ValueType::Undefined => Read::Absent,
            ValueType::Null => Read::Null,
            ValueType::Number => Read::Number(number(&value)?.expect("a number")),
            ValueType::String => Read::Text(string_units(&value)?),
            ValueType::Boolean => Read::Bool(value.coerce_to_bool()?),
            ValueType::Object if !value.is_array()? => Read::Object,
            _ => Read::Other,
        };
        Ok(JsConfigValue { env, value, raw })
    }
}

impl ConfigValue for JsConfigValue<'_, '_> {
    fn raw(&self) -> Raw<'_> {
        match &self.raw {
            Read::Absent => Raw::Absent,
            Read::Null => Raw::Null,
            Read::Number(n) => Raw::Number(*n),
            Read::Text(units) => Raw::Text(units),
            Read::Bool(b) => Raw::Bool(*b),
            Read::Object => Raw::Object,
            Read::Other => Raw::Other,
        }
    }

    fn describe(&self) -> Vec<u16> {
        describe(self.env, &self.value)
    }
}
