//! Lines mode on lists of findings and floods of one failure: the finding
//! that differs, the floods named next to it, the source a finding quotes,
//! a repeated error at another place.

use super::super::*;
use super::{budgets, out, pruned_as};
use crate::text::utf16;

/// A linter's flood of one rule with one finding of another in it, in the
/// shapes flake8, mypy, ESLint (bare `line:column` under a file header),
/// rustc (the location on the next line) and go vet (no severity, no
/// rule: a message after `path:L:C: `, the odd one in a file of the
/// flood) print.
fn flood_with_one_that_differs(shape: usize) -> (String, &'static str, Option<&'static str>) {
    let mut log = String::from("$ lint src\n");
    let (odd, near): (&str, Option<&str>) = match shape {
        0 => ("src/core.py:212:5: F821 undefined name 'term_lenght'", None),
        1 => ("src/core.py:212: error: Argument 1 to \"run\" has incompatible type \"str\"  [arg-type]", None),
        2 => ("  212:5  error  'helpWith' is not defined  no-undef", Some("/app/src/core.js")),
        4 => ("pkg/m13.go:467:2: unreachable code", None),
        _ => ("error[E0425]: cannot find value `term_lenght` in this scope", Some("  --> src/core.rs:212:5")),
    };
    for i in 0..600 {
        if i == 333 {
            if shape == 2 {
                log.push_str(&format!("{}\n", near.unwrap()));
            }
            log.push_str(&format!("{odd}\n"));
            if shape == 3 {
                log.push_str(&format!("{}\n", near.unwrap()));
            }
        }
        match shape {
            0 => log.push_str(&format!(
                "src/pkg/m{}.py:{}:80: E501 line too long ({} > 79 characters)\n",
                i % 40,
                i + 9,
                80 + i % 30
            )),
            1 => log.push_str(&format!(
                "src/pkg/m{}.py:{}: error: Function is missing a type annotation  [no-untyped-def]\n",
                i % 40,
                i + 9
            )),
            4 => log.push_str(&format!(
                "pkg/m{}.go:{}:9: fmt.Sprintf format %d has arg it.Pull of wrong type string\n",
                i / 15,
                i + 9
            )),
            2 => {
                if i % 20 == 0 {
                    log.push_str(&format!("/app/src/m{i}.js\n"));
                }
                log.push_str(&format!("  {}:{}  warning  Strings must use doublequote  quotes\n", i + 9, i % 30 + 1))
            }
            _ => log.push_str(&format!("warning: unused variable: `v{i}`\n  --> src/m{}.rs:{}:9\n", i % 40, i + 9)),
        }
    }
    log.push_str("Found 601 problems\n");
    (log, odd, near)
}

#[test]
fn the_one_finding_that_differs_from_a_flood_is_kept_where_it_is() {
    for shape in 0..5 {
        let (log, odd, near) = flood_with_one_that_differs(shape);
        let text = utf16(&log);
        let blocks = [Block::Text(&text)];
        for budget in [1024, 2048, 4096] {
            let p = prune(&blocks, &budgets(budget), &LineOptions::default()).unwrap();
            let o = out(&blocks, &p);
            assert!(o.lines().any(|l| l == odd), "shape {shape}, budget {budget}: {odd} missing from\n{o}");
            if let Some(near) = near {
                assert!(o.lines().any(|l| l == near), "shape {shape}, budget {budget}: {near} missing from\n{o}");
            }
        }
    }
}

#[test]
fn the_floods_that_make_up_a_list_of_findings_are_named_with_the_rare_ones() {
    // Forty rules seen once each, then two floods of style findings.
    let mut log = String::from("$ flake8 src\n");
    for i in 0..40 {
        log.push_str(&format!("src/pkg/odd{i}.py:{}:1: W6{i:02} a rule seen once\n", i + 3));
    }
    for i in 0..500 {
        let (code, what) =
            if i % 5 < 3 { ("E501", "line too long (88 > 79 characters)") } else { ("W291", "trailing whitespace") };
        log.push_str(&format!("src/pkg/m{}.py:{}:80: {code} {what}\n", i % 40, i + 9));
    }
    log.push_str("540 problems\n");
    let text = utf16(&log);
    let blocks = [Block::Text(&text)];
    for budget in [2048, 4096] {
        let o = out(&blocks, &prune(&blocks, &budgets(budget), &LineOptions::default()).unwrap());
        for first in ["src/pkg/m0.py:9:80: E501", "src/pkg/m3.py:12:80: W291", "W600 a rule seen once"] {
            assert!(o.contains(first), "budget {budget}: {first} missing from\n{o}");
        }
    }
}

