//! The signal scan's tests: rules, views, traces, templates.

use super::*;
use crate::text::{TextLines, utf16};

fn starts(t: &[u16]) -> Vec<u32> {
    crate::text::split_lines(t).iter().map(|r| r.start as u32).collect()
}

fn classify(text: &str) -> Vec<LineSignal> {
    let t = utf16(text);
    let s = starts(&t);
    let signals = Signals::of_text(TextLines { text: &t, starts: &s });
    (0..s.len()).map(|k| signals.get(k)).collect()
}

fn failures(text: &str) -> Vec<Failure> {
    classify(text).iter().map(|s| s.failure).collect()
}

#[test]
fn signals_are_eight_bytes() {
    assert_eq!(std::mem::size_of::<LineSignal>(), 8);
}

#[test]
fn views_drop_timestamps_escapes_and_endings() {
    let mut out = String::new();
    view(&utf16("2026-04-22T16:11:57.0127816Z \u{1b}[31merror\u{1b}[39m: x\r\n"), &mut out);
    assert_eq!(out, "error: x");
    view(&utf16("^[[31m[FAIL]^[[0m test_x ^ caret kept"), &mut out);
    assert_eq!(out, "[FAIL] test_x ^ caret kept");
    view(&[0x61, 0xD800, 0x62], &mut out);
    assert_eq!(out, "a\u{FFFD}b");
    // A tree's drawing is indentation; inside the text it stays.
    view(&utf16("\u{2502}  \u{251C}\u{2500} \u{1b}[31m\tat com.acme.Money.parse(Money.java:11)"), &mut out);
    assert_eq!(out, "      \tat com.acme.Money.parse(Money.java:11)");
    view(&utf16("a \u{2502} b"), &mut out);
    assert_eq!(out, "a \u{2502} b");
    view(&utf16("plain ascii line\n"), &mut out);
    assert_eq!(out, "plain ascii line");
}

#[test]
fn every_rule_example_passes_the_prefilter_and_its_rule() {
    let mut triggers = rules::anchors();
    triggers.extend(rules::SEARCHED_ALONE);
    for rule in rules::RULES {
        let pattern = rules::ascii_regex(rule.pattern);
        assert!(!rule.anchors.is_empty(), "{:?} has no anchors", rule.pattern);
        for example in rule.examples {
            let mut v = String::new();
            view(&utf16(example), &mut v);
            assert!(pattern.is_match(v.as_bytes()), "{example:?} is not matched by its own rule");
            let s = classify(example)[0];
            match rule.says {
                rules::Says::Failure => {
                    assert_eq!(s.failure, Failure::Strong, "{example:?} is not a strong failure line")
                }
                rules::Says::Pass => assert!(s.pass() || s.failure == Failure::None, "{example:?}"),
                rules::Says::Summary => assert!(s.summary(), "{example:?} is not a summary"),
                rules::Says::Chatter => {
                    assert!(rules::ascii_regex(&classify::union(rules::Says::Chatter)).is_match(v.as_bytes()));
                    assert_eq!(s.failure, Failure::None, "{example:?}")
                }
            }
            // As the prefilter reads it: every digit a `0`, glyphs as their bytes.
            let narrowed = rules::narrowed_anchor(example);
            let holds = |a: &str| {
                let a = rules::narrowed_anchor(a);
                narrowed.windows(a.len()).any(|w| w == a.as_slice())
            };
            assert!(rule.anchors.iter().any(|a| holds(a)), "{example:?} holds none of its rule's anchors");
            if matches!(rule.says, rules::Says::Failure | rules::Says::Summary) && example.is_ascii() {
                assert!(triggers.iter().any(|a| holds(a)), "{example:?} holds none of the prefilter's keywords");
            }
        }
    }
}

#[test]
fn the_docs_show_each_rule_an_example_it_matches() {
    let doc = include_str!("../../docs/lines-mode.md");
    let spans: Vec<&str> = doc.split('`').skip(1).step_by(2).collect();
    for rule in rules::RULES {
        let pattern = rules::ascii_regex(rule.pattern);
        assert!(
            spans.iter().any(|s| pattern.is_match(s.as_bytes())),
            "docs/lines-mode.md shows no example of {:?}",
            rule.pattern
        );
    }
}

