//! The task's phase of an outline's plan: which lines a task raises, with
//! what places them and what they open, in source files, JSON, search
//! hits, listings and commit logs.

use super::super::*;
use super::{budgets, out};
use crate::text::utf16;

/// `text` read as `kind`, pruned in lines mode at `budgets(budget)` for
/// `task` (none when empty), rendered.
pub(super) fn with_task(text: &str, kind: Kind, budget: u64, task: &str) -> String {
    let units = utf16(text);
    let blocks = [Block::Text(&units)];
    let options = LineOptions { kind: Some(kind), ..LineOptions::default() };
    let task = if task.is_empty() { Task::default() } else { Task::new(&[&utf16(task)]) };
    out(&blocks, &prune_with_spans(&blocks, &budgets(budget), &options, &[], &task).unwrap())
}

#[test]
fn a_task_reads_the_body_of_the_definition_it_names_before_its_words_elsewhere() {
    // A class whose methods' docstrings show the task's words in usage
    // examples, and the method the task names, whose thresholds sit far
    // into a long body.
    let mut code = String::from("class Clock:\n");
    for i in 0..120 {
        code.push_str(&format!(
            "    def helper_{i}(self):\n        \"\"\">>> clock.shift(days=1, weeks=2, months=3).helper_{i}()\"\"\"\n        return {i}\n\n"
        ));
    }
    code.push_str("    def humanize(self, other):\n        delta = self - other\n");
    code.extend((0..80).map(|i| format!("        step_{i} = delta + {i}\n")));
    let thresholds = [
        "        elif delta < self.SECONDS_PER_DAY * 2:\n",
        "        elif delta < self.SECONDS_PER_WEEK:\n",
        "        # months: more than two weeks count as a whole month\n",
    ];
    for line in thresholds {
        code.push_str(line);
        code.push_str("            return self.label(delta)\n");
    }
    code.push_str("        return None\n");
    code.extend((120..240).map(|i| format!("    def helper_{i}(self):\n        return {i}\n\n")));
    let kept =
        with_task(&code, Kind::Code, 4096, "which thresholds does humanize() use between days, weeks and months?");
    assert!(kept.contains("    def humanize(self, other):\n"), "{kept}");
    for line in thresholds {
        assert!(kept.contains(line), "{line} missing in\n{kept}");
    }
}

#[test]
fn a_task_line_longer_than_the_cap_is_worth_the_share_of_it_kept() {
    // Thirty minified lines hold all three of the task's words, far from
    // where a cut keeps them; six short lines hold two.
    let mut code = String::new();
    for i in 0..400 {
        if i % 10 == 5 && i < 300 {
            code.push_str(&format!("var blob_{i} = \"{} alpha beta gamma {}\";\n", "x".repeat(9000), "y".repeat(9000)));
        } else if (300..306).contains(&i) {
            code.push_str(&format!("    alpha_beta_check({i});\n"));
        } else {
            code.push_str(&format!("    step_{i}();\n"));
        }
    }
    let kept = with_task(&code, Kind::Code, 4096, "where are alpha, beta and gamma set");
    for i in 300..306 {
        assert!(kept.contains(&format!("    alpha_beta_check({i});\n")), "{i} missing in\n{kept}");
    }
}

