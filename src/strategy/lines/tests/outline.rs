//! Lines mode's outlines: every kind's map kept first, and every guarantee
//! kept, on texts that are not logs (source, Markdown, diffs, listings,
//! JSON pretty and minified).

use super::super::*;
use super::{budgets, out, pruned_as};
use crate::text::utf16;

#[test]
fn outlines_keep_every_guarantee_and_put_the_map_first() {
    let code: String =
        (0..300).map(|i| format!("/// Does {i}.\npub fn f{i}(x: u32) -> u32 {{\n    x + {i}\n}}\n\n")).collect();
    let diff: String = (0..60)
        .map(|i| format!("diff --git a/f{i}.rs b/f{i}.rs\n--- a/f{i}.rs\n+++ b/f{i}.rs\n@@ -{i},3 +{i},3 @@\n fn a() {{}}\n-fn b{i}() {{}}\n+fn c{i}() {{}}\n"))
        .collect();
    let search: String = (0..400).map(|i| format!("src/m{}.rs:{}:    let x = y{i};\n", i / 7, i % 7 + 1)).collect();
    let json = format!(
        "{{\n{}  \"end\": 1\n}}\n",
        (0..300).map(|i| format!("  \"k{i}\": {{\n    \"v\": [\n      {i}\n    ]\n  }},\n")).collect::<String>()
    );
    // (text, its kind, entries in its map, the text of entry i)
    type Case = (String, Kind, usize, fn(usize) -> String);
    let cases: [Case; 4] = [
        (code, Kind::Code, 300, |i| format!("pub fn f{i}(")),
        (diff, Kind::Diff, 60, |i| format!("diff --git a/f{i}.rs")),
        (search, Kind::Search, 57, |i| format!("src/m{i}.rs:1:")),
        (json, Kind::Json, 300, |i| format!("\"k{i}\": {{")),
    ];
    for (text, kind, n, entry) in cases {
        let t = utf16(&text);
        let blocks = [Block::Text(&t)];
        assert_eq!(kinds(&blocks), vec![kind]);
        for keep in [600, 2000, 6000] {
            let b = Budgets::new(keep, 0, 0).and_then(|b| b.with_keep(keep)).unwrap();
            crate::guarantees::check_lines(&blocks, &b, &LineOptions::default()).unwrap();
        }
        // A budget that holds a third of the text keeps map entries from
        // the middle third too, not only from the start.
        let third = (text.chars().count() / 3) as u64;
        let b = Budgets::new(third, 0, 0).and_then(|b| b.with_keep(third)).unwrap();
        let o = out(&blocks, &prune(&blocks, &b, &LineOptions::default()).unwrap());
        assert!((n / 3..2 * n / 3).any(|i| o.contains(&entry(i))), "{kind:?}:\n{o}");
    }
}

#[test]
fn a_source_files_first_imports_are_kept_however_many_its_declarations() {
    // A licence comment, then what the file builds on, then many functions.
    let mut code: String = (0..40).map(|i| format!("// Licence text line {i} of the header.\n")).collect();
    code.push_str("\nuse std::fmt;\nuse std::mem::ManuallyDrop;\n\nmacro_rules! many {\n    () => {};\n}\n\n");
    code.push_str(&(0..300).map(|i| format!("pub fn f{i}(x: u32) -> u32 {{\n    x + {i}\n}}\n\n")).collect::<String>());
    let text = utf16(&code);
    let blocks = [Block::Text(&text)];
    assert_eq!(kinds(&blocks), vec![Kind::Code]);
    for budget in [2048, 4096] {
        let o = out(&blocks, &prune(&blocks, &budgets(budget), &LineOptions::default()).unwrap());
        for line in ["use std::fmt;", "use std::mem::ManuallyDrop;", "macro_rules! many {"] {
            assert!(o.contains(line), "budget {budget}: {line} missing\n{o}");
        }
    }
}