#[test]
fn a_count_is_a_whole_number() {
    // A build step's elapsed seconds are not a count of warnings.
    assert!(!classify("#48 99.25 warning: GOCOVERDIR not set, no coverage data emitted")[0].summary());
    assert!(!classify("12:30 errors in the morning")[0].summary());
    assert!(classify("[3 warnings] build done")[0].summary());
    assert!(!classify("ok 675 test case: []=a&[]=b, repeat")[0].summary());
}

#[test]
fn a_pass_verdict_is_never_a_failure() {
    for line in [
        "  \u{2714} should fail when the token is missing",
        "test parser::errors::unclosed_brace ... ok",
        "# Subtest: rejects bad input then reports error",
        "test_raises_error PASSED    [ 12%]",
        "ok 7 - fails loudly on NaN instead of printing NaN B",
        "--- PASS: TestFailover (0.01s)",
    ] {
        let s = classify(line)[0];
        assert!(s.pass(), "{line}");
        assert_eq!(s.failure, Failure::None, "{line}");
    }
    assert_eq!(failures("FAILED tests/x.py::test_passes - AssertionError"), [Failure::Strong]);
    assert_eq!(failures("not ok 3 - passes the token through"), [Failure::Strong]);
}

#[test]
fn quoted_keywords_and_debug_chatter_are_not_verdicts() {
    assert_eq!(failures("      if (!test.output.includes(\"FAIL\")) {"), [Failure::None]);
    assert_eq!(failures("time=\"x\" level=debug msg=\"fetch failed\" digest=1"), [Failure::None]);
    assert_eq!(failures("[INFO] Exception counts: none"), [Failure::None]);
    assert_eq!(failures("ERROR: process \"/bin/sh -c make\" did not complete"), [Failure::Strong]);
    assert_eq!(failures("it's FAILED, don't retry"), [Failure::Strong]);
}

#[test]
fn weak_words_and_what_is_not_a_failure() {
    assert_eq!(failures("the request failed after retries"), [Failure::Weak]);
    for line in [
        "Compiling error-chain v0.12.4",
        "next:pack: dist/shared/lib/errors/usage-error.js",
        "No errors found",
        "errors: 0",
        "-Werror enabled",
        "Process completed with exit code 0.",
    ] {
        assert_eq!(failures(line), [Failure::None], "{line}");
    }
    // A summary with failures is a summary, not a weak failure line.
    let s = classify("69 passed, 2 failed")[0];
    assert!(s.summary() && s.failure == Failure::None);
}

#[test]
fn python_tracebacks_are_kept_whole_with_project_frames_marked() {
    let log = "ok\nTraceback (most recent call last):\n  File \"/app/a.py\", line 1, in <module>\n    main()\n  File \"/usr/lib/python3.11/json/__init__.py\", line 3, in loads\n    return x\nValueError: bad\nafter\n";
    let s = classify(log);
    let frames: Vec<Frame> = s.iter().map(|x| x.frame).collect();
    assert_eq!(
        frames,
        [
            Frame::None,
            Frame::None,
            Frame::Project,
            Frame::Project,
            Frame::Library,
            Frame::Library,
            Frame::None,
            Frame::None
        ]
    );
    assert!(s[2].frame_head() && !s[3].frame_head() && s[4].frame_head());
    assert_eq!(s[1].failure, Failure::Strong);
    assert_eq!(s[6].failure, Failure::Strong);
    assert_eq!(s[7].failure, Failure::None);
}