#[test]
fn a_task_keeps_its_lines_with_what_places_them_and_a_json_values_first_lines() {
    // A source file: the named function's definition, its body and its class.
    let mut code: String = (0..300).map(|i| format!("    def helper_{i}(self):\n        return {i}\n\n")).collect();
    code.insert_str(0, "class Query:\n");
    code.push_str("    def bulk_create(self, objs):\n");
    code.extend((0..30).map(|i| format!("        step_{i}(objs)\n")));
    code.extend((300..600).map(|i| format!("    def helper_{i}(self):\n        return {i}\n\n")));
    let kept = with_task(&code, Kind::Code, 4096, "why does bulk_create drop the objects");
    assert!(kept.contains("class Query:\n"), "the class it is in");
    assert!(kept.contains("    def bulk_create(self, objs):\n"));
    assert!((0..30).all(|i| kept.contains(&format!("        step_{i}(objs)\n"))), "its whole body");
    let blind = with_task(&code, Kind::Code, 4096, "");
    assert!(!blind.contains("step_15(objs)"), "the task-blind outline does not keep the body");
    // A JSON key the task names: the key and the first lines of its long value, not all of it.
    let json = format!(
        "{{\n{}  \"devDependencies\": {{\n{}  }}\n}}\n",
        (0..200).map(|i| format!("  \"k{i}\": {i},\n")).collect::<String>(),
        (0..100).map(|i| format!("    \"pkg-{i}\": \"^1.{i}.0\",\n")).collect::<String>()
    );
    let kept = with_task(&json, Kind::Json, 4096, "which devDependencies does it pin");
    assert!(kept.contains("  \"devDependencies\": {\n"));
    assert!((0..8).all(|i| kept.contains(&format!("\"pkg-{i}\""))), "its value's first lines");
    // Kept for the task: the key and its value's first eight lines, no more.
    let (t, task) = (utf16(&json), Task::new(&[&utf16("which devDependencies does it pin")]));
    let options = LineOptions { kind: Some(Kind::Json), ..LineOptions::default() };
    let mut for_task = Vec::new();
    assert!(explain(&t, &budgets(4096), &options, &task, |line, e| {
        if e.reason == Some(Reason::Task) {
            for_task.push(String::from_utf16_lossy(line));
        }
    }));
    assert_eq!(for_task.len(), 1 + 8, "{for_task:?}");
}

#[test]
fn a_search_hits_function_is_kept_with_the_strongest_hits() {
    // `grep -rn req lib/`: hundreds of hits; the task's words are on a few
    // lines of one function, whose signature the pattern also hit.
    let mut hits = String::new();
    for f in 0..6 {
        for i in 0..40 {
            hits.push_str(&format!(
                "lib/m{f}.js:{}:  var v{i} = req.headers['x-{i}'] || req.query.q{i};\n",
                10 + i * 3
            ));
        }
    }
    for i in 0..30 {
        hits.push_str(&format!("lib/router/index.js:{}:  // req.option{i} is read below\n", 20 + i * 3));
    }
    hits.push_str("lib/router/index.js:136:proto.handle = function handle(req, res, out) {\n");
    for i in 0..12 {
        hits.push_str(&format!("lib/router/index.js:{}:  req.next{i} = next;\n", 138 + i));
    }
    hits.push_str("lib/router/index.js:156:  var parentParams = req.params;\n");
    hits.push_str("lib/router/index.js:158:  var done = restore(out, req, 'baseUrl', 'next', 'params');\n");
    for f in 6..12 {
        for i in 0..40 {
            hits.push_str(&format!(
                "lib/m{f}.js:{}:  var v{i} = req.headers['x-{i}'] || req.query.q{i};\n",
                10 + i * 3
            ));
        }
    }
    let kept = with_task(&hits, Kind::Search, 2048, "where are the parentParams saved before the router dispatches?");
    assert!(kept.contains("var parentParams = req.params;"), "{kept}");
    assert!(kept.contains("proto.handle = function handle(req, res, out) {"), "the function it is in\n{kept}");
}

#[test]
fn a_commit_the_task_names_is_kept_with_what_it_changed() {
    // A `git log -p` of many releases; the task names one release, whose
    // changed lines hold none of the task's words.
    let mut log = String::new();
    for c in 0..40 {
        log.push_str(&format!(
            "commit {:040x}\nAuthor: Dev <dev@example.org>\nDate:   Mon Jan 1 00:00:00 2024 +0000\n\n    lib {}.{}.0\n\n",
            c + 1,
            c / 10,
            c % 10
        ));
        for f in 0..3 {
            log.push_str(&format!(
                "diff --git a/src/file_{f}.js b/src/file_{f}.js\nindex 1111111..2222222 100644\n--- a/src/file_{f}.js\n+++ b/src/file_{f}.js\n@@ -1,6 +1,6 @@\n"
            ));
            for l in 0..6 {
                log.push_str(&format!(
                    " const keep_{c}_{f}_{l} = {l}\n-const old_{c}_{f}_{l} = {l}\n+const new_{c}_{f}_{l} = {l} + 1\n"
                ));
            }
        }
    }
    let kept = with_task(&log, Kind::Diff, 4096, "what did the 2.5.0 release change?");
    assert!(kept.contains("    lib 2.5.0\n"), "{kept}");
    for l in 0..6 {
        assert!(kept.contains(&format!("+const new_25_0_{l} = {l} + 1\n")), "{l} missing in\n{kept}");
    }
}