#[test]
fn a_modules_summary_after_its_licence_and_its_top_level_values_are_kept() {
    // A licence comment, the module's docstring, its version bound at the
    // top level without a keyword, then many functions and constants.
    let mut code: String = (0..20).map(|i| format!("# Licence text line {i} of the header.\n")).collect();
    code.push_str("\n\"\"\"Helpers that read and write the format.\"\"\"\n\nimport sys\nimport types\n\n");
    code.push_str("__author__ = \"Someone <someone@example.com>\"\n__version__ = \"1.16.0\"\n\n");
    for i in 0..200 {
        code.push_str(&format!("def helper_{i}(value, options=None):\n    return value + {i}\n\n\n"));
    }
    let text = utf16(&code);
    let blocks = [Block::Text(&text)];
    assert_eq!(kinds(&blocks), vec![Kind::Code]);
    for budget in [2048, 4096] {
        let o = out(&blocks, &prune(&blocks, &budgets(budget), &LineOptions::default()).unwrap());
        for line in ["\"\"\"Helpers that read and write the format.\"\"\"", "__version__ = \"1.16.0\""] {
            assert!(o.contains(line), "budget {budget}: {line} missing\n{o}");
        }
    }
}

#[test]
fn a_tree_drawing_is_a_listing_read_top_level_first() {
    // `tree` of a project: a few top-level files and folders, each folder
    // hundreds of entries deep, padded with no-break spaces as tree pads.
    let mut t = String::from(".\n");
    let top = ["README.rst", "docs", "lib", "pyproject.toml", "tests", "tools"];
    for (i, name) in top.iter().enumerate() {
        let last = i + 1 == top.len();
        t.push_str(&format!("{} {name}\n", if last { "└──" } else { "├──" }));
        if name.contains('.') {
            continue;
        }
        let bar = if last { "    " } else { "│\u{a0}\u{a0} " };
        for j in 0..8 {
            t.push_str(&format!("{bar}├── part_{name}_{j}\n"));
            for f in 0..12 {
                t.push_str(&format!("{bar}│\u{a0}\u{a0} ├── module_{name}_{j}_{f}.py\n"));
            }
        }
    }
    t.push_str("\n42 directories, 400 files\n");
    let o = pruned_as(&t, Kind::Listing, 2048);
    for name in top {
        assert!(o.lines().any(|l| l.ends_with(&format!("── {name}"))), "{name} missing\n{o}");
    }
    // One level down before two: the folders' first parts.
    assert!(o.contains("part_lib_0") && o.contains("part_tests_0"), "{o}");
}

#[test]
fn a_listing_of_one_folder_keeps_its_largest_files_wherever_they_stand() {
    // `ls -la` in name order: hundreds of small files, three large ones in the middle.
    let mut ls = String::from("total 9000\ndrwxr-xr-x 2 root root 4096 Dec  7 06:55 .\n");
    for i in 0..400 {
        let size = if [150, 210, 260].contains(&i) { 900_000 + i } else { 1000 + i };
        ls.push_str(&format!("-rw-r--r-- 1 root root {size:>7} Dec  7 06:55 region_{i:03}.json\n"));
    }
    let o = pruned_as(&ls, Kind::Listing, 2048);
    for name in ["region_150.json", "region_210.json", "region_260.json"] {
        assert!(o.contains(name), "{name} missing\n{o}");
    }
}

#[test]
fn a_listing_sorted_by_size_keeps_its_large_end_whole() {
    // `du -ah | sort -h`: 400 rows over 20 folders, smallest first; what is
    // asked of it (a folder's largest files) is among its last rows.
    let mut du = String::new();
    for i in 0..400 {
        du.push_str(&format!("{}K\tpkg/dir_{:02}/file_{i:03}.bin\n", 4 + i, i % 20));
    }
    let o = pruned_as(&du, Kind::Listing, 2048);
    // A blind tail of the same size keeps the last 40 rows in a row; so does the plan.
    for i in 360..400 {
        assert!(o.contains(&format!("/file_{i:03}.bin")), "file_{i:03} missing\n{o}");
    }
}

