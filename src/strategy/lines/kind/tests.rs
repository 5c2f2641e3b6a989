use super::*;
use crate::text::utf16;

pub(crate) fn kind(text: &str) -> Kind {
    let t = utf16(text);
    let starts: Vec<u32> = crate::text::split_lines(&t).iter().map(|r| r.start as u32).collect();
    let lines = TextLines { text: &t, starts: &starts };
    match shape(lines) {
        Shape::Is(k) => k,
        Shape::CodeUnlessItReports { source } => code_or_log(&Signals::of_text(lines), lines, 0, source),
    }
}

#[test]
fn a_yaml_schema_with_fields_named_for_failures_is_code_and_a_verdict_list_a_log() {
    let mut schema = String::from("# The schema of a command.\ntitle: command\ndefinitions:\n");
    for i in 0..30 {
        schema.push_str(&format!(
            "  field_{i}:\n    type: object\n    properties:\n      error: {{type: string}}\n      warning:\n        type: string\n"
        ));
    }
    schema.push_str("required: [title]\n");
    assert_eq!(kind(&schema), Kind::Code);
    // Lines that read as keys but report: a log.
    let verdicts: String =
        (0..60).map(|i| format!("{}: test_{i}\n", if i % 7 == 3 { "FAIL" } else { "PASS" })).collect();
    assert_eq!(kind(&verdicts), Kind::Log);
    let errors: String = (0..60).map(|i| format!("error: step {i} failed to resolve\nhint: retry\n")).collect();
    assert_eq!(kind(&errors), Kind::Log);
}

#[test]
fn failure_words_in_code_statements_do_not_make_source_a_log() {
    let mut js = String::from("import { spawn } from 'node:child_process'\n\n");
    for i in 0..40 {
        js.push_str(&format!(
            "/** Runs step {i}. */\nexport async function step{i}(args) {{\n  const out = await run('step{i}', args)\n  if (out.code !== 0) {{\n    throw new Error(`Build failed at step {i}: ${{out.stderr}}`)\n  }}\n  return out.stdout\n}}\n\n"
        ));
    }
    js.push_str("function run(name, args) {\n  return new Promise((resolve, reject) => {\n    const p = spawn(name, args)\n    p.on('error', (e) => reject(new Error(`error: could not start ${name}`)))\n  })\n}\n");
    assert_eq!(kind(&js), Kind::Code);
    // A runner's log that quotes the code it ran is still a log: its own
    // failure lines are not statements.
    let mut log = String::from("FAIL src/steps.test.js\n");
    for i in 0..60 {
        log.push_str(&format!("    export function step{i}(args) {{\n      return run('step{i}', args);\n    }}\n"));
    }
    log.push_str("Tests: 1 failed, 59 passed, 60 total\n");
    assert_eq!(kind(&log), Kind::Log);
}

#[test]
fn numbered_source_is_code() {
    // `cat -n`, as an agent reads a file, and an agent's own file reader
    // (`→` for the tab): the numbers hide neither the code nor its shape.
    let mut py = String::from("import os\n\n");
    for i in 0..40 {
        py.push_str(&format!(
            "def step_{i}(args):\n    \"\"\"Run step {i}.\"\"\"\n    if not args:\n        raise ValueError('no args')\n    return os.path.join(*args)\n\n"
        ));
    }
    for tab in ["\t", "\u{2192}"] {
        let numbered: String = py.lines().enumerate().map(|(i, l)| format!("{:>6}{tab}{l}\n", i + 1)).collect();
        assert_eq!(kind(&numbered), Kind::Code, "{tab:?}");
    }
}

#[test]
fn a_commit_log_without_patches_is_outlined_as_commits() {
    let log: String = (0..30)
        .map(|i| {
            format!(
                "commit {:040x}\nAuthor: A U Thor <a@example.com>\nDate:   Tue Dec 1 15:{i:02}:00 2026 +0000\n\n    Change {i}: make the thing better\n\n src/lib.rs   | 12 ++++++------\n src/main.rs  |  3 ++-\n 2 files changed, 8 insertions(+), 7 deletions(-)\n\n",
                i + 1
            )
        })
        .collect();
    assert_eq!(kind(&log), Kind::Diff);
    let t = utf16(&log);
    let starts: Vec<u32> = crate::text::split_lines(&t).iter().map(|r| r.start as u32).collect();
    let (tiers, _) = super::super::outline::tiers(Kind::Diff, TextLines { text: &t, starts: &starts });
    // The commit and its subject first, then each commit's diffstat summary.
    assert_eq!(&tiers[0][..2], [0, 4]);
    assert_eq!(tiers[1][0], 8);
    // A CI log that prints one commit is still a log.
    let ci = format!("commit {:040x}\nAuthor: CI <ci@example.com>\n{}", 7, "step ok\n".repeat(200));
    assert_eq!(kind(&ci), Kind::Log);
}

