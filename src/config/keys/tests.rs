//! The key table against upstream's names and defaults and the words the
//! command line and the messages have always used.

use super::*;

#[test]
fn each_row_is_its_keys_and_the_pruner_keys_come_first() {
    for (i, key) in Key::ALL.iter().enumerate() {
        assert_eq!(KEYS[i].key, *key, "row {i}");
        assert_eq!(*key as usize, i);
    }
    let pruner: Vec<Key> = Key::ALL.into_iter().filter(|k| k.spec().scope != Scope::Policy).collect();
    assert_eq!(pruner, Key::PRUNER);
    assert_eq!(&Key::ALL[..Key::PRUNER.len()], Key::PRUNER);
}

#[test]
fn names_are_upstreams_then_ours() {
    let names = Key::ALL.map(Key::name).join(", ");
    // Upstream's three (its `ToolResultPruneConfig`), then this package's.
    assert_eq!(
        names,
        "thresholdChars, headChars, tailChars, strategy, keepChars, contextLines, edgeLines, \
         recentTokens, readKeepChars, contextWindow, thresholdRatio, tools"
    );
}

#[test]
fn defaults_are_upstreams_and_compaction_basics() {
    let defaults: Vec<KeyDefault> = KEYS.iter().map(|k| k.default).collect();
    let absent = KeyDefault::Absent { fallback: None };
    assert_eq!(
        defaults,
        [
            KeyDefault::Count(8192),
            KeyDefault::Count(4096),
            KeyDefault::Count(1024),
            KeyDefault::Strategy(StrategyName::HeadTail),
            KeyDefault::HeadMarkerTail,
            KeyDefault::Count(2),
            KeyDefault::Count(2),
            absent,
            KeyDefault::Absent { fallback: Some(2048.0) },
            absent,
            KeyDefault::Absent { fallback: Some(0.8) },
            absent,
        ]
    );
}

#[test]
fn flags_and_help_are_the_command_lines() {
    let lines: Vec<String> =
        KEYS.iter().filter_map(|k| Some(format!("--{} {} {}", k.flag_name(), k.flag?.arg, k.help()?))).collect();
    assert_eq!(
        lines,
        [
            "--threshold-chars N prune when longer than N code points (default 8192)",
            "--head-chars N leading code points kept (default 4096)",
            "--tail-chars N trailing code points kept (default 1024)",
            "--strategy S head-tail (default, upstream's rule) or lines",
            "--keep-chars N lines mode: code points kept at most (default head + 39 + tail)",
            "--context-lines N lines mode: neighbours kept around each kept line (default 2)",
            "--edge-lines N lines mode: lines kept at the start and the end (default 2)",
        ]
    );
    assert!(KEYS.iter().all(|k| (k.scope == Scope::Policy) == k.flag.is_none()));
}

#[test]
fn wording_is_upstreams_and_the_plugins() {
    let words: Vec<String> = KEYS.iter().map(|k| k.wording(9000.0)).collect();
    assert_eq!(
        words,
        [
            "a positive integer",
            "a non-negative integer",
            "a non-negative integer",
            "'head-tail' or 'lines'",
            "an integer from 39 to thresholdChars (9000)",
            "a non-negative integer",
            "a non-negative integer",
            "a non-negative integer",
            "an integer of at least 39",
            "a positive integer",
            "a number greater than 0 and at most 1",
            "an object mapping tool names to rules",
        ]
    );
}