#[test]
fn a_java_classs_static_nested_types_are_declarations_not_values() {
    // A class whose nested types are declared `static`, among many methods
    // and `static final` constants.
    let mut code = String::from("package demo;\n\npublic class Outer<K,V> {\n");
    for i in 0..60 {
        code.push_str(&format!("    static final int LIMIT_{i} = {i};\n    public int get{i}(int x) {{\n"));
        code.push_str(&"        x = x * 31 + LIMIT_0; // mixes the value in\n".repeat(8));
        code.push_str(&format!("        return x + {i};\n    }}\n\n"));
        if i == 30 {
            code.push_str("    static final class TreeNode<K,V> extends Outer.Entry<K,V> {\n        TreeNode<K,V> parent;\n    }\n\n");
            code.push_str("    static class Node<K,V> implements Map.Entry<K,V> {\n        int hash;\n    }\n\n");
        }
    }
    code.push_str("}\n");
    let o = pruned_as(&code, Kind::Code, 8192);
    for line in [
        "    static final class TreeNode<K,V> extends Outer.Entry<K,V> {",
        "    static class Node<K,V> implements Map.Entry<K,V> {",
    ] {
        assert!(o.contains(line), "{line} missing\n{o}");
    }
}

#[test]
fn a_recursive_listing_keeps_its_top_directories_before_deeper_ones() {
    let mut ls = String::from(".:\nalpha\nbeta\ngamma\n\n");
    for top in ["alpha", "beta", "gamma"] {
        ls.push_str(&format!("./{top}:\n{}\n", (0..5).map(|i| format!("sub{i}\n")).collect::<String>()));
        for i in 0..5 {
            ls.push_str(&format!(
                "./{top}/sub{i}:\n{}\n",
                (0..12).map(|j| format!("file_{j}.py\n")).collect::<String>()
            ));
        }
    }
    let o = pruned_as(&ls, Kind::Listing, 700);
    for top in ["alpha", "beta", "gamma"] {
        assert!(o.contains(&format!("./{top}:\n")), "./{top}: missing\n{o}");
    }
}

/// One line of JSON from `seed`: objects and arrays two or three deep,
/// strings with escapes, quotes, brackets and lone surrogates, numbers.
fn minified_json(seed: u64) -> Vec<u16> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    fn value(out: &mut Vec<u16>, depth: u32, next: &mut dyn FnMut(u64) -> u64) {
        match if depth > 2 { next(3) } else { next(5) } {
            0 => out.extend(utf16(&format!("{}", next(1_000_000) as i64 - 500)).iter()),
            1 | 2 => {
                out.push(u16::from(b'"'));
                for _ in 0..next(60) {
                    match next(8) {
                        0 => out.extend(utf16("\\\"")),
                        1 => out.push(0xD800 + next(0x400) as u16),
                        2 => out.extend(utf16("},]")),
                        3 => out.extend(utf16("é😀")),
                        _ => out.push(u16::from(b'a') + next(26) as u16),
                    }
                }
                out.push(u16::from(b'"'));
            }
            3 => {
                out.push(u16::from(b'['));
                for i in 0..next(12) {
                    if i > 0 {
                        out.push(u16::from(b','));
                    }
                    value(out, depth + 1, next);
                }
                out.push(u16::from(b']'));
            }
            _ => {
                out.push(u16::from(b'{'));
                for i in 0..next(16) {
                    if i > 0 {
                        out.push(u16::from(b','));
                    }
                    out.extend(utf16(&format!("\"key{i}\":")));
                    value(out, depth + 1, next);
                }
                out.push(u16::from(b'}'));
            }
        }
    }
    let mut out = utf16("{");
    for i in 0..40 + next(40) {
        if i > 0 {
            out.push(u16::from(b','));
        }
        out.extend(utf16(&format!("\"top{i}\":")));
        value(&mut out, 1, &mut next);
    }
    out.push(u16::from(b'}'));
    out
}