#[test]
fn a_listings_entries_the_task_names_come_before_the_directories_that_hold_its_words() {
    // An `ls -lR` where one directory in five has a header holding several
    // of the task's words; the entries the task asks about hold one.
    let mut listing = String::new();
    for d in 0..600 {
        if d % 5 == 0 {
            listing.push_str(&format!("node_modules/widgets/dist/esm5/internal/operators_{d}:\ntotal 40\n"));
        } else {
            listing.push_str(&format!("node_modules/other/lib_{d}:\ntotal 40\n"));
        }
        for f in 0..12 {
            let name = if f == 5 && d % 200 == 5 { "throttleTime.js".to_string() } else { format!("helper{f}.js") };
            listing.push_str(&format!("-rw-r--r-- 1 root root {:>5} Dec  6 03:27 {name}\n", 100 + d * 12 + f));
        }
        listing.push('\n');
    }
    let kept = with_task(
        &listing,
        Kind::Listing,
        4096,
        "how large is throttleTime in node_modules/widgets dist/esm5 internal operators?",
    );
    for d in (0..600).filter(|d| d % 200 == 5) {
        assert!(kept.contains(&format!("{:>5} Dec  6 03:27 throttleTime.js\n", 100 + d * 12 + 5)), "{d} in\n{kept}");
        assert!(
            kept.contains(&format!("node_modules/widgets/dist/esm5/internal/operators_{d}:\n")),
            "{d}'s directory in\n{kept}"
        );
    }
}

#[test]
fn a_json_object_the_task_names_by_its_name_keeps_its_version() {
    // `pip inspect`: each package's metadata opens with its name, then its
    // version; the task names one package.
    let mut json = String::from("{\n  \"version\": \"1\",\n  \"installed\": [\n");
    for p in 0..240 {
        let name = if p == 120 { "pluggy".to_owned() } else { format!("pkg{p:03}") };
        json.push_str(&format!(
            "    {{\n      \"metadata\": {{\n        \"metadata_version\": \"2.1\",\n        \"name\": \"{name}\",\n        \"version\": \"{p}.4.{p}\",\n        \"summary\": \"the package number {p} of this venv\"\n      }},\n      \"installer\": \"pip\"\n    }},\n"
        ));
    }
    json.push_str("    {}\n  ]\n}\n");
    let kept = with_task(&json, Kind::Json, 4096, "which pluggy is installed in this venv?");
    assert!(kept.contains("\"name\": \"pluggy\",\n        \"version\": \"120.4.120\","), "{kept}");
}

#[test]
fn the_definition_a_task_names_is_read_past_its_docstring() {
    // A function whose docstring is longer than the lines a matched line
    // opens, then its code; none of its code holds the task's words.
    let mut code = String::new();
    code.extend((0..150).map(|i| format!("def helper_{i}(x):\n    return x + {i}\n\n")));
    code.push_str("def update_in(d, keys, func):\n    \"\"\"Walks the nested mapping.\n\n");
    code.extend((0..45).map(|i| format!("    Example {i}: nothing to see.\n")));
    code.push_str("    \"\"\"\n");
    let body =
        ["    rv = inner = factory()\n", "    for k in ks:\n", "        inner[k] = inner = dtemp\n", "    return rv\n"];
    code.extend(body.iter().map(|l| l.to_string()));
    code.extend((150..300).map(|i| format!("\ndef helper_{i}(x):\n    return x + {i}\n")));
    let kept = with_task(&code, Kind::Code, 4096, "how does `update_in` build the nested dicts?");
    assert!(kept.contains("def update_in(d, keys, func):\n"), "{kept}");
    for line in body {
        assert!(kept.contains(line), "{line} missing in\n{kept}");
    }
    // A docstring closed on its own line is passed over, and the code after it read.
    let one =
        code.replacen("    \"\"\"Walks the nested mapping.\n\n", "    \"\"\"Walks the nested mapping.\"\"\"\n", 1);
    let one = one.replacen(&(0..45).map(|i| format!("    Example {i}: nothing to see.\n")).collect::<String>(), "", 1);
    let one = one.replacen("    \"\"\"\n    rv", "    rv", 1);
    assert!(one.contains("mapping.\"\"\"\n    rv = inner"), "{one}");
    let kept = with_task(&one, Kind::Code, 4096, "how does `update_in` build the nested dicts?");
    for line in body {
        assert!(kept.contains(line), "{line} missing in\n{kept}");
    }
}