#[test]
fn traces_after_a_failure_and_their_project_frames() {
    let log = "TypeError: x is undefined\n    at f (/app/src/a.js:1:2)\n    at g (/app/node_modules/lib/b.js:3:4)\nnext line\n";
    let s = classify(log);
    assert_eq!(
        s.iter().map(|x| x.frame).collect::<Vec<_>>(),
        [Frame::None, Frame::Project, Frame::Library, Frame::None]
    );
    let rust = "thread 'main' panicked at src/lib.rs:1:1:\n1 of 10 tests failed\nstack backtrace:\n   0: rust_begin_unwind\n             at /rustc/x/panicking.rs:1:1\n   1: app::parse\n             at ./src/parse.rs:7:9\n";
    let s = classify(rust);
    assert_eq!(s[1].failure, Failure::Strong);
    assert_eq!(s[3].frame, Frame::Library);
    assert_eq!(s[4].frame, Frame::Library);
    assert!(s[5].frame_head() && s[5].frame == Frame::Project && s[6].frame == Frame::Project);
    // A frame's `at path` line is its detail, not a frame of its own.
    assert!(!s[4].frame_head() && !s[6].frame_head());
    // JUnit's console: a runtime frame without a source under the test's
    // own frame reads as its detail, and says nothing of where the test is.
    let junit = "  => java.lang.IllegalArgumentException: not a numeral: CLXXXVIII
       com.acme.Roman.fromRoman(Roman.java:35)
       com.acme.RomanTest.roundTrip(RomanTest.java:37)
       jdk.internal.reflect.GeneratedMethodAccessor1.invoke(Unknown Source)
       java.base/java.lang.reflect.Method.invoke(Method.java:569)
";
    let s = classify(junit);
    let frames: Vec<Frame> = s.iter().map(|x| x.frame).collect();
    assert_eq!(frames, [Frame::None, Frame::Project, Frame::Project, Frame::Project, Frame::Library], "{s:?}");
}

#[test]
fn a_trace_ends_where_its_yaml_block_or_its_test_ends() {
    // node --test's TAP: the stack inside the YAML block ends at `...`;
    // what follows (the next subtest, indented as deep) is not a frame.
    let tap = "not ok 1 - parses\n  ---\n  error: 'boom'\n  stack: |-\n    TestContext.<anonymous> (/app/test/a.test.js:3:5)\n    Test.run (node:internal/test_runner/test:796:25)\n  ...\n    # Subtest: next\n    ok 2 - next\n      ---\n      duration_ms: 0.1\n";
    let s = classify(tap);
    let frames: Vec<bool> = s.iter().map(|x| x.frame != Frame::None).collect();
    assert_eq!(frames, [false, false, false, true, true, true, false, false, false, false, false], "{s:?}");
    assert_eq!(s[4].frame, Frame::Project);
    // A detail line left of the trace's first frame is not the trace's.
    let js =
        "Error: boom\n      at f (/app/src/a.js:1:2)\n      at g (/app/src/b.js:3:4)\n    continuing output here\n";
    let s = classify(js);
    assert_eq!(s.iter().map(|x| x.frame != Frame::None).collect::<Vec<_>>(), [false, true, true, false]);
}

#[test]
fn the_block_under_a_failure_and_the_lines_above_are_its_cause() {
    let tap = "ok 1 - parses\n# limits array indices\nnot ok 2 - should be deeply equivalent\n  ---\n    expected: 1\n    actual: 2\n  ...\nok 3 - next\n";
    let s = classify(tap);
    assert_eq!(s.iter().map(|x| x.cause()).collect::<Vec<_>>(), [false, true, false, true, true, true, true, false]);
    let mocha = "  1) parseAdminQuery\n       parses two sorts:\n     TypeError: parsed.sort.split is not a function\n";
    let s = classify(mocha);
    assert!(s[0].cause() && s[1].cause() && s[2].failure == Failure::Strong);
    // A syntax error's location above the source and caret it quotes, as
    // python prints it and compileall marks it (`*** `); not the line above.
    for mark in ["", "*** "] {
        let compile = format!(
            "Compiling 'pkg/core.py'...\n{mark}  File \"pkg/core.py\", line 228\n    except Exception\n                    ^\nSyntaxError: expected ':'\n"
        );
        let s = classify(&compile);
        assert_eq!(s.iter().map(|x| x.cause()).collect::<Vec<_>>(), [false, true, true, true, false], "{mark:?}");
    }
}