#[test]
fn minified_json_keeps_every_guarantee_and_every_top_level_key_where_room_allows() {
    for seed in 0..120 {
        let t = minified_json(seed);
        let blocks = [Block::Text(&t)];
        assert_eq!(kinds(&blocks), vec![Kind::Json], "seed {seed}");
        // Alone, and after a short text (each given its share of the budget,
        // counted text by text: the second's surrogate pairs outnumber the
        // first's code units).
        let short = utf16("{\"k\":1}");
        let two = [Block::Text(&short), Block::Text(&t)];
        for keep in [300, 1500, 4000] {
            let b = Budgets::new(keep, 0, 0).and_then(|b| b.with_keep(keep)).unwrap();
            for blocks in [&blocks[..], &two[..]] {
                crate::guarantees::check_lines(blocks, &b, &LineOptions::default())
                    .unwrap_or_else(|e| panic!("seed {seed}, keep {keep}: {e}"));
            }
        }
        // With room for every key's span, every top-level key is there.
        let keys = (0..).take_while(|i| String::from_utf16_lossy(&t).contains(&format!("\"top{i}\":"))).count();
        let keep = (keys * (2 * 72 + 50)) as u64;
        if (keep as usize) < t.len() {
            let b = Budgets::new(keep, 0, 0).and_then(|b| b.with_keep(keep)).unwrap();
            let o = out(&blocks, &prune(&blocks, &b, &LineOptions::default()).unwrap());
            for i in 0..keys {
                assert!(o.contains(&format!("\"top{i}\":")), "seed {seed}: top{i} missing at {keep}\n{o}");
            }
        }
    }
}

#[test]
fn a_diff_whose_file_headers_fill_the_budget_still_shows_its_first_and_last_hunk() {
    let long = "src/unix/linux_like/linux/gnu/b64/x86_64/very/deep/module/path";
    let diff: String = (0..80)
        .map(|i| {
            format!(
                "diff -ruN a/{long}/f{i}.rs b/{long}/f{i}.rs\n--- a/{long}/f{i}.rs\n+++ b/{long}/f{i}.rs\n@@ -{},7 +{},7 @@ fn f{i}() {{\n context\n-old {i}\n+new {i}\n context\n",
                i * 10 + 1,
                i * 10 + 2
            )
        })
        .collect();
    let o = pruned_as(&diff, Kind::Diff, 2048);
    assert!(o.contains("@@ -1,7 +2,7 @@") && o.contains("@@ -791,7 +792,7 @@"), "{o}");
}

#[test]
fn a_markdown_document_is_outlined_by_its_headings() {
    let mut md = String::from("# Changes\n\n");
    for v in (1..=60).rev() {
        md.push_str(&format!("## Version {v}.0\n\nReleased 2026-01-{:02}\n\n", v % 28 + 1));
        for i in 0..6 {
            md.push_str(&format!(
                "- Fix the {i}th thing that failed with an error in release {v}. {{pr}}`{}`\n",
                v * 10 + i
            ));
        }
        md.push_str("\n```python\n# not a heading\nimport click\n```\n\n");
    }
    let o = pruned_as(&md, Kind::Code, 3000);
    // Headings across the whole document, the first and the last among them.
    let kept: Vec<&str> = o.lines().filter(|l| l.starts_with("## Version")).collect();
    assert!(kept.len() >= 20 && kept.contains(&"## Version 60.0") && kept.contains(&"## Version 1.0"), "{o}");
    assert!(!o.contains("# not a heading"), "{o}");
    // C preprocessor lines and shell comments are not headings.
    for line in ["#  define PNG_H", "# include <stdio.h>", "#define X 1", "#", "#no space"] {
        assert_eq!(super::super::readers::markdown::heading_level(line), None, "{line}");
    }
    assert_eq!(super::super::readers::markdown::heading_level("### Fixed"), Some(3));
}

