//! `ResolvedConfig`: a config as the core resolved it, the policy's keys
//! present only when given.

use napi::bindgen_prelude::{JsObjectValue, KeyCollectionMode, KeyConversion, KeyFilter, Object, ToNapiValue, Unknown};
use napi::{Env, JsValue, Property, Result, sys};
use napi_derive::napi;

use super::strategy_name::StrategyName;
use crate::config::{PRUNE_KEY, Resolved, ResolvedPolicy, ToolRule};

/// Validated, detached pruning configuration (the plugin freezes it).
#[napi(object, object_from_js = false)]
pub struct ResolvedConfig {
    /// Prune when total text exceeds this many Unicode code points.
    #[napi(readonly)]
    pub threshold_chars: f64,
    /// Leading Unicode code points head/tail keeps.
    #[napi(readonly)]
    pub head_chars: f64,
    /// Trailing Unicode code points head/tail keeps.
    #[napi(readonly)]
    pub tail_chars: f64,
    /// The transform.
    #[napi(readonly)]
    pub strategy: StrategyName,
    /// Lines mode: code points a pruned result keeps at most.
    #[napi(readonly)]
    pub keep_chars: f64,
    /// Lines mode: neighbours kept on each side of a kept line.
    #[napi(readonly)]
    pub context_lines: f64,
    /// Lines mode: lines kept at the start and at the end.
    #[napi(readonly)]
    pub edge_lines: f64,
    /// Session policy: meter tokens of the newest unread results left whole.
    #[napi(readonly)]
    pub recent_tokens: Option<f64>,
    /// Session policy: lines mode's budget for a result the model has read.
    #[napi(readonly)]
    pub read_keep_chars: Option<f64>,
    /// Session policy: the model's window when the session records none.
    #[napi(readonly)]
    pub context_window: Option<f64>,
    /// Session policy: compaction's ratio when its config cannot be read.
    #[napi(readonly)]
    pub threshold_ratio: Option<f64>,
    /// Session policy: the tool rules, by name, frozen; absent when none.
    #[napi(
        readonly,
        ts_type = "Readonly<Record<string, { readonly prune: false } | ({ readonly prune: true } & ResolvedConfig)>>"
    )]
    pub tools: Option<ResolvedTools>,
}

impl From<Resolved> for ResolvedConfig {
    fn from(Resolved { config: c, policy }: Resolved) -> Self {
        let ResolvedPolicy { recent_tokens, read_keep_chars, context_window, threshold_ratio, tools } = policy;
        ResolvedConfig {
            threshold_chars: c.threshold_chars,
            head_chars: c.head_chars,
            tail_chars: c.tail_chars,
            strategy: c.strategy.into(),
            keep_chars: c.keep_chars,
            context_lines: c.context_lines,
            edge_lines: c.edge_lines,
            recent_tokens,
            read_keep_chars,
            context_window,
            threshold_ratio,
            tools: (!tools.is_empty()).then_some(ResolvedTools(tools)),
        }
    }
}

/// The resolved tool rules, in the config's order: a frozen object of
/// frozen rules, `{ prune: false }` or `{ prune: true, ...budgets }`. The
/// names are defined, not assigned, so `__proto__` is a rule like any other.
pub struct ResolvedTools(Vec<(Vec<u16>, ToolRule)>);

impl ToNapiValue for ResolvedTools {
    unsafe fn to_napi_value(raw_env: sys::napi_env, tools: Self) -> Result<sys::napi_value> {
        let env = Env::from_raw(raw_env);
        let mut rules = Vec::with_capacity(tools.0.len());
        for (name, rule) in tools.0 {
            let mut rule = match rule {
                ToolRule::Keep => with_prune(&env, false, None)?,
                ToolRule::Prune(config) => {
                    let budgets = Resolved { config, policy: ResolvedPolicy::default() };
                    // SAFETY: `raw_env` is the live environment this value is made for.
                    let budgets = unsafe { ResolvedConfig::to_napi_value(raw_env, ResolvedConfig::from(budgets))? };
                    with_prune(&env, true, Some(Object::from_raw(raw_env, budgets)))?
                }
            };
            rule.freeze()?;
            rules.push((env.create_string_utf16(&name)?, rule));
        }
        let properties: Vec<Property> = rules
            .iter()
            .map(|(name, rule)| Ok(Property::new().with_name(&env, *name)?.with_value(rule)))
            .collect::<Result<_>>()?;
        let mut object = Object::new(&env)?;
        object.define_properties(&properties)?;
        object.freeze()?;
        Ok(object.raw())
    }
}

/// `{ prune, ...budgets }`, as data properties.
fn with_prune<'env>(env: &'env Env, prune: bool, budgets: Option<Object<'env>>) -> Result<Object<'env>> {
    // SAFETY: a boolean made in `env`, the live environment of this call.
    let prune = unsafe { Unknown::from_raw_unchecked(env.raw(), bool::to_napi_value(env.raw(), prune)?) };
    let mut properties = vec![Property::new().with_utf8_name(PRUNE_KEY)?.with_value(&prune)];
    if let Some(budgets) = budgets {
        let keys = budgets.get_all_property_names(
            KeyCollectionMode::OwnOnly,
            KeyFilter::Enumerable,
            KeyConversion::KeepNumbers,
        )?;
        for i in 0..keys.get_array_length()? {
            let key: Unknown = keys.get_element(i)?;
            let value: Unknown = budgets.get_property(key)?;
            properties.push(Property::new().with_name(env, key)?.with_value(&value));
        }
    }
    let mut object = Object::new(env)?;
    object.define_properties(&properties)?;
    Ok(object)
}
