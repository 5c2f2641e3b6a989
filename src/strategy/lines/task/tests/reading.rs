//! How a request and a call are read into terms: stems, stop words, what
//! is set aside, and the words read as a tool words them.

use super::*;

#[test]
fn the_stop_words_are_sorted_for_their_search() {
    assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]), "STOP_WORDS must be sorted and unique");
}

#[test]
fn identifiers_split_as_code_splits_them_and_stay_whole_too() {
    assert_eq!(terms("parseDate"), ["parsedate", "parse", "date"]);
    assert_eq!(terms("parse_date"), ["parse_date", "parse", "date"]);
    assert_eq!(terms("parse-date"), ["parse-date", "parse", "date", "parsedate"]);
    assert_eq!(terms("src/router.ts"), ["src/router.ts", "src", "router"]);
    // A dotted name of three parts or more is also its module's path and its package's.
    assert_eq!(
        terms("websockets.asyncio.client.connect"),
        [
            "websockets.asyncio.client.connect",
            "websocket",
            "asyncio",
            "client",
            "connect",
            "websockets/asyncio/client",
            "websockets/asyncio"
        ]
    );
    assert_eq!(terms("models.py"), ["models.py", "model"], "a file's name is no module path");
}

#[test]
fn a_request_keeps_its_words_of_substance_stemmed() {
    // "the", "still", "find", "where", "it" say how, not what; "a" is too short.
    assert_eq!(
        terms("the 304 responses still carry a body; find where express strips it"),
        ["304", "response", "carry", "body", "express", "strip"]
    );
    assert_eq!(terms("classes matches stripped parsing"), ["class", "match", "strip", "pars"]);
    // A double `l` stays where undoing it leaves three letters.
    assert_eq!(terms("called controlled filled"), ["call", "control", "fill"]);
    // "instead" names the other way, which a changelog or a message says.
    assert!(terms("does it throw instead of collapsing").contains(&"instead".to_owned()));
    // Words that carry a request along, not what it is about.
    assert_eq!(terms("I think it whatever, really: tell me whether it actually says something"), Vec::<String>::new());
}

#[test]
fn a_word_a_request_counts_is_a_term_with_the_word_counting_it() {
    assert_eq!(
        terms("Which functions have too many branches or statements?"),
        ["function", "branch", "statement", "many branch"]
    );
    // Only after a word that counts, and only a word of prose that is no stop word.
    assert_eq!(terms("the many `parseDate` calls, too many of them"), ["parsedate", "parse", "date", "call"]);
}

#[test]
fn a_hyphenated_word_is_also_a_term_joined_after_every_other() {
    // `keep-alive` is `keepalive_timeout` in code; the joined form comes last.
    assert_eq!(
        terms("how long is an idle keep-alive connection kept open"),
        ["long", "idle", "keep-alive", "keep", "alive", "connection", "kept", "open", "keepalive"]
    );
    // Not a path, a name with digits or a word in a code span.
    assert_eq!(terms("utf-8 in `x-y`"), ["utf-8", "utf", "x-y"]);
}

#[test]
fn a_word_a_request_negates_is_found_as_a_tool_words_it() {
    // "aren't defined" is what a linter calls `Undefined`; "not reachable", `unreachable`.
    assert_eq!(terms("names that aren't defined anywhere"), ["name", "defin", "anywhere", "undefin"]);
    assert_eq!(terms("code not reachable"), ["reachable", "unreachable"]);
    // Only right after the negation, and only a word of prose that is no stop word.
    assert_eq!(terms("not the `x_1`; not used; defined never. Not sure."), ["x_1", "defin", "never", "sure"]);
}

#[test]
fn flags_and_short_fragments_are_no_terms() {
    assert_eq!(terms("pytest -k test_parse_date -x"), ["pytest", "test_parse_date", "test", "parse", "date"]);
    assert!(task("-x -k a b 12").is_empty());
    assert!(Task::new(&[]).is_empty());
}

#[test]
fn a_task_holds_at_most_its_first_terms() {
    let many: String = (0..100).map(|i| format!("word{i} ")).collect();
    let t = task(&many);
    assert_eq!(t.terms().count(), MAX_TERMS);
    assert_eq!(t.terms().next(), Some("word0"));
}

#[test]
fn lone_surrogates_and_other_scripts_are_read_around() {
    let mut text = utf16("fix parseDate ");
    text.push(0xD800);
    text.extend(utf16("für größe"));
    let t = Task::new(&[&text]);
    assert!(t.terms().any(|w| w == "parse"));
    // Words are ASCII: the non-ASCII letters split "für" and "größe" into fragments too short to count.
    assert!(t.terms().all(|w| w.is_ascii()));
}