#[test]
fn a_pytest_failures_e_lines_after_its_first_are_its_causes() {
    let pytest = "    def test_merge():\n>       assert merge(1) == 3\nE       assert 2 == 3\nE         Differing items:\nE         {1: 2} != {1: 3}\n\ntests/test_merge.py:25: AssertionError\n";
    let s = classify(pytest);
    assert_eq!(s[2].failure, Failure::Strong);
    for k in [3, 4] {
        assert_eq!(s[k].failure, Failure::None, "line {k}");
        assert!(s[k].cause(), "line {k}");
    }
    // The failure's location stays a failure line of its own.
    assert_eq!(s[6].failure, Failure::Strong);
}

#[test]
fn a_pytest_failures_raising_line_is_its_cause_past_the_source_after_it() {
    // pytest prints the frame's source around its `>` line; the `E` line
    // follows the rest of the statement.
    let pytest = "    def load(path):\n        for row in rows:\n            sites[row[0]] = Site(\n>               hives=int(row[\"colonies\"]),\n                          ^^^^^^^^^^^^^^^\n                elevation=float(row[\"elevation\"]),\n                forage=row[\"forage\"],\n            )\nE           KeyError: 'colonies'\n";
    let s = classify(pytest);
    assert_eq!(s[8].failure, Failure::Strong);
    for (k, line) in s.iter().enumerate().take(8).skip(3) {
        assert!(line.cause(), "line {k}");
    }
    // The source above the `>` line is not.
    assert!(!s[2].cause());
}

#[test]
fn an_assertions_long_diff_under_its_hunk_header_is_its_cause() {
    // vitest and jest print a long array's diff as a hunk.
    let mut vitest = String::from(
        " FAIL  test/leap.test.js > leapYearsBetween > 1780..1820\nAssertionError: expected [ 1780, 1784, …(6) ] to deeply equal [ 1780, 1784, …(5) ]\n\n- Expected\n+ Received\n\n@@ -2,10 +2,11 @@\n",
    );
    for y in (1780..1800).step_by(4) {
        vitest.push_str(&format!("    {y},\n"));
    }
    vitest.push_str("+   1800,\n    1804,\n");
    let s = classify(&vitest);
    assert_eq!(s[1].failure, Failure::Strong);
    for (k, line) in s.iter().enumerate().skip(6) {
        assert!(line.cause(), "line {k}");
    }
}

#[test]
fn keywords_straddling_scan_windows_are_found() {
    const W: usize = prefilter::SCAN_WINDOW;
    for at in [W - 3, W - 1, W, 3 * W + 2] {
        let mut line = "x".repeat(at);
        line.push_str(" FAILED here ");
        line.push_str(&"y".repeat(1000));
        let text = format!("first\n{line}\nlast\n");
        assert_eq!(failures(&text), [Failure::None, Failure::Strong, Failure::None], "keyword at {at}");
    }
    // Many short lines across windows and both threads: each is flagged on its own.
    let text: String =
        (0..60_000).map(|i| if i % 997 == 0 { "ERROR: boom\n".to_owned() } else { format!("ok {i}\n") }).collect();
    let s = failures(&text);
    assert_eq!(s.iter().filter(|&&f| f == Failure::Strong).count(), 61);
    assert!(s.iter().enumerate().all(|(i, &f)| (f == Failure::Strong) == (i % 997 == 0)));
}

#[test]
fn summaries() {
    let s = classify(
        "Tests:       1 failed, 484 passed, 485 total\n= 2 failed, 244 passed in 0.17s =\nFound 279 errors in 9 files (checked 1458 source files)\nplain\nTime:  2.514 s\n",
    );
    assert_eq!(s.iter().map(|x| x.summary()).collect::<Vec<_>>(), [true, true, true, false, true]);
}