#[test]
fn a_directory_the_task_names_by_its_path_keeps_its_entries() {
    // `ls -lR pkg`: every header holds the root, `pkg`; one directory is
    // named by its path, and its entries hold none of the task's words.
    let mut listing = String::new();
    for d in 0..60 {
        let dir = if d == 30 { "pkg/v4/core".to_string() } else { format!("pkg/part_{d}") };
        listing.push_str(&format!("{dir}:\ntotal 40\n"));
        for f in 0..12 {
            listing
                .push_str(&format!("-rw-r--r-- 1 root root {:>6} Dec  6 03:27 file_{d}_{f}.cjs\n", 1000 + d * 12 + f));
        }
        listing.push('\n');
    }
    let units = utf16(&listing);
    let blocks = [Block::Text(&units)];
    let options = LineOptions { kind: Some(Kind::Listing), ..LineOptions::default() };
    let asked = |task: &str| {
        let task = Task::asked(&utf16(task), Some(&utf16("ls -lR pkg")));
        out(&blocks, &prune_with_spans(&blocks, &budgets(4096), &options, &[], &task).unwrap())
    };
    let kept = asked("Which files are the largest in pkg's v4/core directory?");
    for f in 0..12 {
        assert!(kept.contains(&format!("file_30_{f}.cjs\n")), "entry {f} of v4/core in\n{kept}");
    }
    // The root names no one directory: no header opens its entries for it.
    let kept = asked("Which files are the largest in pkg?");
    assert!(!(0..12).all(|f| kept.contains(&format!("file_7_{f}.cjs\n"))), "{kept}");
}

#[test]
fn a_search_hit_among_hits_that_hold_the_tasks_other_words_comes_first() {
    // `rg "style|theme"`: the function the task is about is not a hit by
    // its name, but its hits hold the task's words between them, one each;
    // elsewhere, single hits each hold two of them.
    let words = ["defaults", "parser", "styler", "apply"];
    let mut hits = String::new();
    for i in 0..240 {
        hits.push_str(&format!("pkg/mod{}.py:{}:    theme = style_{i}(value)\n", i % 24, i * 7 + 3));
        if i % 12 == 6 {
            let (a, b) = (words[i / 12 % 4], words[(i / 12 + 1) % 4]);
            hits.push_str(&format!("pkg/other{i}.py:{}:    style.{a}(theme, {b}=True)\n", i + 40));
        }
    }
    let function = [
        "pkg/console.py:1438:        style_on = style or self.defaults.style\n",
        "pkg/console.py:1442:            parsed = theme.parser(source)\n",
        "pkg/console.py:1462:        chosen = self.styler if style_on else None\n",
        "pkg/console.py:1464:            return chosen.apply(parsed)  # theme\n",
    ];
    hits.extend(function.iter().map(|l| l.to_string()));
    for i in 0..60 {
        hits.push_str(&format!("pkg/zeta{}.py:{}:    theme = style_z{i}(value)\n", i % 6, i * 5 + 1));
    }
    let task = "Where does render_text fall back to the defaults, and where does it apply the parser and the styler?";
    let kept = with_task(&hits, Kind::Search, 2048, task);
    for line in function {
        assert!(kept.contains(line), "{line} missing in\n{kept}");
    }
}

#[test]
fn a_search_hit_the_task_sets_aside_is_not_raised_by_its_hunk() {
    // `rg -n "deadline|shield" trio/` (tasks10-tune): the tests' hits hold
    // the task's words between them as the code's do, but the request sets
    // the tests aside. Raised by their hunks in full, they came before the
    // code that turns a relative deadline into an absolute one on entry.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/__test__/fixtures/tasks10-tune/o01-search-trio-relative-deadline-b/raw.log"
    );
    let hits = std::fs::read_to_string(path).unwrap();
    let task = "I want fail_after with a timeout that only starts counting when the scope is entered. Where does \
                CancelScope handle relative_deadline versus deadline, and what happens if both are set? Ignore the tests.";
    let kept = with_task(&hits, Kind::Search, 8192, task);
    for line in [
        "trio/_core/_run.py:622:            self._deadline = current_time() + self._relative_deadline\n",
        "trio/_core/_run.py:623:            self._relative_deadline = inf\n",
    ] {
        assert!(kept.contains(line), "{line} missing in\n{kept}");
    }
}

