//! Runs as tools print them when piped: TAP (tape's and `node --test`'s
//! indented subtests), a progress bar redrawn by carriage returns, and
//! Python unittest and pytest reports.

use super::super::*;
use super::{budgets, out};
use crate::markers::expand;
use crate::text::utf16;

#[test]
fn a_tap_failure_keeps_its_tests_title_and_the_values_under_its_yaml_keys() {
    // tape: `# name`, the test's assertions, and where one fails the same
    // `not ok` line as every other failure, with a YAML block under it.
    let mut log = String::from("TAP version 13\n");
    let mut n = 0;
    for t in 0..120 {
        log.push_str(&format!("# parses case {t} of the query string\n"));
        for _ in 0..3 {
            n += 1;
            log.push_str(&format!("ok {n} should be deeply equivalent\n"));
        }
        if t % 12 == 5 {
            n += 1;
            log.push_str(&format!(
                "not ok {n} should be deeply equivalent\n  ---\n    operator: deepEqual\n    expected: |-\n      {{ a: [ 'b{t}' ] }}\n    actual: |-\n      {{ a: {{ 0: 'b{t}' }} }}\n  ...\n"
            ));
        }
    }
    log.push_str(&format!("\n1..{n}\n# tests {n}\n# pass  {}\n# fail  10\n", n - 10));
    let text = utf16(&log);
    let blocks = [Block::Text(&text)];
    let o = out(&blocks, &prune(&blocks, &budgets(3072), &LineOptions::default()).unwrap());
    let kept: Vec<&str> = o.lines().collect();
    let failures: Vec<usize> = (0..120).filter(|t| t % 12 == 5).collect();
    let mut told_apart = 0;
    for t in failures {
        let value = format!("      {{ a: [ 'b{t}' ] }}");
        if kept.contains(&value.as_str()) {
            told_apart += 1;
            let title = format!("# parses case {t} of the query string");
            assert!(kept.contains(&title.as_str()), "case {t}: its values are kept without its title\n{o}");
        }
        // A YAML key whose value is on the line under it is not kept alone.
        if let Some(i) = kept.iter().position(|l| *l == format!("      {{ a: {{ 0: 'b{t}' }} }}")) {
            assert_eq!(kept[i - 1], "    actual: |-");
        }
    }
    assert!(told_apart >= 3, "{told_apart} failures told apart\n{o}");
    for (i, l) in kept.iter().enumerate() {
        if l.ends_with(": |-") {
            assert!(kept.get(i + 1).is_some_and(|v| v.starts_with("      {")), "{l} kept without its value\n{o}");
        }
    }
}

/// A `node --test` run as an agent pipes it: TAP whose subtests are
/// indented, each with its YAML block, one failing among many.
fn node_test_tap(suites: usize, per_suite: usize, failing: (usize, usize)) -> String {
    let mut log = String::from("TAP version 13\n");
    for d in 0..suites {
        log.push_str(&format!("# Subtest: suite {d}\n"));
        for i in 0..per_suite {
            let n = i + 1;
            if (d, i) == failing {
                log.push_str(&format!(
                    "    # Subtest: case {d}.{i}\n    not ok {n} - case {d}.{i}\n      ---\n      duration_ms: 0.8\n      type: 'test'\n      location: '/w/t.test.mjs:3:90'\n      failureType: 'testCodeFailure'\n      error: |-\n        Expected values to be strictly equal:\n\n        'actual' !== 'x'\n\n      code: 'ERR_ASSERTION'\n      ...\n"
                ));
            } else {
                log.push_str(&format!(
                    "    # Subtest: case {d}.{i}\n    ok {n} - case {d}.{i}\n      ---\n      duration_ms: 0.05{i}\n      type: 'test'\n      ...\n"
                ));
            }
        }
        let verdict = if d == failing.0 { "not ok" } else { "ok" };
        log.push_str(&format!(
            "    1..{per_suite}\n{verdict} {} - suite {d}\n  ---\n  duration_ms: 6.6\n  type: 'suite'\n  ...\n",
            d + 1
        ));
    }
    let total = suites * per_suite;
    log.push_str(&format!("1..{suites}\n# tests {total}\n# suites {suites}\n# pass {}\n# fail 1\n# cancelled 0\n# skipped 0\n# todo 0\n# duration_ms 532.1\n", total - 1));
    log
}

#[test]
fn an_indented_tap_run_is_a_log_and_keeps_its_failure_and_summary() {
    let text = utf16(&node_test_tap(60, 20, (37, 11)));
    let blocks = [Block::Text(&text)];
    assert_eq!(kinds(&blocks), [Kind::Log]);
    for budget in [5159, 8192] {
        let p = prune(&blocks, &budgets(budget), &LineOptions::default()).unwrap();
        let o = out(&blocks, &p);
        for needle in ["not ok 12 - case 37.11", "'actual' !== 'x'", "# fail 1", "# pass 1199"] {
            assert!(o.contains(needle), "{needle} missing at {budget} from\n{o}");
        }
    }
}

