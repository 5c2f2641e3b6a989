//! Where a task's terms are found in an output and what they weigh there.

use super::super::matches::{CHUNK, PART_WITH_TERM};
use super::*;

#[test]
fn a_term_counts_where_it_starts_a_word_or_a_camel_case_part() {
    let mut text = lines_of(40, |i| format!("line {i} of nothing\n"));
    text.push_str("let d = parseDate(x)\n"); // 40
    text.push_str("update the record\n"); // 41: `date` inside `update` is no match
    text.push_str("date_of(birth)\n"); // 42
    let (_, found) = matches(&text, "date");
    let (scores, ranked) = found.unwrap();
    assert!(scores[40] > 0.0 && scores[42] > 0.0);
    assert_eq!(scores[41], 0.0);
    assert_eq!(ranked, [40, 42]);
}

#[test]
fn a_common_term_weighs_nothing_and_a_rare_one_most() {
    // `error` on three lines in four is common; `ENOENT` on one line is rare.
    let mut text = String::new();
    for i in 0..200 {
        if i % 4 != 0 {
            text.push_str(&format!("error: step {i} failed\n"));
        } else {
            text.push_str(&format!("ok {i}\n"));
        }
    }
    text.push_str("error: ENOENT: no such file, open 'config.json'\n");
    let (_, found) = matches(&text, "the error ENOENT on config");
    let (scores, ranked) = found.unwrap();
    assert!(scores[200] > (201f64 / 2.0).ln(), "one line in 201: {}", scores[200]);
    assert_eq!(scores[1], 0.0, "a term on more than half the lines weighs nothing");
    assert_eq!(ranked, [200]);
    // Nothing of weight found: no matches at all, so the plan is the plain one.
    let (_, none) = matches(&text, "error");
    assert!(none.is_none());
}

#[test]
fn a_match_across_the_chunk_edge_is_found_once() {
    // A line long enough that the term straddles the end of the first chunk.
    let mut text = lines_of(20, |i| format!("filler {i}\n"));
    let pad = CHUNK - text.len() - 3;
    text.push_str(&" ".repeat(pad));
    text.push_str("needle here\n");
    for i in 0..20 {
        text.push_str(&format!("more {i}\n"));
    }
    let (units, found) = matches(&text, "needle");
    let (scores, ranked) = found.unwrap();
    assert_eq!(ranked, [20]);
    assert!(scores[20] > 0.0);
    assert!(units.len() > CHUNK);
}

#[test]
fn matching_is_linear_in_the_text_and_its_matches() {
    // Every line holds the term: one step per match, whatever the task's length.
    let text: String = (0..5000).map(|i| format!("parse {i}\n")).collect();
    let units = utf16(&text);
    let blocks = [Block::Text(&units)];
    let index = LineIndex::new(&blocks).unwrap();
    let long_task: String = (0..2000).map(|i| format!("parse word{i} ")).collect();
    let t = task(&long_task);
    // Every line holds `parse`: common, no weight, so no matches of weight.
    assert!(Matches::find(&index, &t).is_none());
    let rare = task("parse 4999");
    let m = Matches::find(&index, &rare).unwrap();
    assert!(m.steps <= 5000 * 2, "steps {}", m.steps);
}

#[test]
fn a_word_that_opens_its_lines_names_their_shape_and_weighs_nothing() {
    // `commit` opens 20 of 200 lines, as in a `git log`: rare enough to
    // weigh, but it says what the lines are, not what was asked for.
    let mut text = String::new();
    for i in 0..20 {
        text.push_str(&format!("commit {i:040x}\nAuthor: a\nDate:   today\n\n    change number {i}\n"));
        for j in 0..5 {
            text.push_str(&format!(" src/file{i}_{j}.rs | 2 +-\n"));
        }
    }
    text.push_str("    the commit that fixed the parser\n");
    let (_, found) = matches(&text, "which commit fixed the parser");
    let (scores, ranked) = found.unwrap();
    assert_eq!(scores[0], 0.0, "`commit` opening its lines weighs nothing");
    assert_eq!(ranked, [200], "only the line with `fixed` and `parser`");
}