#[test]
fn a_repeated_error_at_another_place_is_kept_before_more_at_a_place_shown() {
    // A sanitizer's reports: one error message, at three source lines, each
    // report with its frames; most at the first place.
    let mut log = String::from("checking 90 files\n");
    for i in 0..90 {
        let line = match i {
            37 => 373,
            71 => 376,
            _ => 372,
        };
        log.push_str(&format!("src/lz4.c:{line}:52: runtime error: load of misaligned address 0x5574{i:04x}\n"));
        for f in 0..6 {
            log.push_str(&format!("    #{f} 0x55{i:02}{f:02} in frame_{f} src/lz4.c:{}\n", 700 + f));
        }
        log.push_str(&format!("file_{i}.txt ok\n"));
    }
    log.push_str("90 files, 0 mismatches\n");
    let text = utf16(&log);
    let blocks = [Block::Text(&text)];
    let o = out(&blocks, &prune(&blocks, &budgets(4096), &LineOptions::default()).unwrap());
    for place in
        ["src/lz4.c:372:52: runtime error", "src/lz4.c:373:52: runtime error", "src/lz4.c:376:52: runtime error"]
    {
        assert!(o.contains(place), "{place} missing from\n{o}");
    }
}

#[test]
fn a_linters_findings_that_quote_source_are_a_log_and_the_first_of_a_rule_keeps_its_quote() {
    // flake8 --show-source: each finding, the line it is on, a caret.
    let mut log = String::new();
    for i in 0..200 {
        if i == 120 {
            log.push_str("pkg/blocks.py:426:34: F632 use ==/!= to compare constant literals\n");
            log.push_str("                if not items and self.TAG is 'ol':\n                                 ^\n");
        }
        log.push_str(&format!(
            "pkg/m{}.py:{}:80: E501 line too long ({} > 79 characters)\n",
            i % 9,
            i + 3,
            80 + i % 20
        ));
        log.push_str(&format!("    def handle_{i}(self, m: re.Match[str], data: str) -> tuple[int, int]:\n"));
        log.push_str("                                                                               ^\n");
    }
    log.push_str("200   E501 line too long (96 > 79 characters)\n1     F632 use ==/!= to compare constant literals\n");
    let text = utf16(&log);
    let blocks = [Block::Text(&text)];
    assert_eq!(kinds(&blocks), vec![Kind::Log]);
    let o = out(&blocks, &prune(&blocks, &budgets(4096), &LineOptions::default()).unwrap());
    for line in ["pkg/blocks.py:426:34: F632", "if not items and self.TAG is 'ol':"] {
        assert!(o.contains(line), "{line} missing from\n{o}");
    }
}

#[test]
fn a_flood_naming_a_new_place_a_line_is_spread_not_kept_in_order() {
    // A sanitizer's reports of one error, each at a new place, with a frame
    // and the program's output between them: repeats of one template.
    let mut log = String::from("checking 300 files\n");
    for i in 0..300 {
        log.push_str(&format!("src/x.c:{}:5: runtime error: load of misaligned address 0x{i:04x}\n", i + 10));
        log.push_str(&format!("    #0 0x55{i:04x} in read_{i} src/x.c:{}\nfile_{i}.txt ok\n", i + 10));
    }
    log.push_str("300 files, 0 mismatches\n");
    let o = pruned_as(&log, Kind::Log, 4096);
    // Kept reports come from the whole run (its middle too), not its first
    // lines and its end alone.
    let middle = (120..240).filter(|i| o.contains(&format!("src/x.c:{}:5:", i + 10))).count();
    assert!(middle > 0, "no report from the run's middle in\n{o}");
}