#[test]
fn a_progress_bar_reads_as_its_last_frame_and_the_error_after_it_stays() {
    let frames: String = (0..60_000)
        .map(|i| format!("Downloading torch.whl ({}.{} MB of 800 MB) {}%\r", i / 100, i % 100, i / 600))
        .collect();
    let error = "ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device";
    for text in [format!("{frames}\n{error}\n"), format!("Collecting torch\n{frames}\n{error}\n")] {
        let t = utf16(&text);
        let blocks = [Block::Text(&t)];
        let p = prune(&blocks, &budgets(5159), &LineOptions::default()).unwrap();
        let o = out(&blocks, &p);
        assert!(o.contains(error), "{o}");
        // The bar as the terminal left it: its last frame, whole.
        assert!(o.contains("Downloading torch.whl (599.99 MB of 800 MB) 99%\r\n"), "{o}");
        assert!(!o.contains("(0.0 MB of 800 MB)"), "{o}");
        assert_eq!(expand(&utf16(&o), &p.recovered(&blocks)), t);
    }
}

#[test]
fn a_traceback_kept_as_a_failure_keeps_the_exception_it_ends_with() {
    // `python -m unittest -v` of simplejson (runs8-tune): four reports whose
    // `Traceback` header says nothing; the exception ending the first
    // report's trace says what failed, and comes with the header's frames.
    let o = fixture_pruned_as("runs8-tune/unittest-v-simplejson-tab-neginf-surrogate", 2048);
    let kept: Vec<&str> = o.lines().collect();
    assert!(kept.iter().any(|l| l.starts_with("FAIL: test_py_encode_basestring_ascii")), "{o}");
    assert!(kept.contains(&"Traceback (most recent call last):"), "{o}");
    assert!(
        kept.iter().any(|l| l.starts_with("AssertionError: '\"/\\\\[37 chars]cda")),
        "the first report's exception is missing\n{o}"
    );
}

#[test]
fn a_second_panics_message_keeps_the_line_that_says_where_it_panicked() {
    // `cargo test` with RUST_BACKTRACE=1 (runs9-tune): two panics; the
    // second's `thread … panicked at` shares the first's template, but it
    // says where the unwrap message under it comes from.
    let o = fixture_pruned_as("runs9-tune/cargo-test-backtrace-numfmt-base36-luhn", 2048);
    let kept: Vec<&str> = o.lines().collect();
    assert!(kept.contains(&"called `Option::unwrap()` on a `None` value"), "{o}");
    assert!(
        kept.iter().any(|l| l.starts_with("thread 'luhn_grouped_card_number'") && l.ends_with("panicked at src/lib.rs:68:79:")),
        "the second panic's place is missing\n{o}"
    );
}

/// A fixture's `raw.log` (`corpus/case` under `__test__/fixtures`), read as
/// a log and pruned to `budget`.
fn fixture_pruned_as(case: &str, budget: u64) -> String {
    let path = format!("{}/__test__/fixtures/{case}/raw.log", env!("CARGO_MANIFEST_DIR"));
    super::pruned_as(&std::fs::read_to_string(path).unwrap(), Kind::Log, budget)
}

#[test]
fn a_pytest_failure_keeps_the_line_that_raised_above_the_rest_of_its_statement() {
    // A fixture fails for a class of tests: each error repeats the frame,
    // its `>` line four lines above the `E` line.
    let mut log = format!("{} [ 23%]\n", ".".repeat(72)).repeat(4);
    log.push_str("==================================== ERRORS ====================================\n");
    for t in 0..30 {
        log.push_str(&format!("_____ ERROR at setup of TestSwarm.test_case_{t} _____\n\n"));
        log.push_str("    @pytest.fixture(scope=\"class\")\n    def sites():\n>       return load_sites(DATA / \"sites.csv\")\n               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n\ntests/conftest.py:12: \n_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _\n\npath = PosixPath('/srv/apiary/tests/data/sites.csv')\n\n");
        log.push_str("    def load_sites(path):\n        for row in csv.DictReader(fh):\n            sites[row[\"name\"]] = Site(\n                name=row[\"name\"],\n>               hives=int(row[\"colonies\"]),\n                          ^^^^^^^^^^^^^^^\n                elevation_m=float(row[\"elevation_m\"]),\n                forage=row[\"forage\"],\n            )\nE           KeyError: 'colonies'\n\napiary/sites.py:20: KeyError\n");
    }
    log.push_str("=========================== short test summary info ============================\n");
    for t in 0..30 {
        log.push_str(&format!("ERROR tests/test_swarm.py::TestSwarm::test_case_{t} - KeyError: 'colonies'\n"));
    }
    log.push_str("276 passed, 30 errors in 0.54s\n");
    let text = utf16(&log);
    let blocks = [Block::Text(&text)];
    let o = out(&blocks, &prune(&blocks, &budgets(2048), &LineOptions::default()).unwrap());
    assert!(o.contains(">               hives=int(row[\"colonies\"]),"), "{o}");
    assert!(o.contains("E           KeyError: 'colonies'"), "{o}");
}