#[test]
fn floods_share_a_template() {
    let log: String = (0..50)
        .map(|i| format!("src/m{i}.py:{i}: error: Function is missing a type annotation  [no-untyped-def]\n"))
        .collect();
    let s = classify(&format!("{log}src/z.py:9: error: Module has no attribute \"x\"  [attr-defined]\n"));
    assert!(s[..50].iter().all(|x| x.template == s[0].template && x.template != 0));
    assert_ne!(s[50].template, s[0].template);
}

#[test]
fn glyphs_flag_a_line_only_where_its_text_starts() {
    // A status line with a dingbat inside is not read by the rules at all.
    let t = utf16("[3] \u{2705} batch 3 done \u{1F600} records 128\n  \u{25CF} suite \u{203A} fails\n");
    let s = starts(&t);
    let signals = Signals::of_text(TextLines { text: &t, starts: &s });
    assert_eq!(signals.cost.flagged, 1);
    assert_eq!(signals.get(1).failure, Failure::Strong);
}

#[test]
fn node_tests_spec_reporter_fails_a_test_and_its_suite_with_a_heavy_x() {
    // `node --test --test-reporter=spec`: a failing test, indented, and the
    // suite that holds it, at the margin; a passing one has its tick.
    let t = utf16(
        "\u{25B6} #F8F8F8\n  \u{2716} rgb.ansi256 (1.39428ms)\n\u{2716} #F8F8F8 (1.886457ms)\n  \u{2714} rgb.hsl (0.03ms)\n",
    );
    let s = starts(&t);
    let signals = Signals::of_text(TextLines { text: &t, starts: &s });
    let failures: Vec<Failure> = (0..4).map(|k| signals.get(k).failure).collect();
    assert_eq!(failures, [Failure::None, Failure::Strong, Failure::Strong, Failure::None]);
}

/// `$ flake8 src` and `n` findings of one rule, differing in numbers only.
fn e501_flood(n: usize) -> String {
    let mut log = String::from("$ flake8 src\n");
    for i in 0..n {
        let (file, line, width) = (i % 7, i % 90 + 10, 80 + i % 19);
        log.push_str(&format!("src/m{file}.py:{line}:80: E501 line too long ({width} > 79 characters)\n"));
    }
    log
}

#[test]
fn diagnostics_are_grouped_by_rule() {
    let mut log = e501_flood(300);
    log.push_str("src/core.py:212:5: F821 undefined name 'term_lenght'\n");
    let s = classify(&log);
    assert!(!s[0].diagnostic());
    assert!(s[1..].iter().all(|s| s.diagnostic()), "every finding read");
    // One rule for the flood, another for the one that differs.
    assert!(s[1..301].iter().all(|d| d.template == s[1].template));
    assert_ne!(s[301].template, s[1].template);
}

#[test]
fn a_flood_is_read_once_a_shape_and_codes_that_differ_in_digits_stay_apart() {
    let mut log = e501_flood(3000);
    // The same words under codes that differ in a digit: two rules.
    log.push_str("src/core.py:212:5: F821 name never bound\nsrc/core.py:213:5: F841 name never bound\n");
    let t = utf16(&log);
    let s = starts(&t);
    let signals = Signals::of_text(TextLines { text: &t, starts: &s });
    let got: Vec<LineSignal> = (0..s.len()).map(|k| signals.get(k)).collect();
    assert!(got[1..].iter().all(|d| d.diagnostic()), "every finding read");
    assert!(got[1..3001].iter().all(|d| d.template == got[1].template));
    assert_ne!(got[3001].template, got[1].template);
    assert_ne!(got[3002].template, got[3001].template, "F821 and F841 are two rules");
    // Lines equal but for their numbers are read as the one before them.
    assert!(signals.cost.read_as_findings <= 30, "{} lines read", signals.cost.read_as_findings);
}

