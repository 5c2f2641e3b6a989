//! The config's keys, one table: each key's name, scope, default, range and
//! the words its refusal uses, and the command line's flag for it. The
//! resolver, the plugin's schema, the command line's flags and help (both
//! through the binding's `configKeys`) read them here; nothing else writes
//! a key's name, default or range.

use crate::words::word_enum;

use super::{
    DEFAULT_CONTEXT_LINES, DEFAULT_EDGE_LINES, DEFAULT_HEAD_CHARS, DEFAULT_READ_KEEP_CHARS, DEFAULT_TAIL_CHARS,
    DEFAULT_THRESHOLD_CHARS, PRUNE_MARKER_LEN,
};

/// A config key, declared in [`KEYS`]'s order, which is the allowed list's
/// in messages, the order values are read and checked, and the resolved
/// config's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// `thresholdChars`: prune when the text is longer than this.
    ThresholdChars,
    /// `headChars`: leading code points head/tail keeps.
    HeadChars,
    /// `tailChars`: trailing code points head/tail keeps.
    TailChars,
    /// `strategy`: a [`StrategyName`].
    Strategy,
    /// `keepChars`: lines mode's output budget.
    KeepChars,
    /// `contextLines`: lines mode's neighbours of a kept line.
    ContextLines,
    /// `edgeLines`: lines mode's lines kept at each end.
    EdgeLines,
    /// `recentTokens`: the session policy's window of unread results.
    RecentTokens,
    /// `readKeepChars`: lines mode's output budget for a result the model has read.
    ReadKeepChars,
    /// `contextWindow`: the model's window when the session records none.
    ContextWindow,
    /// `thresholdRatio`: compaction's ratio when its config cannot be read.
    ThresholdRatio,
    /// `tools`: the per-tool rules.
    Tools,
}

word_enum! {
    /// How over-budget text is cut, as the config names it; `ALL` has the
    /// default first.
    #[derive(Default)]
    pub enum StrategyName {
        /// Upstream's head, marker and tail (the default).
        #[default]
        HeadTail => "head-tail",
        /// Failure-aware lines with retrievable markers.
        Lines => "lines",
    }
}

/// Which part of the config a key belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// How a result is cut, whatever the strategy: upstream's three keys and the strategy.
    Budget,
    /// How lines mode cuts a result.
    Lines,
    /// The session policy: which results a pass cuts, and by which rule.
    Policy,
}

/// What a key resolves to when it is not given.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KeyDefault {
    /// This count.
    Count(u32),
    /// This strategy.
    Strategy(StrategyName),
    /// What head/tail emits: `headChars + marker + tailChars`.
    HeadMarkerTail,
    /// Nothing: the key stays absent from the resolved config, and what
    /// reads it assumes `fallback` where there is one (a ratio, a budget).
    Absent {
        /// The value assumed in its place, if any.
        fallback: Option<f64>,
    },
}

/// What a key's value must be: the check the resolver makes, and the words
/// its refusal ends with (`… must be <wording>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Range {
    /// An integer of at least `min` (0, 1 or the marker's length).
    Integer {
        /// The least value allowed.
        min: u32,
    },
    /// An integer from the marker's length to `thresholdChars`.
    MarkerToThreshold,
    /// One of [`StrategyName::ALL`].
    Strategy,
    /// A number greater than 0 and at most 1.
    Ratio,
    /// An object mapping tool names to rules, each with the keys of the
    /// budget and lines scopes, or `{ prune: false }`.
    ToolRules,
}

/// What the command line shows and takes for a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag {
    /// The placeholder of its value in the help (`N`, `S`).
    pub arg: &'static str,
    /// What it does, in the help's words, before its default.
    pub help: &'static str,
}

/// One row of the key table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeySpec {
    /// The key, [`KEYS`]'s index.
    pub key: Key,
    /// The key as the config spells it.
    pub name: &'static str,
    /// The part of the config it belongs to.
    pub scope: Scope,
    /// What it resolves to when not given.
    pub default: KeyDefault,
    /// What its value must be.
    pub range: Range,
    /// The command line's flag, for a key the command line takes.
    pub flag: Option<Flag>,
}

/// The compaction threshold ratio compaction-basic assumes (its
/// `DEFAULT_THRESHOLD_RATIO`).
pub const DEFAULT_THRESHOLD_RATIO: f64 = 0.8;

/// A count with a default and a flag.
const fn count(key: Key, name: &'static str, scope: Scope, default: u32, min: u32, flag: Flag) -> KeySpec {
    KeySpec { key, name, scope, default: KeyDefault::Count(default), range: Range::Integer { min }, flag: Some(flag) }
}