#[test]
fn a_term_written_as_code_weighs_more_than_a_word_of_prose_as_rare() {
    let mut text: String = (0..100).map(|i| format!("line {i} of filler\n")).collect();
    text.push_str("the history of the project\n"); // 100
    text.push_str(" .ci/run | 5 ++---\n"); // 101
    let (_, found) = matches(&text, "the history of .ci/run");
    let (scores, ranked) = found.unwrap();
    // `ci/run` and its part `run` against `history`, each on one line.
    assert!(scores[101] > 2.0 * scores[100], "{} vs {}", scores[101], scores[100]);
    assert_eq!(ranked, [101, 100]);
}

#[test]
fn a_line_holding_what_the_request_sets_aside_ranks_below_its_equals() {
    // Definitions of `validate_items` in the library and in its tests, the
    // tests' first; and one line of `test_version` that is no definition.
    let mut text = lines_of(60, |i| format!("lib/other_{i}.py:{i}: x = {i}\n"));
    text.push_str("tests/test_drafts.py:10:def validate_items(case):\n"); // 60
    text.push_str("lib/drafts.py:20:def validate_items(instance):\n"); // 61
    text.push_str("tests/test_version.py:3:import sys\n"); // 62
    let asked = "where is validate_items defined";
    let (_, found) = matches(&text, asked);
    let (scores, ranked) = found.unwrap();
    assert_eq!(scores[60], scores[61]);
    assert_eq!(ranked, [60, 61], "without the aside, the earlier first");
    // "(not the tests)": the library's definition first; a line holding
    // only what is set aside is not raised at all.
    let (_, found) = matches(&text, &format!("{asked} (not the tests)"));
    let (scores, ranked) = found.unwrap();
    assert!(scores[60] < scores[61], "{scores:?}");
    assert_eq!(ranked, [61, 60]);
    assert_eq!(scores[62], 0.0);
    // A group of several words sets a line aside where it holds half of
    // them or more: "arguments" alone is not "missing type arguments".
    let mut text = lines_of(60, |i| format!("m.py:{i}: note: see {i}\n"));
    text.push_str("m.py:70: error: Missing type arguments for generic Mapping\n"); // 60
    text.push_str("m.py:71: error: Too many arguments for Mapping\n"); // 61
    let (_, found) = matches(&text, "Apart from missing type arguments, what errors does Mapping raise in m.py?");
    let (scores, _) = found.unwrap();
    assert!(scores[60] < scores[61], "{scores:?}");
    assert!(scores[61] > 0.0);
}

#[test]
fn failures_the_request_sets_aside_lead_after_every_other() {
    // A failure the request asks about, one holding none of its words, and
    // one it sets aside that holds the words it asks about too.
    let mut text = lines_of(60, |i| format!("tests/test_misc.py::test_{i} PASSED\n"));
    text.push_str("FAILED tests/test_keygen.py::test_keygen_case_order\n"); // 60
    text.push_str("ERROR tests/test_other.py::test_unrelated\n"); // 61
    text.push_str("FAILED tests/test_sorted.py::test_case_order\n"); // 62
    let asked = "Why do the failing tests get the case order wrong? Ignore the keygen failures.";
    let found = find(&text, asked).unwrap();
    let mut failures = vec![60, 61, 62];
    found.lead_with_matched(&mut failures);
    assert_eq!(failures, [62, 61, 60]);
}