proptest::proptest! {
    /// A finding like the one before it joins that one's entry (a run),
    /// and the records are what one entry a line gives: every line's
    /// signal and the file headers, whatever mix of located, bare and
    /// unlocated findings, location lines, headers and other lines.
    #[test]
    fn runs_of_findings_give_the_records_one_entry_a_line_gives(
        picks in proptest::collection::vec((0usize..11, 0u32..40), 1..160),
    ) {
        let mut log = String::from("lint run\n");
        for (shape, n) in picks {
            log.push_str(&match shape {
                0 | 1 => format!("src/m{}.py:{}:80: E501 line too long ({} > 79 characters)\n", n % 3, n, 80 + n),
                2 => format!("src/m.py:{n}:5: F821 undefined name 'x{}'\n", n % 2),
                3 => format!("F821 Undefined name `x{n}`\n"),
                4 => format!("  --> src/m.py:{n}:5\n"),
                5 => format!("src/m{}.js\n", n % 2),
                6 => format!("  {n}:9  error  'x' is not defined  no-undef\n"),
                7 => "\n".to_string(),
                // One code, flagged (a failure word) and not.
                8 => format!("src/m.py:{n}:1: E999 SyntaxError: invalid syntax\n"),
                9 => format!("src/m.py:{n}:1: E999 line read\n"),
                _ => format!("checked {n} files\n"),
            });
        }
        let t = utf16(&log);
        let s = starts(&t);
        let read = |off: bool| {
            scan::RUNS_OFF.with(|o| o.set(off));
            let signals = Signals::of_text(TextLines { text: &t, starts: &s });
            scan::RUNS_OFF.with(|o| o.set(false));
            let got: Vec<LineSignal> = (0..s.len()).map(|k| signals.get(k)).collect();
            (got, signals.file_headers, signals.cost.flagged)
        };
        proptest::prop_assert_eq!(read(false), read(true));
    }

    /// The galloping lookup answers as a search of all records does, in
    /// any order of queries (the hint moves forward, back, and far).
    #[test]
    fn position_gallops_to_the_answer_a_search_gives(
        mut lines in proptest::collection::vec(0u32..2000, 0..300),
        queries in proptest::collection::vec(0usize..2100, 1..200),
    ) {
        lines.sort_unstable();
        lines.dedup();
        let signals = Signals { signals: vec![LineSignal::default(); lines.len()], lines: lines.clone(), ..Signals::default() };
        for k in queries {
            proptest::prop_assert_eq!(signals.position(k), lines.partition_point(|&l| (l as usize) < k), "query {}", k);
        }
    }
}

#[test]
fn a_rust_closure_under_the_function_it_called_is_no_project_frame() {
    let log = "thread 'slice' panicked at src/bytes.rs:396:9:\nrange end out of bounds\nstack backtrace:\n   0: core::panicking::panic_fmt\n             at /rustc/x/library/core/src/panicking.rs:80:14\n   1: bytes::Bytes::slice\n             at ./src/bytes.rs:396:9\n   2: test_bytes::slice\n             at ./tests/test_bytes.rs:136:15\n   3: test_bytes::slice::{{closure}}\n             at ./tests/test_bytes.rs:124:11\n   4: bytes::parse::{{closure}}\n             at ./src/parse.rs:9:1\n   5: core::ops::function::FnOnce::call_once\n             at /rustc/x/library/core/src/ops/function.rs:250:5\n";
    let s = classify(log);
    assert_eq!(s[7].frame, Frame::Project, "the test's own frame");
    assert!(s[9].frame_head() && s[9].frame == Frame::Library, "its harness closure");
    // A closure of another function is the project's.
    assert_eq!(s[11].frame, Frame::Project);
}