/// The key table, in [`Key::ALL`] order.
pub const KEYS: [KeySpec; 12] = [
    count(
        Key::ThresholdChars,
        "thresholdChars",
        Scope::Budget,
        DEFAULT_THRESHOLD_CHARS,
        1,
        Flag { arg: "N", help: "prune when longer than N code points" },
    ),
    count(
        Key::HeadChars,
        "headChars",
        Scope::Budget,
        DEFAULT_HEAD_CHARS,
        0,
        Flag { arg: "N", help: "leading code points kept" },
    ),
    count(
        Key::TailChars,
        "tailChars",
        Scope::Budget,
        DEFAULT_TAIL_CHARS,
        0,
        Flag { arg: "N", help: "trailing code points kept" },
    ),
    KeySpec {
        key: Key::Strategy,
        name: "strategy",
        scope: Scope::Budget,
        default: KeyDefault::Strategy(StrategyName::HeadTail),
        range: Range::Strategy,
        flag: Some(Flag { arg: "S", help: "upstream's rule" }),
    },
    KeySpec {
        key: Key::KeepChars,
        name: "keepChars",
        scope: Scope::Lines,
        default: KeyDefault::HeadMarkerTail,
        range: Range::MarkerToThreshold,
        flag: Some(Flag { arg: "N", help: "lines mode: code points kept at most" }),
    },
    count(
        Key::ContextLines,
        "contextLines",
        Scope::Lines,
        DEFAULT_CONTEXT_LINES,
        0,
        Flag { arg: "N", help: "lines mode: neighbours kept around each kept line" },
    ),
    count(
        Key::EdgeLines,
        "edgeLines",
        Scope::Lines,
        DEFAULT_EDGE_LINES,
        0,
        Flag { arg: "N", help: "lines mode: lines kept at the start and the end" },
    ),
    policy(Key::RecentTokens, "recentTokens", None, Range::Integer { min: 0 }),
    policy(
        Key::ReadKeepChars,
        "readKeepChars",
        Some(DEFAULT_READ_KEEP_CHARS as f64),
        Range::Integer { min: PRUNE_MARKER_LEN as u32 },
    ),
    policy(Key::ContextWindow, "contextWindow", None, Range::Integer { min: 1 }),
    policy(Key::ThresholdRatio, "thresholdRatio", Some(DEFAULT_THRESHOLD_RATIO), Range::Ratio),
    policy(Key::Tools, "tools", None, Range::ToolRules),
];

/// A session policy key: absent unless given; no flag.
const fn policy(key: Key, name: &'static str, fallback: Option<f64>, range: Range) -> KeySpec {
    KeySpec { key, name, scope: Scope::Policy, default: KeyDefault::Absent { fallback }, range, flag: None }
}

impl Key {
    /// Every key, upstream's three first: [`KEYS`]'s order.
    pub const ALL: [Key; KEYS.len()] = {
        let mut all = [Key::ThresholdChars; KEYS.len()];
        let mut i = 0;
        while i < KEYS.len() {
            all[i] = KEYS[i].key;
            i += 1;
        }
        all
    };

    /// The keys a pruner is made from (the budget and lines scopes), which a
    /// tool rule may give too: the first of [`Key::ALL`], up to the policy's.
    pub const PRUNER: &'static [Key] = Key::ALL.split_at(pruner_keys()).0;

    /// The key's row of [`KEYS`].
    pub fn spec(self) -> &'static KeySpec {
        &KEYS[self as usize]
    }

    /// The key as the config spells it.
    pub fn name(self) -> &'static str {
        self.spec().name
    }
}

/// How many keys come before the first of the policy's scope.
const fn pruner_keys() -> usize {
    let mut n = 0;
    while n < KEYS.len() && !matches!(KEYS[n].scope, Scope::Policy) {
        n += 1;
    }
    n
}

impl KeySpec {
    /// The command line's flag: the name in kebab case (`threshold-chars`).
    pub fn flag_name(&self) -> String {
        let mut out = String::new();
        for c in self.name.chars() {
            if c.is_ascii_uppercase() {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        }
        out
    }

    /// The help's line for the flag, after its name: what it does and its
    /// default (`None` for a key without a flag).
    pub fn help(&self) -> Option<String> {
        let flag = self.flag?;
        Some(match self.default {
            KeyDefault::Count(n) => format!("{} (default {n})", flag.help),
            KeyDefault::HeadMarkerTail => format!("{} (default head + {PRUNE_MARKER_LEN} + tail)", flag.help),
            KeyDefault::Strategy(default) => {
                let others = StrategyName::ALL.iter().filter(|s| **s != default).map(|s| s.name());
                let others = others.collect::<Vec<_>>().join(" or ");
                format!("{} (default, {}) or {others}", default.name(), flag.help)
            }
            KeyDefault::Absent { .. } => flag.help.to_owned(),
        })
    }

    /// The words a refusal of this key ends with: `… must be <wording>`;
    /// `threshold` is the resolved `thresholdChars`, which one range names.
    pub fn wording(&self, threshold: f64) -> String {
        match self.range {
            Range::Integer { min: 0 } => "a non-negative integer".to_owned(),
            Range::Integer { min: 1 } => "a positive integer".to_owned(),
            Range::Integer { min } => format!("an integer of at least {min}"),
            Range::MarkerToThreshold => {
                format!("an integer from {PRUNE_MARKER_LEN} to thresholdChars ({})", super::js_number(threshold))
            }
            Range::Strategy => {
                let names: Vec<String> = StrategyName::ALL.iter().map(|s| format!("'{}'", s.name())).collect();
                names.join(" or ")
            }
            Range::Ratio => "a number greater than 0 and at most 1".to_owned(),
            Range::ToolRules => "an object mapping tool names to rules".to_owned(),
        }
    }
}

#[cfg(test)]
mod tests;
