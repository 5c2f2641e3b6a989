//! The resolver against upstream's conditions and messages.

use super::*;
use crate::text::utf16;

/// A config value for tests, with what JavaScript would print for it.
#[derive(Clone, Debug)]
enum V {
    Absent,
    Number(f64),
    Text(Vec<u16>),
    Other(&'static str),
}

impl ConfigValue for V {
    fn raw(&self) -> Raw<'_> {
        match self {
            V::Absent => Raw::Absent,
            V::Number(n) => Raw::Number(*n),
            V::Text(t) => Raw::Text(t),
            V::Other(_) => Raw::Other,
        }
    }
    fn describe(&self) -> Vec<u16> {
        match self {
            V::Other(s) => utf16(s),
            _ => unreachable!("only other values are described by the caller"),
        }
    }
}

fn resolved(given: &[(Key, V)]) -> Result<ResolvedConfig, ConfigError> {
    let values = ConfigValues::read(|key| {
        Ok::<_, ()>(given.iter().find(|(k, _)| *k == key).map_or(V::Absent, |(_, v)| v.clone()))
    })
    .unwrap();
    resolve(&values)
}

fn refusal(given: &[(Key, V)]) -> (ErrorKind, String) {
    let e = resolved(given).unwrap_err();
    (e.kind, e.to_string())
}

#[test]
fn the_defaults_are_upstreams_and_keep_what_head_tail_keeps() {
    let d = ResolvedConfig::defaults();
    assert_eq!((d.threshold_chars, d.head_chars, d.tail_chars), (8192.0, 4096.0, 1024.0));
    assert_eq!((d.strategy, d.keep_chars, d.context_lines, d.edge_lines), (StrategyName::HeadTail, 5159.0, 2.0, 2.0));
    assert_eq!(d.budgets(), Budgets::default());
}

#[test]
fn unknown_keys_are_refused_first_with_the_allowed_list() {
    assert_eq!(check_keys(&[utf16("thresholdChars"), utf16("edgeLines"), utf16("tools")]), Ok(()));
    let e = check_keys(&[utf16("headChars"), utf16("bogus\u{e9}"), utf16("other")]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Type);
    assert_eq!(
        e.to_string(),
        "ToolResultPruneConfig: unknown key \"bogus\u{e9}\" (allowed: thresholdChars, headChars, tailChars, \
         strategy, keepChars, contextLines, edgeLines, recentTokens, readKeepChars, contextWindow, thresholdRatio, tools)"
    );
    // A lone surrogate in a key is quoted as it is.
    let lone = vec![u16::from(b'k'), 0xD800];
    assert!(check_keys(std::slice::from_ref(&lone)).unwrap_err().message.windows(2).any(|w| w == lone));
}

#[test]
fn counts_are_integers_in_range_with_upstreams_messages() {
    use Key::*;
    let range = ErrorKind::Range;
    let ty = ErrorKind::Type;
    let msg = |s: &str| format!("ToolResultPruneConfig: {s}");
    assert_eq!(
        refusal(&[(ThresholdChars, V::Number(0.0))]),
        (range, msg("thresholdChars (0) must be a positive integer"))
    );
    assert_eq!(refusal(&[(HeadChars, V::Number(-1.0))]), (range, msg("headChars (-1) must be a non-negative integer")));
    assert_eq!(refusal(&[(TailChars, V::Number(1.5))]), (range, msg("tailChars (1.5) must be a non-negative integer")));
    assert_eq!(
        refusal(&[(ThresholdChars, V::Number(f64::NAN))]),
        (range, msg("thresholdChars (NaN) must be a positive integer"))
    );
    assert_eq!(
        refusal(&[(EdgeLines, V::Number(f64::INFINITY))]),
        (range, msg("edgeLines (Infinity) must be a non-negative integer"))
    );
    assert_eq!(
        refusal(&[(ThresholdChars, V::Text(utf16("8192")))]),
        (ty, msg("thresholdChars (8192) must be a positive integer"))
    );
    assert_eq!(
        refusal(&[(ContextLines, V::Other("true"))]),
        (ty, msg("contextLines (true) must be a non-negative integer"))
    );
    // -0 is an integer and is kept as given, as is 2^53.
    assert_eq!(resolved(&[(HeadChars, V::Number(-0.0))]).unwrap().head_chars.to_bits(), (-0f64).to_bits());
    assert_eq!(resolved(&[(ContextLines, V::Number(2f64.powi(53)))]).unwrap().context_lines, 2f64.powi(53));
}