#[test]
fn identical_outline_lines_are_kept_once() {
    // git log -p: every commit touches the same file, with the same header lines.
    let log: String = (0..40)
        .map(|i| {
            format!(
                "commit {:040x}\nAuthor: A <a@example.com>\nDate:   Tue Dec 1 10:{i:02}:00 2026\n\n    Change number {i}\n\ndiff --git a/src/lib.rs b/src/lib.rs\nindex 1111111..2222222 100644\n--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -{i},3 +{i},3 @@\n fn a() {{}}\n-fn b{i}() {{}}\n+fn c{i}() {{}}\n",
                i + 1
            )
        })
        .collect();
    let o = pruned_as(&log, Kind::Diff, 3000);
    assert_eq!(o.matches("diff --git a/src/lib.rs b/src/lib.rs\n").count(), 1, "{o}");
    assert!(o.matches("    Change number ").count() >= 15, "{o}");
}

#[test]
fn a_long_commit_logs_newest_author_and_date_come_before_older_subjects() {
    // `git log --stat` of thirty releases: at a small budget the subjects
    // of all thirty do not fit, and who made the newest and when say more.
    let mut log = String::new();
    for n in (1..=30).rev() {
        log.push_str(&format!(
            "commit {}\nAuthor: Release Bot <bot@example.com>\nDate:   Wed Oct {n} 12:05:00 2026 +0300\n\n    Release 2.{n}.0\n\n",
            format!("{n:02x}").repeat(20)
        ));
        log.push_str(&format!(
            " src/pkg/_parser.py | {n} +++---\n 1 file changed, {n} insertions(+), 3 deletions(-)\n\n"
        ));
    }
    let o = pruned_as(&log, Kind::Diff, 2048);
    for want in ["Author: Release Bot", "Date:   Wed Oct 30 12:05:00 2026 +0300", "    Release 2.30.0"] {
        assert!(o.contains(want), "{want} missing in\n{o}");
    }
}

#[test]
fn a_commit_logs_newest_commit_leads_from_its_first_line_within_its_share() {
    // `git log --stat` of forty releases, the newest touching thirty files:
    // its diffstat is what a blind head shows, an outline only its summary.
    let mut log = String::new();
    for n in (1..=40).rev() {
        log.push_str(&format!(
            "commit {}\nAuthor: Release Bot <bot@example.com>\nDate:   Wed Oct {n} 12:05:00 2026 +0300\n\n    Release 3.{n}.0\n\n",
            format!("{n:02x}").repeat(20)
        ));
        let files = if n == 40 { 30 } else { 2 };
        for f in 0..files {
            log.push_str(&format!(" src/pkg/module_{f:02}.py | {} +++---\n", n + f));
        }
        log.push_str(&format!(" {files} files changed, {n} insertions(+), 3 deletions(-)\n\n"));
    }
    for budget in [4096u64, 8192] {
        let o = pruned_as(&log, Kind::Diff, budget);
        // The newest commit's first lines, in order and unbroken by a marker.
        let lead: String = log.lines().take(10).map(|l| format!("{l}\n")).collect();
        assert!(o.starts_with(&lead), "at {budget}:\n{o}");
        // Within its share: the newest commit's thirty files are not all there.
        let shown = (0..30).filter(|f| o.contains(&format!(" src/pkg/module_{f:02}.py | {} ", 40 + f))).count();
        assert!(shown < 30, "at {budget}: {shown}");
        assert!(o.contains("    Release 3.1.0"), "the older subjects still come: at {budget}\n{o}");
    }
}