#[test]
fn kinds_are_told_apart() {
    let rust = "use std::fmt;\n\n/// A point.\npub struct Point {\n    x: i32,\n}\n\nimpl Point {\n    pub fn new() -> Self {\n        Point { x: 0 }\n    }\n}\n";
    assert_eq!(kind(rust), Kind::Code);
    let diff = "diff --git a/x.rs b/x.rs\nindex 1..2 100644\n--- a/x.rs\n+++ b/x.rs\n@@ -1,3 +1,3 @@\n fn a() {}\n-fn b() {}\n+fn c() {}\n";
    assert_eq!(kind(diff), Kind::Diff);
    let search = "src/a.py:3:import re\nsrc/a.py:9:x = re.compile('a')\nsrc/b.py:1:import re\n";
    assert_eq!(kind(search), Kind::Search);
    assert_eq!(kind("{\n  \"a\": 1,\n  \"b\": [\n    2\n  ]\n}\n"), Kind::Json);
    assert_eq!(
        kind("total 8\ndrwxr-xr-x 2 root root 4096 Jan 1 00:00 .\n-rw-r--r-- 1 root root 10 Jan 1 00:00 a.txt\n"),
        Kind::Listing
    );
    let log = "running 3 tests\ntest a ... ok\ntest b ... FAILED\nerror: test failed\n";
    assert_eq!(kind(log), Kind::Log);
    // A linter's diagnostics look like search hits, but are a log.
    assert_eq!(
        kind(
            "src/a.py:3:1: F401 'os' imported but unused\nsrc/a.py:9:80: E501 line too long\nsrc/b.py:1:1: F821 undefined name 'x'\n"
        ),
        Kind::Log
    );
    // Times are not line numbers.
    assert_eq!(
        kind(
            "2026-11-30 13:29:57,366 INFO etl: row 1\n2026-11-30 13:29:58,001 INFO etl: row 2\n2026-11-30 13:29:59,500 INFO etl: row 3\n"
        ),
        Kind::Log
    );
    // A compiler's output quotes code, but is a log.
    let rustc = "error[E0502]: cannot borrow `x`\n  --> src/main.rs:4:5\n   |\n 4 |     let y = &mut x;\n   |             ------ mutable borrow\n 5 |     println!(\"{}\", x);\n   |                    ^ immutable borrow\n";
    assert_eq!(kind(rustc), Kind::Log);
}

#[test]
fn a_text_with_a_verdict_is_never_a_yaml_or_markdown_document() {
    // A YAML-shaped report (a CI tool's key: value lines) with one verdict
    // among hundreds of lines: one failure in 300 would not make it a log.
    let mut yaml = String::from("# results\nrun: nightly\n");
    for i in 0..400 {
        yaml.push_str(&format!("case_{i}:\n  status: passed\n"));
    }
    yaml.push_str("FAILED tests/test_parser.py::test_dates - AssertionError: assert 3 == 4\n");
    assert_eq!(kind(&yaml), Kind::Log);
    let mut markdown = String::from("# Build report\n\n## Steps\n\n");
    for i in 0..300 {
        markdown.push_str(&format!("## Step {i}\n\nAll good.\n\n"));
    }
    markdown.push_str("error: could not compile `app` (lib) due to 2 previous errors\n");
    assert_eq!(kind(&markdown), Kind::Log);
    // A document whose prose names a failure, not at a line's start, stays one.
    let mut doc = String::from("# Guide\n\n");
    for i in 0..300 {
        doc.push_str(&format!("## Section {i}\n\nSome text.\n\n"));
    }
    doc.push_str("When it stops, the tool prints error: and the reason.\n");
    assert_eq!(kind(&doc), Kind::Code);
}

#[test]
fn a_script_echoed_then_stopped_by_an_error_is_a_log() {
    let script = |error_at: Option<usize>| {
        let mut sql = String::from(
            "CREATE TABLE zones (name TEXT PRIMARY KEY, coords TEXT);\nCREATE TABLE links (zone TEXT, code TEXT);\nBEGIN;\n",
        );
        for i in 0..400 {
            if error_at == Some(i) {
                sql.push_str("SELECT count(*) FROM zonesParse error near line 49: near \"Ivoire\": syntax error\n");
                sql.push_str(
                    "  INSERT INTO countries VALUES ('CI', 'C d'Ivoire');\n                   error here ---^\n",
                );
            }
            sql.push_str(&format!("INSERT INTO zones VALUES ('Zone/{i}', '+{i:04}');\n"));
        }
        sql
    };
    assert_eq!(kind(&script(None)), Kind::Code);
    // The error that ended the run is among the last lines.
    assert_eq!(kind(&script(Some(398))), Kind::Log);
    // One failure line inside a long text is not how it ended.
    assert_eq!(kind(&script(Some(200))), Kind::Code);
}

#[test]
fn rows_sorted_by_size_are_a_listing_and_a_tree_walk_of_sizes_a_log() {
    let rows: Vec<(u32, String)> =
        (0..300).map(|i| ((i * 7919) % 3001, format!("./pkg/mod_{}/file_{i}.js", i % 9))).collect();
    let mut sorted = rows.clone();
    sorted.sort();
    let du = |rows: &[(u32, String)]| rows.iter().map(|(s, p)| format!("{s}K\t{p}\n")).collect::<String>();
    assert_eq!(kind(&du(&sorted)), Kind::Listing);
    // `sort -rh`: largest first.
    sorted.reverse();
    assert_eq!(kind(&du(&sorted)), Kind::Listing);
    // The rows in the order a walk prints them (`du -a`, `find -printf '%s %p'`).
    assert_eq!(kind(&du(&rows)), Kind::Log);
    // Numbered lines of one word count up, and are no listing.
    let numbered: String =
        (0..300).map(|i| format!("{i} 漢字仮名交じり文错误失败测试{}\n", "日".repeat(i % 7))).collect();
    assert_eq!(kind(&numbered), Kind::Log);
}