#[test]
fn a_go_frame_is_its_function_and_path_and_the_panics_origin_is_a_key_frame() {
    let log = "--- FAIL: Test (0.00s)\npanic: runtime error: slice bounds out of range [:-1] [recovered]\n\npanic: tabwriter: panic during Flush\n\ngoroutine 18 [running]:\ntesting.tRunner.func1()\n\t/usr/lib/go-1.19/src/testing/testing.go:1399 +0x39f\npanic({0x507440, 0xc0000a0540})\n\t/usr/lib/go-1.19/src/runtime/panic.go:884 +0x212\nexample.com/kit/tw.(*Writer).handlePanic(0x4f54a5?)\n\t/src/kit/tw/tabwriter.go:479 +0x108\npanic({0x51d220, 0xc0000de888})\n\t/usr/lib/go-1.19/src/runtime/panic.go:884 +0x212\nexample.com/kit/tw.(*Writer).writeN(0xc0000f7660?)\n\t/src/kit/tw/tabwriter.go:265 +0x7a\nexample.com/kit/tw.(*Writer).format(0xc0000fc210)\n\t/src/kit/tw/tabwriter.go:399 +0x16e\nexample.com/kit/tw_test.Test(0x0?)\n\t/src/kit/tw/tabwriter_test.go:615 +0x113\ntesting.tRunner(0xc0000829c0, 0x534de0)\n\t/usr/lib/go-1.19/src/testing/testing.go:1446 +0x10b\n";
    let t = utf16(log);
    let s = starts(&t);
    let signals = Signals::of_text(TextLines { text: &t, starts: &s });
    // Each path line belongs to the function above it.
    for k in [7, 9, 11, 13, 15] {
        assert!(!signals.get(k).frame_head() && signals.get(k - 1).frame_head(), "line {k}");
    }
    // The frame under the last runtime `panic(…)` raised it; it is a key frame.
    assert!(signals.get(14).raised() && signals.get(10).raised() && !signals.get(16).raised());
    let trace = signals.traces().holding(14).expect("a trace");
    let key = signals.traces().key_frames(&signals, trace);
    assert!(key.contains(&14) && key.contains(&15), "{key:?}");
}

#[test]
fn a_line_redrawn_by_carriage_returns_reads_as_its_last_frame() {
    let mut out = String::new();
    let bar = "\u{1b}[1m\u{1b}[96m    Building\u{1b}[0m [======>  ] 97/98: app(bin)   \r\u{1b}[K\u{1b}[1m\u{1b}[91merror[E0308]\u{1b}[0m: mismatched types\n";
    view(&utf16(bar), &mut out);
    assert_eq!(out, "error[E0308]: mismatched types");
    // So the error that replaced a progress bar is a failure, and a failure
    // word in an overwritten frame is none.
    assert_eq!(failures(bar), [Failure::Strong]);
    assert_eq!(failures("error: retrying 1/3\rdownloaded 12 MB in 3s\n"), [Failure::None]);
    // A closing `\r`, or a Windows line ending, is no new frame.
    view(&utf16("error: x\r\n"), &mut out);
    assert_eq!(out, "error: x");
    view(&utf16("50%\rerror: disk full\r"), &mut out);
    assert_eq!(out, "error: disk full");
}

#[test]
fn a_valgrind_line_glued_to_an_unfinished_line_is_read_as_valgrinds() {
    let glued = "ok 1==6649== Invalid read of size 8";
    assert_eq!(failures(glued), [Failure::Strong]);
    assert!(!classify(glued)[0].pass());
    let mid_name = "ok 528 - lookup x11-==24258== Conditional jump or move depends on uninitialised value(s)";
    assert_eq!(failures(mid_name), [Failure::Strong]);
    // Marks with no process number, and `--N--` (an option's shape too), are no tag.
    assert_eq!(failures("ok 3 - a==b== Invalid read of size 8"), [Failure::None]);
    assert_eq!(failures("ok 4 - run --12-- Invalid read of size 8"), [Failure::None]);
}

#[test]
fn a_ubsan_report_glued_to_an_unfinished_line_is_read_as_ubsans() {
    let glued = "ok 320 - unzigzag(429496test_varint.c:55:29: runtime error: shift exponent 35 is too large";
    assert_eq!(failures(glued), [Failure::Strong]);
    assert!(!classify(glued)[0].pass());
    // Without the line and column before it, the words are a test's name.
    assert_eq!(failures("ok 5 - names a runtime error: in its message"), [Failure::None]);
    assert_eq!(failures("ok 6 - parse(x:55: runtime error: y)"), [Failure::None]);
}