#[test]
fn a_flood_file_by_file_keeps_each_files_first_finding_before_more_of_one() {
    // A type checker's one error, file by file: each file's run opens with
    // its first finding, and an odd length a file keeps the openings off
    // any even spacing.
    let mut log = String::new();
    let mut openings = Vec::new();
    for f in 0..40 {
        for j in 0..3 + f % 5 {
            let line = format!(
                "src/features/Feature{f}.ts({},3): error TS1484: 'Type{j}' is a type and must be imported using a type-only import.\n",
                j + 2
            );
            if j == 0 {
                openings.push(line.trim_end().to_owned());
            }
            log.push_str(&line);
        }
    }
    log.push_str("Found 200 errors in 40 files.\n");
    let text = utf16(&log);
    let blocks = [Block::Text(&text)];
    assert_eq!(kinds(&blocks), vec![Kind::Log]);
    // Room for a little over half the lines.
    let o = out(
        &blocks,
        &prune(&blocks, &budgets((log.chars().count() * 6 / 10) as u64), &LineOptions::default()).unwrap(),
    );
    let missing: Vec<&String> = openings.iter().filter(|l| !o.contains(l.as_str())).collect();
    assert!(missing.is_empty(), "openings missing: {missing:?} in\n{o}");
}

/// A CI job's log as downloaded, every line stamped: `setup` lines of
/// set-up, then the step running `command`, printing `output`.
fn job_log(setup: impl Fn(usize) -> String, lines: usize, command: &str, output: &str) -> String {
    let mut log: String = (0..lines).map(|i| setup(i) + "\n").collect();
    log.push_str(&format!("##[group]Run {command}\n{command}\n##[endgroup]\n{output}"));
    log.lines().map(|l| format!("2026-12-01T10:11:16.8071163Z {l}\n")).collect()
}

#[test]
fn a_compilers_warnings_wait_for_the_failures_of_a_log_that_fails_of_its_own() {
    // A CI job building with ten warnings of distinct lints, each
    // quoting its source, then a test that fails.
    let mut log = String::new();
    let lints = ["variable", "import", "function", "constant", "struct", "field", "method", "enum", "macro", "label"];
    for (i, lint) in lints.iter().enumerate() {
        log.push_str(&format!("warning: {lint} is never used: `value_{i}`\n  --> src/lib_{i}.rs:{}:9\n   |\n", i + 40));
        for j in 0..6 {
            log.push_str(&format!("{:>2} |         let value_{i} = compute_something_long({j});\n", i + 40 + j));
        }
        log.push_str("   = note: `#[warn(unused_variables)]` on by default\n\n");
    }
    log.push_str("warning: `vecs` (lib) generated 10 warnings\n    Finished test profile\nrunning 64 tests\n");
    for i in 0..63 {
        log.push_str(&format!("test tests::test_case_{i} ... ok\n"));
    }
    log.push_str("test tests::test_dedup ... FAILED\n\nfailures:\n\n---- tests::test_dedup stdout ----\n");
    log.push_str("thread 'tests::test_dedup' panicked at src/tests.rs:954:5:\nassertion `left == right` failed\n");
    log.push_str("  left: [1, 1, 2]\n right: [1, 2]\n\nfailures:\n    tests::test_dedup\n\n");
    log.push_str("test result: FAILED. 63 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n");
    log.push_str("error: test failed, to rerun pass `--lib`\n##[error]Process completed with exit code 101.\n");
    let log = job_log(|i| format!("Included software: tool-{i} version {i}.0.{i}"), 40, "cargo test --verbose", &log);
    let text = utf16(&log);
    let blocks = [Block::Text(&text)];
    assert_eq!(kinds(&blocks), vec![Kind::Log]);
    for budget in [1536, 2048, 3072] {
        let o = out(&blocks, &prune(&blocks, &budgets(budget), &LineOptions::default()).unwrap());
        for want in ["test tests::test_dedup ... FAILED", "panicked at src/tests.rs:954:5:", "##[group]Run cargo test"]
        {
            assert!(o.contains(want), "{want} missing at {budget} in\n{o}");
        }
    }
}

#[test]
fn a_job_logs_findings_that_quote_their_source_keep_each_rules_first() {
    // A lint step after a long install: ruff's full format, each finding
    // with its location and a dozen gutter lines of source; one of a rule
    // among many of another.
    let mut log = String::new();
    for i in 0..40 {
        let rule = if i == 23 {
            "DTZ002 `datetime.datetime.today()` used"
        } else {
            "UP031 Use format specifiers instead of percent format"
        };
        log.push_str(&format!("{rule}\n  --> parse/m{i}.py:{}:9\n   |\n", i + 7));
        for j in 0..12 {
            log.push_str(&format!("{:>2} |     text = 'value %s of %s' % (first_{j}, second_{j})\n", i + j + 1));
        }
        log.push_str("   |            ^^^^^^^^^^^^^^^^^^\nhelp: Replace with format specifiers\n\n");
    }
    log.push_str("Found 40 errors.\n##[error]Process completed with exit code 1.\n");
    let install = |i| format!("Requirement already satisfied: package-{i} in ./venv/lib/python3.11/site-packages");
    let log = job_log(install, 150, "ruff check parse", &log);
    let text = utf16(&log);
    let blocks = [Block::Text(&text)];
    let o = out(&blocks, &prune(&blocks, &budgets(4096), &LineOptions::default()).unwrap());
    for want in ["DTZ002 `datetime.datetime.today()` used", "UP031 Use format specifiers", "Found 40 errors."] {
        assert!(o.contains(want), "{want} missing in\n{o}");
    }
}