#[test]
fn a_term_inside_a_longer_one_is_found_with_it() {
    let mut text: String = (0..100).map(|i| format!("line {i} of filler\n")).collect();
    text.push_str("requests/models.py:549: error: Unsupported target\n"); // 100
    text.push_str("see models.py for more\n"); // 101
    let units = utf16(&text);
    let blocks = [Block::Text(&units)];
    let index = LineIndex::new(&blocks).unwrap();
    let task = Task::new(&[&utf16("requests/models.py models.py")]);
    let names: Vec<&str> = task.terms().collect();
    assert_eq!(names, ["requests/models.py", "request", "model", "models.py"]);
    let m = Matches::find(&index, &task).unwrap();
    // Line 100 holds all four (the longest match hides the others), line 101 two.
    assert_eq!(m.terms_on(100), 0b1111);
    assert_eq!(m.terms_on(101), 0b1100);
    // The parts found with a term count for half: one name, not four.
    let w = |i: u32| m.weight_of(1 << i);
    assert!(w(0) > 0.0 && w(1) > 0.0 && w(2) > 0.0 && w(3) > 0.0);
    let once = w(0) + PART_WITH_TERM * (w(1) + w(2) + w(3));
    assert!((m.score(100) - once).abs() < 1e-9, "{} vs {once}", m.score(100));
    assert!(m.score(100) < w(0) + w(1) + w(2) + w(3) - 1e-9, "the parts counted in full");
    assert!((m.score(101) - (w(3) + PART_WITH_TERM * w(2))).abs() < 1e-9);
}

#[test]
fn a_term_on_most_lines_of_the_first_chunk_is_no_longer_searched() {
    // `alpha` on every line of the first chunk, then never: rare over the
    // whole text, but the output's own word where it starts.
    let mut text: String = (0..6000).map(|i| format!("alpha step {i:06}\n")).collect();
    assert!(text.len() > CHUNK);
    text.extend((0..200_000).map(|i| format!("beta {i:06}\n")));
    text.push_str("gamma ray\n");
    let units = utf16(&text);
    let blocks = [Block::Text(&units)];
    let index = LineIndex::new(&blocks).unwrap();
    let m = Matches::find(&index, &task("alpha gamma")).unwrap();
    assert_eq!(m.score(0), 0.0);
    assert!(m.score(index.line_count() - 1) > 0.0);
    // Searched no more after the first chunk: its matches stop there.
    assert!(m.steps < 6000, "{} steps", m.steps);
}

#[test]
fn when_every_term_is_the_first_chunks_own_no_later_text_is_searched() {
    // Every term on every line of the first text's first chunk: no term is
    // searched for after it, in that text or the next.
    let first: String = (0..6000).map(|i| format!("alpha step {i:06}\n")).collect();
    assert!(first.len() > CHUNK);
    let (first, second) = (utf16(&first), utf16("a line\nalpha in the second block\n"));
    let blocks = [Block::Text(&first), Block::Text(&second)];
    let index = LineIndex::new(&blocks).unwrap();
    // The first chunk's `alpha`s were read, and weigh nothing: no line of weight.
    assert!(Matches::find(&index, &task("alpha")).is_none());
}

#[test]
fn a_long_prose_word_is_found_by_its_short_forms_as_whole_words() {
    let mut text = lines_of(40, |i| format!("node_modules/pkg/file_{i}.js\n"));
    text.push_str("node_modules/date-fns/locale/ja-Hira.cjs\n"); // 40: `Hira`, a whole part
    text.push_str("const hirable = true\n"); // 41: `hira` goes on into a longer word
    text.push_str("let authConfig = load()\n"); // 42: `auth` and `config`, camelCase parts
    text.push_str("the author wrote it\n"); // 43: `auth` goes on
    let (_, found) = matches(&text, "the Hiragana locale, and where its configuration and authentication are read");
    let (scores, _) = found.unwrap();
    assert!(scores[40] > 0.0, "Hira for Hiragana");
    assert_eq!(scores[41], 0.0, "not inside a longer word");
    assert!(scores[42] > 0.0, "auth and config");
    assert_eq!(scores[43], 0.0, "author is not auth");
    // A term written as code has none, nor do its parts: `configuration2`
    // and the `configuration` of `settings/configuration.py` are not `config`.
    for code in ["configuration2", "settings/configuration.py"] {
        let (_, found) = matches(&text, code);
        assert!(found.is_none_or(|(scores, _)| scores[42] == 0.0), "{code}");
    }
}