#[test]
fn the_path_every_patch_of_a_diff_is_under_names_none_of_them() {
    // `git log -p -- index.js`: every commit's patch is of index.js; the
    // request names it as the history's, and asks which commits refuse
    // `__proto__` keys.
    let mut log = String::new();
    for i in 0..12 {
        log.push_str(&format!("commit {i:040x}\nAuthor: A <a@example.com>\n\n    1.{i}.0\n\n"));
        log.push_str("diff --git a/index.js b/index.js\n--- a/index.js\n+++ b/index.js\n@@ -1,2 +1,2 @@\n");
        let change = if i % 4 == 1 { "if (key === '__proto__') return;" } else { "var o = obj;" };
        log.push_str(&format!("-    step({i});\n+    {change}\n"));
    }
    let text = utf16(&log);
    let index = index::LineIndex::new(&[Block::Text(&text)]).unwrap();
    let task = Task::new(&[&utf16("Going by this history of index.js, which releases touched __proto__?")]);
    let matches = task::Matches::find(&index, &task).unwrap();
    let holding = |m: &task::Matches, needle: &str| {
        m.lines().filter(|&k| String::from_utf16_lossy(index.line(k)).contains(needle)).count()
    };
    assert!(holding(&matches, "index.js") > 0, "index.js is a term found");
    let scope = task_plan::diff_scope(&index, &matches, &[Kind::Diff], &mut 0);
    assert_ne!(scope, 0);
    let matches = matches.without(scope).unwrap();
    // What is left to rank: the changes the request asks about, not the headers.
    assert_eq!(holding(&matches, "index.js"), 0);
    assert_eq!(holding(&matches, "__proto__"), 3);
    // A path only some patches are under names those.
    let mixed = log.replacen("diff --git a/index.js b/index.js", "diff --git a/lib/parse.js b/lib/parse.js", 1);
    let text = utf16(&mixed);
    let index = index::LineIndex::new(&[Block::Text(&text)]).unwrap();
    let matches = task::Matches::find(&index, &task).unwrap();
    assert_eq!(task_plan::diff_scope(&index, &matches, &[Kind::Diff], &mut 0), 0);
}

#[test]
fn asked_when_something_first_appeared_a_commit_logs_oldest_mention_is_kept() {
    // `git log --stat`, newest first: half the releases touch py.typed.
    let mut log = String::new();
    for i in (0..80).rev() {
        log.push_str(&format!(
            "commit {i:040x}\nAuthor: A <a@example.com>\n\n    1.{i}.0\n\n src/lib_{i}.py | 4 ++--\n"
        ));
        if i % 2 == 1 {
            log.push_str(&format!(" src/pkg/py.typed | {i} +\n"));
        }
        log.push_str(" 2 files changed\n\n");
    }
    let kept = with_task(&log, Kind::Diff, 2048, "Which release first shipped py.typed?");
    assert!(kept.contains(" src/pkg/py.typed | 1 +\n"), "{kept}");
    let kept = with_task(&log, Kind::Diff, 2048, "Which release last touched py.typed?");
    assert!(kept.contains(" src/pkg/py.typed | 79 +\n"), "{kept}");
}

#[test]
fn an_outlines_task_lines_take_the_room_they_need_before_its_tiers() {
    // A search whose hits all hold the task's rare word, far more of them
    // than 0.8 of the budget holds: each one kept is an answer, where the
    // outline's other files are not.
    let mut hits = String::new();
    for i in 0..400 {
        hits.push_str(&format!("src/other_{i:03}.rs:{i}:    let value = compute({i});\n"));
    }
    for i in 0..60 {
        hits.push_str(&format!(
            "src/retry.rs:{}:    backoff_jitter({i}, config.max_attempts_before_giving_up, config.base_delay_ms);\n",
            100 + i
        ));
    }
    let kept = with_task(&hits, Kind::Search, 4096, "where is backoff_jitter called?");
    let answers = kept.lines().filter(|l| l.contains("backoff_jitter(")).count();
    let cost: usize = kept.lines().filter(|l| l.contains("backoff_jitter(")).map(|l| l.len() + 1).sum();
    // More than 0.8 of the budget's room went to the task's lines.
    assert!(cost as f64 > 0.8 * 4096.0, "{answers} answers, {cost} code points\n{kept}");
}
