//! The task's phase of a log's plan: which findings and failure blocks a
//! task raises, with what places them.

use super::super::*;
use super::task::with_task;

#[test]
fn a_task_word_in_a_findings_note_keeps_the_finding_and_where_it_is() {
    // Rustc-style warnings of many rules; the task's rule is named only in
    // the note under each of its findings, never in the finding's line.
    let mut log = String::new();
    for i in 0..300 {
        let (title, rule) = if i % 60 == 7 {
            ("this function has too many lines", "lengthy_body")
        } else {
            (["unnested or-patterns", "redundant closure", "casting may wrap"][i % 3], "other_lint")
        };
        log.push_str(&format!(
            "warning: {title} (item {i})\n   --> src/module_{i}.rs:{i}:5\n    |\n{i:>3} |     let item_{i} = {i};\n    |\n    = help: for further information visit https://example.org/index.html#{rule}\n\n"
        ));
    }
    let kept = with_task(&log, Kind::Log, 4096, "which ones does clippy report under lengthy_body?");
    for i in (0..300).filter(|i| i % 60 == 7) {
        assert!(kept.contains(&format!("warning: this function has too many lines (item {i})\n")), "{i} in\n{kept}");
        assert!(kept.contains(&format!("   --> src/module_{i}.rs:{i}:5\n")), "{i}'s place in\n{kept}");
    }
}

/// A pytest run: many passes, then each failure's section under its
/// `___ name ___` title, `test_boolean_field`'s among them. The line that
/// shows the value it failed on (`value = 'On'`) holds none of a task's
/// words; it is deep in that test's block, past the test's own frame.
fn pytest_run_with_a_deep_value() -> String {
    let mut log = String::from("============================= test session starts ==============================\n");
    for i in 0..400 {
        log.push_str(&format!("tests/test_misc.py::test_case_{i:03} PASSED                       [ {:2}%]\n", i / 4));
    }
    for i in 0..8 {
        log.push_str(&format!("tests/test_other.py::test_other_{i} FAILED                       [ 99%]\n"));
    }
    log.push_str("tests/test_fields.py::test_boolean_field FAILED                       [ 99%]\n");
    log.push_str("=================================== FAILURES ===================================\n");
    let section =
        |name: &str, body: &str| format!("_________________________ {name} _________________________\n\n{body}\n");
    let other = |i: usize| {
        let body: String = (0..20).map(|j| format!("    value_{j} = compute({i}, {j})\n")).collect();
        section(
            &format!("test_other_{i}"),
            &format!(
                "    def test_other_{i}():\n{body}E       ValueError: bad {i}\n\ntests/test_other.py:{i}: ValueError"
            ),
        )
    };
    (0..4).for_each(|i| log.push_str(&other(i)));
    let body: String = (0..6).map(|i| format!("    assert convert({i}) is not None\n")).collect();
    let lib: String = (0..12).map(|i| format!("        step_{i} = advance(value, {i})\n")).collect();
    log.push_str(&section(
        "test_boolean_field",
        &format!(
            "    def test_boolean_field():\n{body}>       assert convert(\"On\") is True\n\ntests/test_fields.py:30: \n{}\n\nvalue = 'On'\n\n{lib}>       raise ConvertError(value)\nE       ConvertError: 'On'\n\nlib/convert.py:99: ConvertError",
            "_ ".repeat(40),
        ),
    ));
    (4..8).for_each(|i| log.push_str(&other(i)));
    log.push_str("========================= 9 failed, 400 passed in 3.21s =========================\n");
    log
}

#[test]
fn a_failure_the_task_names_keeps_its_block_in_order() {
    let log = pytest_run_with_a_deep_value();
    let task = "Why does test_boolean_field fail now?";
    // The value the library was given, under the test's own frame.
    let compared = "value = 'On'";
    let with = with_task(&log, Kind::Log, 4096, task);
    assert!(with.contains(compared), "{with}");
    assert!(with.contains("    assert convert(5) is not None"), "the block, in order\n{with}");
    let without = with_task(&log, Kind::Log, 4096, "");
    assert!(!without.contains(compared), "the blind plan keeps it too: not a test of the block\n{without}");
}

#[test]
fn a_failure_the_task_names_in_words_keeps_its_block_unless_set_aside() {
    // The request names the test by its words, not as code writes it.
    let log = pytest_run_with_a_deep_value();
    let compared = "value = 'On'";
    let with = with_task(&log, Kind::Log, 4096, "Why does the boolean field conversion fail now?");
    assert!(with.contains(compared), "{with}");
    // Set aside, the same words keep no block.
    let aside = with_task(&log, Kind::Log, 4096, "Which tests fail? Ignore the boolean field failure.");
    assert!(!aside.contains(compared), "{aside}");
}

#[test]
fn a_finding_that_counts_what_the_request_counts_comes_before_one_sharing_more_words() {
    // A linter's flood: each function with too many branches, and more
    // findings whose message holds two of the request's other words
    // ("statement", "function") where the counted one holds one.
    let mut log = String::new();
    for i in 0..400 {
        let line = match i % 40 {
            3 => format!("pkg/mod_{i}.py:{i}:9: PLR0912 Too many branches ({} > 12)\n", 13 + i % 7),
            5 | 25 => format!("pkg/mod_{i}.py:{i}:9: PLR1711 Useless `return` statement at end of function\n"),
            _ => format!("pkg/mod_{i}.py:{i}:13: UP032 Use f-string instead of `format` call\n"),
        };
        log.push_str(&line);
    }
    let kept = with_task(&log, Kind::Log, 3072, "Which functions have too many branches or statements? Worst first.");
    for i in (0..400).filter(|i| i % 40 == 3) {
        assert!(kept.contains(&format!("pkg/mod_{i}.py:{i}:9: PLR0912 Too many branches")), "{i} in\n{kept}");
    }
}