#[test]
fn a_commit_log_without_patches_keeps_its_oldest_commit_whole_at_its_end() {
    // `git log --stat` of sixty releases, asked when something began: the
    // oldest commit, at the end, is what a blind tail shows whole (its
    // message's body too), where the outline shows a subject a commit.
    let mut log = String::new();
    for n in (1..=60).rev() {
        log.push_str(&format!(
            "commit {}\nAuthor: Release Bot <bot@example.com>\nDate:   Wed Oct {} 12:05:00 2026 +0300\n\n    Release 3.{n}.0\n\n",
            format!("{n:02x}").repeat(20),
            n % 28 + 1
        ));
        if n == 1 {
            log.push_str("    Sacks are weighed at intake; the threshold is 14.5% moisture.\n\n");
        }
        log.push_str(&format!(
            " src/pkg/module_{n:02}.py | {n} +++---\n 1 file changed, {n} insertions(+), 3 deletions(-)\n\n"
        ));
    }
    let o = pruned_as(&log, Kind::Diff, 8192);
    let oldest = format!("commit {}", "01".repeat(20));
    for want in [oldest.as_str(), "    Sacks are weighed at intake", " src/pkg/module_01.py | 1 +++---"] {
        assert!(o.contains(want), "{want} missing in\n{o}");
    }
    // The newest commit still leads.
    assert!(o.starts_with(&format!("commit {}\n", "3c".repeat(20))), "{o}");
}

#[test]
fn a_json_reports_failing_objects_are_kept_first_with_their_messages_and_names() {
    // A test runner's JSON report (`jest --json`, pretty-printed): 400
    // results, two of them failed, deep in its array.
    let mut json =
        String::from("{\n  \"numFailedTests\": 2,\n  \"testResults\": [\n    {\n      \"assertionResults\": [\n");
    for i in 0..400 {
        let failed = i == 137 || i == 311;
        let messages = if failed {
            format!(
                "[\n            \"Error: expect(received).toBe(expected) at parse.test.js:{}:19\"\n          ]",
                40 + i
            )
        } else {
            "[]".to_owned()
        };
        json.push_str(&format!(
            "        {{\n          \"duration\": 3,\n          \"failureMessages\": {messages},\n          \"fullName\": \"parser parses case {i}\",\n          \"status\": \"{}\"\n        }}{}\n",
            if failed { "failed" } else { "passed" },
            if i < 399 { "," } else { "" }
        ));
    }
    json.push_str("      ]\n    }\n  ]\n}\n");
    let o = pruned_as(&json, Kind::Json, 2048);
    for line in [
        "parse.test.js:177:19",
        "\"fullName\": \"parser parses case 137\"",
        "parse.test.js:351:19",
        "\"fullName\": \"parser parses case 311\"",
    ] {
        assert!(o.contains(line), "{line} missing from\n{o}");
    }
}

#[test]
fn a_json_linters_error_is_kept_with_its_message_and_the_file_it_is_in() {
    // `eslint -f json | python3 -m json.tool`: files, each with its
    // warnings (severity 1); one error (severity 2) deep in one file.
    let mut json = String::from("[\n");
    for f in 0..60 {
        json.push_str(&format!("    {{\n        \"filePath\": \"/app/src/file_{f}.js\",\n        \"messages\": [\n"));
        for m in 0..20 {
            let error = f == 37 && m == 15;
            json.push_str(&format!(
                "            {{\n                \"ruleId\": \"{}\",\n                \"severity\": {},\n                \"message\": \"{}\",\n                \"line\": {}\n            }}{}\n",
                if error { "no-undef" } else { "prefer-const" },
                if error { 2 } else { 1 },
                if error { "'cdoe' is not defined.".to_owned() } else { format!("'v{m}' is never reassigned.") },
                10 + m,
                if m < 19 { "," } else { "" }
            ));
        }
        json.push_str(&format!(
            "        ],\n        \"errorCount\": {}\n    }}{}\n",
            u8::from(f == 37),
            if f < 59 { "," } else { "" }
        ));
    }
    json.push_str("]\n");
    let o = pruned_as(&json, Kind::Json, 2048);
    for line in ["\"message\": \"'cdoe' is not defined.\"", "\"filePath\": \"/app/src/file_37.js\""] {
        assert!(o.contains(line), "{line} missing from\n{o}");
    }
}