#[test]
fn a_files_extension_is_a_term_where_it_ends_a_name_and_a_method_called_is_not() {
    // `.so` alone is an extension (too short as a word, it was no term at
    // all); `.shift(` is a method called, read as the word `shift`.
    assert_eq!(
        terms("list every .so, the .pyi stubs and arrow.utcnow().shift(days)"),
        [".so", ".pyi", "stub", "arrow.utcnow", "arrow", "utcnow", "shift", "day"]
    );
    let mut text = lines_of(40, |i| format!("-rw-r--r-- 1 root root {i} mod{i}.py\n"));
    text.push_str("-rwxr-xr-x 1 root root 600104 _image.cpython-311-x86_64-linux-gnu.so\n"); // 40
    text.push_str("lrwxrwxrwx 1 root root 15 libz.so.1 -> libz.so.1.3\n"); // 41
    text.push_str("-rw-r--r-- 1 root root 812 resort.sort\n"); // 42: `.so` starts `.sort`
    text.push_str("-rw-r--r-- 1 root root 90 also_this.txt\n"); // 43
    let (_, found) = matches(&text, "which .so files are heavy");
    let (scores, ranked) = found.unwrap();
    assert!(scores[40] > 0.0 && scores[41] > 0.0);
    assert_eq!((scores[42], scores[43]), (0.0, 0.0));
    assert_eq!(ranked, [40, 41]);
}

#[test]
fn a_two_letter_name_written_with_a_capital_is_a_term() {
    // `Qt`, `Tk` and `IO` are names; `In`, `If`, `CI` and `AM` are words.
    assert_eq!(
        terms("Which Qt backends, if any, and no Tk? In CI we time IO at 9 AM"),
        ["qt", "backend", "tk", "time", "io"]
    );
    let mut text = lines_of(40, |i| format!("-rw-r--r-- 1 root root {i} backend_agg{i}.py\n"));
    text.push_str("-rw-r--r-- 1 root root 46470 backend_qt.py\n"); // 40
    text.push_str("-rw-r--r-- 1 root root 3413 backend_qtagg.py\n"); // 41
    text.push_str("-rw-r--r-- 1 root root 5381 qt_compat.py\n"); // 42
    text.push_str("-rw-r--r-- 1 root root 90 quantity.py\n"); // 43
    let (_, found) = matches(&text, "the Qt backend modules");
    let (scores, _) = found.unwrap();
    assert!(scores[40] > 0.0 && scores[41] > 0.0 && scores[42] > 0.0);
    assert_eq!(scores[43], 0.0);
}

#[test]
fn a_range_of_line_numbers_finds_the_places_in_it() {
    // Years and versions are no ranges of lines worth reading as one:
    // `2.0-3.1` is not two numbers, `1-99999` spans too many lines.
    assert_eq!(terms("fields.py around lines 1650-1720"), ["fields.py", "field", "around", "1650-1720"]);
    assert_eq!(terms("from 2.0-3.1 and 1-99999"), ["2.0-3.1", "1-99999", "99999"]);
    let mut text =
        lines_of(60, |i| format!("src/fields.py:{}: error: Function is missing a type annotation\n", 100 + i * 40));
    text.push_str("src/fields.py:1656: error: Too many arguments for \"Mapping\"\n"); // 60
    text.push_str("src/fields.py(1720,4): error TS2345: Argument of type\n"); // 61: a type checker's place
    text.push_str("src/fields.py:1721: error: Statement is unreachable\n"); // 62: past the range
    text.push_str("see 1650 in the docs\n"); // 63: a number, not a place
    let (_, found) = matches(&text, "what does mypy report in fields.py lines 1650-1720?");
    let (scores, ranked) = found.unwrap();
    // 1660 and 1700 of the flood are in it too (lines 39 and 40).
    let within: Vec<usize> = ranked.iter().copied().filter(|&k| scores[k] > scores[0]).collect();
    assert_eq!(within, [39, 40, 60, 61]);
    assert_eq!(scores[62], scores[0]);
    assert_eq!(scores[63], 0.0);
}