#[test]
fn the_budget_sum_is_upstreams_double_sum() {
    use Key::*;
    let over =
        refusal(&[(ThresholdChars, V::Number(100.0)), (HeadChars, V::Number(50.0)), (TailChars, V::Number(12.0))]);
    let words = "headChars + marker + tailChars (101) must be at most thresholdChars (100)";
    assert_eq!(over, (ErrorKind::Range, format!("ToolResultPruneConfig: {words}")));
    assert!(
        resolved(&[(ThresholdChars, V::Number(39.0)), (HeadChars, V::Number(0.0)), (TailChars, V::Number(0.0))])
            .is_ok()
    );
    // 1e21 + 39 + 1024 is 1e21 in doubles, printed as JavaScript prints it.
    let huge = refusal(&[(ThresholdChars, V::Number(1e6)), (HeadChars, V::Number(1e21))]);
    assert!(huge.1.ends_with("(1e+21) must be at most thresholdChars (1000000)"), "{}", huge.1);
    // Accepted by the double sum though the exact one is one over: the budgets still build.
    let t = 2f64.powi(54);
    let c = resolved(&[(ThresholdChars, V::Number(t)), (HeadChars, V::Number(t - 40.0)), (TailChars, V::Number(2.0))])
        .unwrap();
    let b = c.budgets();
    assert_eq!(b.threshold(), 1 << 54);
    assert!(b.head() + PRUNE_MARKER_LEN + b.tail() <= b.threshold());
}

#[test]
fn the_strategy_is_one_of_the_names() {
    assert_eq!(resolved(&[(Key::Strategy, V::Text(utf16("lines")))]).unwrap().strategy, StrategyName::Lines);
    let e = refusal(&[(Key::Strategy, V::Text(utf16("Lines")))]);
    assert_eq!(e, (ErrorKind::Type, "ToolResultPruneConfig: strategy (Lines) must be 'head-tail' or 'lines'".into()));
    assert_eq!(refusal(&[(Key::Strategy, V::Number(1.0))]).0, ErrorKind::Type);
}

#[test]
fn keep_chars_runs_from_the_marker_to_the_threshold() {
    use Key::*;
    let t = (ThresholdChars, V::Number(9000.0));
    assert_eq!(resolved(&[t.clone(), (KeepChars, V::Number(39.0))]).unwrap().keep_chars, 39.0);
    assert_eq!(resolved(&[t.clone(), (KeepChars, V::Number(9000.0))]).unwrap().keep_chars, 9000.0);
    let words = "must be an integer from 39 to thresholdChars (9000)";
    for (keep, shown) in [(38.0, "38"), (9001.0, "9001"), (1.5, "1.5")] {
        let (kind, message) = refusal(&[t.clone(), (KeepChars, V::Number(keep))]);
        assert_eq!((kind, message), (ErrorKind::Range, format!("ToolResultPruneConfig: keepChars ({shown}) {words}")));
    }
    assert_eq!(refusal(&[t, (KeepChars, V::Other("[object Object]"))]).0, ErrorKind::Type);
    let lines = resolved(&[(Strategy, V::Text(utf16("lines"))), (KeepChars, V::Number(2000.0))]).unwrap();
    assert_eq!(crate::strategy::Pruner::from(&lines).budgets.keep(), 2000);
    assert!(
        matches!(crate::strategy::Pruner::from(&lines).strategy, crate::strategy::Strategy::Lines(o) if o == crate::strategy::lines::LineOptions::default())
    );
}

#[test]
fn a_config_that_is_not_an_object_is_named() {
    let e = not_an_object(&utf16("null"));
    assert_eq!(
        (e.kind, e.to_string()),
        (ErrorKind::Type, "ToolResultPruneConfig: config (null) must be an object".into())
    );
}
