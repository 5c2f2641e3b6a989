use super::*;

fn kind(command: &str) -> Option<Kind> {
    kind_of_command(command).map(|c| c.kind)
}

#[test]
fn commands_that_name_their_output() {
    assert_eq!(kind("git diff"), Some(Kind::Diff));
    assert_eq!(kind("git --no-pager diff HEAD~1 -- src"), Some(Kind::Diff));
    assert_eq!(kind("git -C repo show --no-color HEAD"), Some(Kind::Diff));
    assert_eq!(kind("git log -p --no-color -n 12"), Some(Kind::Diff));
    // A commit log, with or without its diffstat: its commits are the outline.
    assert_eq!(kind("git log --stat"), Some(Kind::Diff));
    assert_eq!(kind("git log -n 30 -- src/cachetools"), Some(Kind::Diff));
    assert_eq!(kind_of_command("git log --stat").map(|c| c.reason), Some("`git log`".into()));
    assert_eq!(kind("diff -u a.txt b.txt"), Some(Kind::Diff));
    assert_eq!(kind("cat src/jinja2/utils.py"), Some(Kind::Code));
    assert_eq!(kind("head -n 80 lib/loader.js"), Some(Kind::Code));
    assert_eq!(kind("sed -n '1,120p' src/map.rs"), Some(Kind::Code));
    assert_eq!(kind("cat package.json"), Some(Kind::Json));
    assert_eq!(kind("rg -n \"^def \" jinja2/"), Some(Kind::Search));
    assert_eq!(kind("grep -rn --include=*.py \"raise ValueError(\" ."), Some(Kind::Search));
    assert_eq!(kind("git grep -n TODO"), Some(Kind::Search));
    assert_eq!(kind("find node_modules/@deepseek-ai -maxdepth 2"), Some(Kind::Listing));
    assert_eq!(kind("ls -lR regex-automata"), Some(Kind::Listing));
    assert_eq!(kind("tree -L 3 src"), Some(Kind::Listing));
    assert_eq!(kind("tree -J src"), None);
    assert_eq!(kind("npm view react --json"), Some(Kind::Json));
    assert_eq!(kind("pip inspect"), Some(Kind::Json));
    assert_eq!(kind("python -m pytest -q tests/"), Some(Kind::Log));
    assert_eq!(kind("cargo test --workspace"), Some(Kind::Log));
    assert_eq!(kind("CI=1 npx jest --ci"), Some(Kind::Log));
    assert_eq!(kind("npm run test:unit"), Some(Kind::Log));
    assert_eq!(kind("cd web && npx tsc --noEmit 2>&1 | tail -n 200"), Some(Kind::Log));
    assert_eq!(kind("git diff | head -50"), Some(Kind::Diff));
}

#[test]
fn ambiguous_commands_leave_it_to_the_sample() {
    for command in [
        "git diff --stat",
        "git show HEAD:src/lib.rs",
        "git log --oneline",
        "git log --graph",
        "git log --pretty=format:%h %s",
        "git status",
        "cat -n src/lib.rs",
        "cat build.log",
        "cat notes.txt src/lib.rs",
        "sed 's/a/b/' src/lib.rs",
        "rg foo src/lib.rs",
        "rg -n foo src/lib.rs",
        "grep -n foo src/lib.rs",
        "grep -rl foo .",
        "cat src/a.py | grep def",
        "git diff > out.patch",
        "echo $(git diff)",
        "git diff; cargo test",
        "cargo test &",
        "npm view react",
        "./run-tests.sh",
        "diff a b",
        "\"unbalanced",
        "",
    ] {
        assert_eq!(kind(command), None, "{command}");
    }
}

#[test]
fn the_reason_names_the_tool_and_the_words_that_decided() {
    let call = kind_of_call("bash", r#"{"command":"git log -p --no-color -n 3 -- cli","description":"history"}"#);
    assert_eq!(call, Some(CallKind { kind: Kind::Diff, reason: "bash `git log -p`".into() }));
    let call = kind_of_call("bash", r#"{"description":"x","command":"cat src/net/url/url.go"}"#).unwrap();
    assert_eq!(call.reason, "bash `cat src/net/url/url.go`");
    // A tool without a command (a file read) leaves it to the sample.
    assert_eq!(kind_of_call("read", r#"{"file_path":"src/lib.rs"}"#), None);
    assert_eq!(kind_of_call("bash", "not json"), None);
    assert_eq!(kind_of_call("bash", r#"{"command": 3}"#), None);
}

#[test]
fn json_fields_are_decoded_exactly() {
    let args =
        r#" { "a": {"command": "nested"}, "b": [1, "x\"y"], "command" : "rg -n \"\u00e9t\u00e9\" \ud83d\ude00 src" } "#;
    assert_eq!(json_string_field(args, "command").as_deref(), Some("rg -n \"été\" 😀 src"));
    assert_eq!(json_string_field(args, "missing"), None);
    // A lone surrogate is refused, not replaced.
    assert_eq!(json_string_field(r#"{"command":"\ud83d"}"#, "command"), None);
    assert_eq!(json_string_field(r#"{"command":"unterminated}"#, "command"), None);
    assert_eq!(json_string_field("[]", "command"), None);
}

mod hinted {
    use proptest::prelude::*;

    use crate::config::Budgets;
    use crate::content::Block;
    use crate::guarantees::check_lines;
    use crate::strategy::lines::{Kind, LineOptions};
    use crate::text::utf16;

    const KINDS: [Kind; 6] = [Kind::Log, Kind::Code, Kind::Diff, Kind::Search, Kind::Json, Kind::Listing];

    proptest! {
        // A kind named by the command, right or wrong, keeps every guarantee of lines mode.
        #[test]
        fn any_kind_hint_keeps_the_guarantees(
            lines in prop::collection::vec("[ -~]{0,60}", 0..200),
            k in 0usize..6,
            threshold in 200u64..3000,
        ) {
            let text = utf16(&lines.join("\n"));
            let b = Budgets::new(threshold, threshold / 3, threshold / 4).unwrap();
            let options = LineOptions { kind: Some(KINDS[k]), ..LineOptions::default() };
            check_lines(&[Block::Text(&text)], &b, &options).map_err(TestCaseError::fail)?;
        }
    }

    #[test]
    fn the_hint_decides_the_kind_the_sample_would_not() {
        // Source that reads as a log to the sample: a test module full of failure words.
        let text: String =
            (0..300).map(|i| format!("    assert!(result.is_err(), \"error {i}: failed\");\n")).collect();
        let t = utf16(&text);
        let b = Budgets::default();
        let sampled = crate::strategy::lines::plan_blocks(
            &[Block::Text(&t)],
            &b,
            &LineOptions::default(),
            &[],
            &Default::default(),
        )
        .1;
        let hinted = LineOptions { kind: Some(Kind::Code), ..LineOptions::default() };
        let named = crate::strategy::lines::plan_blocks(&[Block::Text(&t)], &b, &hinted, &[], &Default::default()).1;
        assert_eq!(sampled, [Kind::Log]);
        assert_eq!(named, [Kind::Code]);
    }
}