#[test]
fn a_valgrind_report_under_its_process_tag_keeps_its_error_and_frames() {
    // A harness under Valgrind: every line of Valgrind's own tagged with
    // `==PID==`, one error report among hundreds of passing rounds.
    let mut log =
        String::from("==4242== Memcheck, a memory error detector\n==4242== Command: ./harness 300\n==4242== \n");
    for i in 0..400 {
        if i == 150 {
            log.push_str(concat!(
                "==4242== Invalid read of size 8\n",
                "==4242==    at 0x1095EF: kv_del (kv.c:77)\n",
                "==4242==    by 0x109BD5: test_delete (harness.c:26)\n",
                "==4242==    by 0x109FC1: main (harness.c:70)\n",
                "==4242==  Address 0x4a42380 is 0 bytes inside a block of size 24 free'd\n",
                "==4242==    at 0x484417B: free (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)\n",
                "==4242==    by 0x1092FD: entry_free (kv.c:25)\n",
                "==4242== \n",
            ));
        }
        log.push_str(&format!("ok {i} - round {i}: {} keys in 4096 buckets, {} checks\n", 26 * i, 71 * i));
    }
    log.push_str("==4242== \n==4242== ERROR SUMMARY: 400 errors from 1 contexts (suppressed: 0 from 0)\n");
    let text = utf16(&log);
    let blocks = [Block::Text(&text)];
    for budget in [2048, 4096] {
        let o = out(&blocks, &prune(&blocks, &budgets(budget), &LineOptions::default()).unwrap());
        for line in ["Invalid read of size 8", "at 0x1095EF: kv_del (kv.c:77)", "ERROR SUMMARY: 400 errors"] {
            assert!(o.contains(line), "budget {budget}: {line} missing from\n{o}");
        }
    }
}

#[test]
fn a_runners_json_report_after_its_log_keeps_what_failed() {
    // `jest --json | python3 -m json.tool`: the runner's own report on
    // stderr first, then its JSON report, one failed test deep in it.
    let mut log = String::from(
        "FAIL test/parse.test.js\n  \u{25CF} parser \u{203A} parses case 137\n\n    Expected: 4\n    Received: 5\n\n",
    );
    log.push_str("Tests:       1 failed, 399 passed, 400 total\n{\n    \"numFailedTests\": 1,\n    \"testResults\": [\n        {\n            \"assertionResults\": [\n");
    for i in 0..400 {
        let failed = i == 137;
        log.push_str(&format!(
            "                {{\n                    \"duration\": 3,\n                    \"failureMessages\": {},\n                    \"fullName\": \"parser parses case {i}\",\n                    \"status\": \"{}\"\n                }}{}\n",
            if failed { "[\n                        \"Error: expect(received).toBe(expected) at /app/test/parse.test.js:177:19\"\n                    ]" } else { "[]" },
            if failed { "failed" } else { "passed" },
            if i < 399 { "," } else { "" }
        ));
    }
    log.push_str("            ]\n        }\n    ]\n}\n");
    let o = pruned_as(&log, Kind::Log, 4096);
    for line in ["\"fullName\": \"parser parses case 137\"", "/app/test/parse.test.js:177:19", "\"status\": \"failed\""]
    {
        assert!(o.contains(line), "{line} missing from\n{o}");
    }
}

#[test]
fn a_log_with_an_empty_text_after_it_is_planned() {
    // The JSON report reading walks each log text's lines: an empty text
    // (no lines of its own) after a log has none to walk.
    let log: String = (0..300).map(|i| format!("step {i} ok\n")).collect::<String>() + "error: build failed\n";
    let (text, empty) = (utf16(&log), utf16(""));
    let blocks = [Block::Text(&text), Block::Text(&empty)];
    let o = out(&blocks, &prune(&blocks, &budgets(1024), &LineOptions::default()).unwrap());
    assert!(o.contains("error: build failed"), "{o}");
}

