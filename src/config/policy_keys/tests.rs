//! The policy keys and tool rules against the plugin's messages (which
//! __test__/policy.test.js checks in JS too).

use std::collections::BTreeMap;

use super::*;
use crate::config::{Resolved, resolve_object};

/// A config value for tests: JSON-like, with what JavaScript prints for it.
#[derive(Clone, Debug)]
enum V {
    Absent,
    Null,
    Number(f64),
    Text(&'static str),
    Bool(bool),
    Object(Vec<(&'static str, V)>),
    Array,
}

impl ConfigValue for V {
    fn raw(&self) -> Raw<'_> {
        match self {
            V::Absent => Raw::Absent,
            V::Null => Raw::Null,
            V::Number(n) => Raw::Number(*n),
            V::Text(_) => Raw::Other,
            V::Bool(b) => Raw::Bool(*b),
            V::Object(_) => Raw::Object,
            V::Array => Raw::Other,
        }
    }
    fn describe(&self) -> Vec<u16> {
        utf16(match self {
            V::Null => "null",
            V::Text(t) => t,
            V::Bool(true) => "true",
            V::Bool(false) => "false",
            V::Object(_) => "[object Object]",
            V::Array => "1,2",
            V::Absent | V::Number(_) => unreachable!("described by the resolver"),
        })
    }
}

/// An object of [`V`]s.
struct O(Vec<(&'static str, V)>);

impl ConfigObject for O {
    type Value = V;
    type Error = ();
    fn keys(&self) -> Result<Vec<Vec<u16>>, ()> {
        Ok(self.0.iter().map(|(k, _)| utf16(k)).collect())
    }
    fn get(&self, key: &[u16]) -> Result<V, ()> {
        Ok(self.0.iter().find(|(k, _)| utf16(k) == key).map_or(V::Absent, |(_, v)| v.clone()))
    }
    fn object(&self, value: &V) -> Option<O> {
        match value {
            V::Object(fields) => Some(O(fields.clone())),
            _ => None,
        }
    }
}

fn resolved(config: Vec<(&'static str, V)>) -> Resolved {
    resolve_object(&O(config)).unwrap()
}

fn refusal(config: Vec<(&'static str, V)>) -> (ErrorKind, String) {
    match resolve_object(&O(config)) {
        Err(Failure::Refused(e)) => (e.kind, e.to_string()),
        other => panic!("not refused: {other:?}"),
    }
}

const RANGE: ErrorKind = ErrorKind::Range;
const TYPE: ErrorKind = ErrorKind::Type;
fn msg(s: &str) -> String {
    format!("ToolResultPruneConfig: {s}")
}

#[test]
fn policy_keys_are_absent_unless_given() {
    assert_eq!(resolved(vec![]).policy, ResolvedPolicy::default());
    let p = resolved(vec![
        ("recentTokens", V::Number(0.0)),
        ("readKeepChars", V::Number(39.0)),
        ("contextWindow", V::Number(1.0)),
        ("thresholdRatio", V::Number(1.0)),
        ("tools", V::Object(vec![])),
    ])
    .policy;
    // No rules is no key.
    assert_eq!(
        p,
        ResolvedPolicy {
            recent_tokens: Some(0.0),
            read_keep_chars: Some(39.0),
            context_window: Some(1.0),
            threshold_ratio: Some(1.0),
            tools: vec![]
        }
    );
}

#[test]
fn policy_counts_and_the_ratio_are_refused_in_the_plugins_words() {
    let one = |k, v| refusal(vec![(k, v)]);
    assert_eq!(one("recentTokens", V::Number(-1.0)), (RANGE, msg("recentTokens (-1) must be a non-negative integer")));
    assert_eq!(one("recentTokens", V::Text("8000")), (TYPE, msg("recentTokens (8000) must be a non-negative integer")));
    // `null` is a value here, unlike for the pruner's keys.
    assert_eq!(one("recentTokens", V::Null), (TYPE, msg("recentTokens (null) must be a non-negative integer")));
    let read = "must be an integer of at least 39";
    assert_eq!(one("readKeepChars", V::Number(38.0)), (RANGE, msg(&format!("readKeepChars (38) {read}"))));
    assert_eq!(one("readKeepChars", V::Number(2048.5)), (RANGE, msg(&format!("readKeepChars (2048.5) {read}"))));
    assert_eq!(one("readKeepChars", V::Text("2048")), (TYPE, msg(&format!("readKeepChars (2048) {read}"))));
    assert_eq!(one("contextWindow", V::Number(0.0)), (RANGE, msg("contextWindow (0) must be a positive integer")));
    assert_eq!(one("contextWindow", V::Number(1.5)), (RANGE, msg("contextWindow (1.5) must be a positive integer")));
    let ratio = "must be a number greater than 0 and at most 1";
    assert_eq!(one("thresholdRatio", V::Number(0.0)), (RANGE, msg(&format!("thresholdRatio (0) {ratio}"))));
    assert_eq!(one("thresholdRatio", V::Number(1.5)), (RANGE, msg(&format!("thresholdRatio (1.5) {ratio}"))));
    assert_eq!(one("thresholdRatio", V::Number(f64::NAN)), (RANGE, msg(&format!("thresholdRatio (NaN) {ratio}"))));
    assert_eq!(one("thresholdRatio", V::Text("0.8")), (TYPE, msg(&format!("thresholdRatio (0.8) {ratio}"))));
    assert_eq!(resolved(vec![("thresholdRatio", V::Number(0.5))]).policy.threshold_ratio, Some(0.5));
    // The pruner's keys are checked first.
    assert_eq!(
        refusal(vec![("recentTokens", V::Number(-1.0)), ("headChars", V::Number(-1.0))]).1,
        msg("headChars (-1) must be a non-negative integer")
    );
}

#[test]
fn a_rule_inherits_the_top_levels_keys_and_its_refusals_name_it() {
    let tools = |rules: Vec<(&'static str, V)>| ("tools", V::Object(rules));
    let p = resolved(vec![
        ("thresholdChars", V::Number(20000.0)),
        tools(vec![
            ("read", V::Object(vec![("headChars", V::Number(100.0))])),
            ("todo", V::Object(vec![("prune", V::Bool(false))])),
        ]),
    ])
    .policy;
    let rules: BTreeMap<String, ToolRule> =
        p.tools.into_iter().map(|(name, rule)| (String::from_utf16(&name).unwrap(), rule)).collect();
    let ToolRule::Prune(read) = rules["read"] else { panic!("read is pruned") };
    assert_eq!((read.threshold_chars, read.head_chars, read.tail_chars), (20000.0, 100.0, 1024.0));
    assert_eq!(rules["todo"], ToolRule::Keep);

    let bash = |rule: Vec<(&'static str, V)>| refusal(vec![tools(vec![("bash", V::Object(rule))])]);
    assert_eq!(
        bash(vec![("headchars", V::Number(1.0))]),
        (
            TYPE,
            msg("tools[\"bash\"]: unknown key \"headchars\" (allowed: thresholdChars, headChars, tailChars, \
                 strategy, keepChars, contextLines, edgeLines, prune)")
        )
    );
    assert_eq!(
        bash(vec![("headChars", V::Number(-1.0))]),
        (RANGE, msg("tools[\"bash\"].headChars (-1) must be a non-negative integer"))
    );
    assert_eq!(bash(vec![("prune", V::Null)]), (TYPE, msg("tools[\"bash\"].prune (null) must be a boolean")));
    assert_eq!(
        bash(vec![("prune", V::Bool(false)), ("headChars", V::Number(1.0))]),
        (TYPE, msg("tools[\"bash\"]: prune: false takes no other key"))
    );
    assert_eq!(
        refusal(vec![tools(vec![("bash", V::Number(1.0))])]),
        (TYPE, msg("tools[\"bash\"] (1) must be an object"))
    );
    assert_eq!(
        refusal(vec![("tools", V::Array)]),
        (TYPE, msg("tools (1,2) must be an object mapping tool names to rules"))
    );
    // A name is quoted as JSON.stringify quotes it.
    assert_eq!(refusal(vec![tools(vec![("a\"b\n", V::Null)])]).1, msg("tools[\"a\\\"b\\n\"] (null) must be an object"));
}
