//! `StrategyName`: how over-budget text is cut, as the config names it.

use napi_derive::napi;

use crate::config;

/// How over-budget text is cut.
// The core's `StrategyName` by its names (`__test__/words.test.js` checks them).
#[derive(Clone, Copy)]
#[napi(string_enum = "kebab-case")]
pub enum StrategyName {
    /// [`config::StrategyName::HeadTail`].
    HeadTail,
    /// [`config::StrategyName::Lines`].
    Lines,
}

impl From<config::StrategyName> for StrategyName {
    fn from(name: config::StrategyName) -> Self {
        match name {
            config::StrategyName::HeadTail => StrategyName::HeadTail,
            config::StrategyName::Lines => StrategyName::Lines,
        }
    }
}