#[test]
fn words_a_request_sets_aside_are_no_terms() {
    // The clause after "ignore" / "apart from" names what is not wanted.
    assert_eq!(
        terms("Ignore the assert ones (S101); which other S-rule findings are there in cli.py?"),
        ["s-rule", "cli.py", "cli", "srule"]
    );
    assert_eq!(
        terms("Apart from the missing-annotation noise, mypy reports None problems."),
        ["mypy", "report", "none"]
    );
    // The `.` of `models.py` ends no clause; the `,` does.
    assert_eq!(terms("except in models.py, parse_date fails"), ["parse_date", "parse", "date", "fail"]);
    // Only a sentence's first word sets its clause aside: elsewhere it is
    // what was asked about.
    assert_eq!(
        terms("Does remap blow up, skip that item or keep it, and is there a switch to ignore those errors?"),
        ["remap", "blow", "skip", "item", "keep", "switch", "ignore", "error"]
    );
    assert_eq!(terms("Flag each file. Skip the vendored ones"), ["flag"]);
    // So does a parenthesis it opens, anywhere.
    assert_eq!(terms("the plain SortedList (ignore SortedKeyList) merges"), ["plain", "sortedlist", "sort", "merge"]);
    // A list in parentheses is of the clause around it; a dash ends one.
    assert_eq!(
        terms("Ignore the tests and the nits (unused imports, dict() literals, zip strict) — which are actual bugs?"),
        ["bug"]
    );
    // After a dash or a semicolon a set-aside word opens a clause as a
    // sentence's first does, and the list it opens goes on after commas.
    assert_eq!(
        terms("Which bundles are largest — ignore the tests, the locales and the .d.ts files"),
        ["bundle", "largest"]
    );
    assert_eq!(terms("Which integration tests fail; skip everything that passed"), ["integration", "test", "fail"]);
    // "not" opening a clause after a comma or dash sets it aside; opening a sentence, it does not.
    assert_eq!(terms("Only export_html, not the SVG export."), ["export_html", "export", "html"]);
    assert_eq!(terms("Not sure why parse_date fails"), ["sure", "parse_date", "parse", "date", "fail"]);
    // "Leave … aside", "Leave … for later".
    assert_eq!(
        terms("RichHandler reads markup. Leave the Console internals aside."),
        ["richhandler", "rich", "handler", "read", "markup"]
    );
    assert_eq!(terms("Leaving the divide failures aside for now — which test got skipped?"), ["test", "skip"]);
    // What one does not care about or is not interested in.
    assert_eq!(terms("What changed in parse.js? Don't care about the minified dist."), ["chang", "parse.js", "parse"]);
    assert_eq!(terms("Which locales ship? I'm not interested in the TypeScript sources"), ["locale", "ship"]);
    // A set-aside word that is a form of one asked for is not set aside.
    assert!(task("Where did test_b fail? I don't care about the other failures").aside.is_empty());
    assert!(!task("Besides test_b, which tests fail?").aside.is_empty(), "test_b is no form of test");
}

#[test]
fn of_a_command_its_arguments_count_not_its_program_subcommand_or_flags() {
    let asked = |command: &str| -> Vec<String> {
        Task::asked(&utf16(""), Some(&utf16(command))).terms().map(str::to_owned).collect()
    };
    assert_eq!(asked("git log --stat -- src/x.py"), ["src/x.py", "src"]);
    assert_eq!(asked("pytest -k test_parse_date"), ["test_parse_date", "test", "parse", "date"]);
    assert_eq!(asked("grep -rn req lib/"), ["req", "lib"]);
    // Each command of a pipeline or list names its own program.
    assert_eq!(asked("find node_modules | sort"), ["node_modules", "node", "module"]);
    assert_eq!(asked("cd crates/pkg && cargo test -p parser; git status"), ["crates/pkg", "crate", "pkg", "parser"]);
    // A redirection names where the output went, not what it holds; a `>` quoted is a pattern's.
    assert_eq!(asked("mypy src/app > raw.log 2>&1"), ["src/app", "src", "app"]);
    assert_eq!(asked("rg -n 'size > limit' lib < /dev/null"), ["size", "limit", "lib"]);
    // A `|` quoted or escaped is an argument's, not a pipe; a pattern of
    // alternatives gives no terms (every hit holds one), and none of them
    // is a program: a request's word that is one of them stays a term.
    assert_eq!(asked("rg -n \"omit_if_default|tagged\" src/"), ["src"]);
    assert_eq!(asked("grep -rn req\\|res lib/"), ["lib"]);
    let of_quoted = |task: &str, command: &str| -> Vec<String> {
        Task::asked(&utf16(task), Some(&utf16(command))).terms().map(str::to_owned).collect()
    };
    assert_eq!(
        of_quoted("where is omit_if_default read?", "rg 'forbid|omit_if_default' src"),
        ["omit_if_default", "omit", "default", "read", "src"]
    );
    // The tool the command runs, named in the request, is no term either:
    // the output is its own. An interpreter's module is the tool.
    let of = |task: &str, command: &str| -> Vec<String> {
        Task::asked(&utf16(task), Some(&utf16(command))).terms().map(str::to_owned).collect()
    };
    assert_eq!(of("Which tomlkit tests fail under `pytest -v`?", "python -m pytest -v"), ["tomlkit", "test", "fail"]);
    assert_eq!(of("mypy reports None problems", "/usr/bin/mypy --strict"), ["report", "none"]);
    assert_eq!(of("mypy reports None problems", "ruff check"), ["mypy", "report", "none"]);
}

#[test]
fn a_word_in_a_code_span_is_a_term_as_written_and_weighs_as_code() {
    // `items` is the keyword's name: not stemmed to `item`, and weighed as code.
    assert_eq!(
        terms("every implementation of the `items` keyword, and its items"),
        ["implementation", "items", "keyword", "item"]
    );
    let t = task("the `items` keyword");
    assert_eq!(t.literal, [true, false]);
    // A stop word stays one in a code span; a span across a comma is still one.
    assert_eq!(terms("the `list` and `parse, date` calls"), ["parse", "date", "call"]);
}