#[test]
fn a_report_of_failure_lines_keeps_its_opening_message_before_its_usage_text() {
    // npm's report: its code, its message, then the command's usage, every
    // line `npm error`; the middle of the usage repeats one shape, so the
    // report's distinct lines are far apart but one unbroken run.
    let mut log: String = (0..16).map(|i| format!("Included software: tool-{i} version {i}.0.{i}\n")).collect();
    log.push_str("npm http fetch GET 404 https://registry.npmjs.org/left-pad 138ms\nnpm error code EUSAGE\n");
    log.push_str(
        "npm error\nnpm error `npm ci` can only install packages when package.json and the lock file are in sync.\n",
    );
    log.push_str(
        "npm error\nnpm error Missing: left-pad@1.3.0 from lock file\nnpm error\nnpm error Clean install a project\n",
    );
    for i in 0..40 {
        log.push_str(&format!("npm error [--option-{i} <all|none|root>]\n"));
    }
    let usage = [
        "Comma-separated list of packages whose install-time lifecycle scripts may run",
        "If true, turn the install-script policy from a warning into a hard stop",
        "If true, bypass the allowScripts policy entirely and run every script",
        "When true submit audit reports alongside the current npm command",
        "Tells npm to create symlinks for package executables",
        "When true displays the message at the end of each install",
        "When set file protocol dependencies will be packed and installed as tarballs",
        "Whether to ignore the engines field of every package in the tree",
        "Run all build scripts in the foreground, one at a time",
        "Save installed packages to a package.json file as dependencies",
    ];
    for (i, line) in usage.iter().enumerate() {
        log.push_str(&format!("npm error --flag-{i}\nnpm error   Default: {}\nnpm error     {line}\n", i % 2 == 0));
    }
    log.push_str("npm error aliases: clean-install, ic\nnpm error Run \"npm help ci\" for more info\n");
    let log: String = log.lines().map(|l| format!("2026-11-30T12:40:04.1408660Z {l}\n")).collect();
    for budget in [1536, 2048] {
        let o = pruned_as(&log, Kind::Log, budget);
        for want in ["can only install packages", "Missing: left-pad@1.3.0 from lock file", "npm error code EUSAGE"] {
            assert!(o.contains(want), "{want} missing at {budget} in\n{o}");
        }
    }
}

#[test]
fn what_make_prints_right_after_its_last_error_stays_with_the_end() {
    // `make -j2`: two jobs' warnings interleaved, one job fails, make says
    // it waits for the other, which prints more warnings before it ends.
    let mut log = String::new();
    for i in 0..120 {
        let file = if i % 2 == 0 { "src/trie.c" } else { "src/url.c" };
        log.push_str(&format!("cc -O2 -Wall -Wextra -c {file} -o build/part{i}.o\n"));
        let rule = ["unused-variable", "unused-parameter", "sign-compare", "unused-function", "return-type"][i % 5];
        log.push_str(&format!("{file}:{}:12: warning: ‘tmp_{i}’ is flagged [-W{rule}]\n", i + 20));
        log.push_str(&format!("   {} |     int tmp_{i};\n      |         ^~~~~~\n", i + 20));
    }
    log.push_str("src/url.c:71:18: error: ‘const struct url_parts’ has no member named ‘port’\n");
    log.push_str("   71 |     return atoi(u->port);\n      |                  ^~\n");
    log.push_str("make: *** [Makefile:11: build/url.o] Error 1\nmake: *** Waiting for unfinished jobs....\n");
    log.push_str("src/trie.c: In function ‘trie_sum’:\n");
    log.push_str("src/trie.c:64:12: warning: ‘acc’ may be used uninitialized [-Wmaybe-uninitialized]\n");
    log.push_str("   64 |     return acc;\n      |            ^~~\n");
    log.push_str("src/trie.c:61:10: note: ‘acc’ was declared here\n   61 |     long acc;\n      |          ^~~\n");
    for budget in [2048, 4096, 8192] {
        let o = pruned_as(&log, Kind::Log, budget);
        for want in ["has no member named ‘port’", "build/url.o] Error 1", "Waiting for unfinished jobs"] {
            assert!(o.contains(want), "{want} missing at {budget} in\n{o}");
        }
    }
}