#[test]
fn a_quoted_phrase_is_a_term_found_whole() {
    // Quoted text of two words or more is one term, beside its words.
    let t = terms("the parser says 'Map keys must be unique' on a merge key, and \"Tabs are not allowed\".");
    assert!(t.contains(&"map keys must be unique".to_owned()), "{t:?}");
    assert!(t.contains(&"tabs are not allowed".to_owned()), "{t:?}");
    assert!(t.contains(&"unique".to_owned()) && t.contains(&"tab".to_owned()), "{t:?}");
    // One that opens with a sign or a dot too.
    assert!(terms("ms('-3 days') fails").contains(&"-3 days".to_owned()));
    // Not a word in quotes, an apostrophe, or text with a part elided.
    for request in
        ["the 'title' field", "don't parse it, it's fine", "get ProtocolError('Connection broken: Read(...)')"]
    {
        assert!(terms(request).iter().all(|w| !w.contains(' ')), "{request}: {:?}", terms(request));
    }
    // Found whole, the line holding it ranks above those holding its words apart.
    let mut text = lines_of(60, |i| format!("src/other_{i}.ts:{i}: const x = {i}\n"));
    text.push_str("src/compose.ts:10: // keys of a map must be unique, see below\n"); // 60
    text.push_str("src/compose.ts:20: onError(MAP_KEYS, 'Map keys must be unique')\n"); // 61
    let (_, found) = matches(&text, "where is 'Map keys must be unique' raised?");
    let (scores, ranked) = found.unwrap();
    assert!(scores[61] > scores[60], "{scores:?}");
    assert_eq!(ranked[0], 61);
}

#[test]
fn a_file_the_task_names_is_not_found_inside_another_files_name() {
    // `validate.py` is not `test_validate.py` nor `pre-validate.py`; its
    // parts still are where they are.
    let mut text = lines_of(60, |i| format!("tests/test_validate.py::test_case_{i} PASSED\n"));
    text.push_str("src/pre-validate.py:3: ok\n"); // 60
    text.push_str("src/pkg/validate.py:444: ValidationError\n"); // 61
    let (_, found) = matches(&text, "my refactor of validate.py broke it");
    let (scores, ranked) = found.unwrap();
    assert!(scores[61] > scores[0] && scores[61] > scores[60], "{} {} {}", scores[61], scores[0], scores[60]);
    assert_eq!(ranked[0], 61);
}

#[test]
fn a_module_the_task_names_by_its_path_outranks_a_docstring_of_its_words() {
    // Another implementation's docstring lists the options the request
    // names; the named module's own line holds one of them.
    let mut text = lines_of(60, |i| format!("ws/util/mod_{i}.py:{i}: wait(timeout={i})\n"));
    text.push_str("ws/legacy/server.py:50: see ``ping_interval``, ``ping_timeout``, ``close_timeout``\n"); // 60
    text.push_str("ws/asyncio/client.py:281:     ping_timeout: float = 20,\n"); // 61
    text.push_str("ws/sync/client.py:90:     ping_timeout: float = 20,\n"); // 62
    let task = "In ws.asyncio.client.connect, what do ping_interval, ping_timeout and close_timeout default to?";
    let (_, found) = matches(&text, task);
    let (scores, ranked) = found.unwrap();
    assert!(scores[61] > scores[60], "{} vs {}", scores[61], scores[60]);
    assert_eq!(ranked[0], 61);
}
