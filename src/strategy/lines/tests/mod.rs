//! Lines mode's tests: the contract on random and labelled inputs, the phases' choices.

mod findings;
mod floor;
mod outline;
mod runs;
mod task;
mod task_logs;
mod work;

use super::*;
use crate::config::PRUNE_MARKER_LEN;
use crate::content::{Piece, render_texts};
use crate::markers::expand;
use crate::text::utf16;
use proptest::prelude::*;

pub(super) fn budgets(threshold: u64) -> Budgets {
    Budgets::new(threshold, 0, 0).and_then(|b| b.with_keep(threshold)).unwrap()
}

pub(super) fn out(blocks: &[Block<'_>], p: &Pruned) -> String {
    render_texts(blocks, p).map(String::from_utf16_lossy).collect::<Vec<_>>().concat()
}

/// `text` pruned in lines mode at `budgets(budget)`, rendered, once its
/// kind is checked to be `kind`.
pub(super) fn pruned_as(text: &str, kind: Kind, budget: u64) -> String {
    let text = utf16(text);
    let blocks = [Block::Text(&text)];
    assert_eq!(kinds(&blocks), vec![kind]);
    out(&blocks, &prune(&blocks, &budgets(budget), &LineOptions::default()).unwrap())
}

fn log_with_failure_in_the_middle() -> String {
    let mut log = String::from("$ cargo test\n");
    for i in 0..400 {
        log.push_str(&format!("test module::case_{i} ... ok\n"));
    }
    log.push_str("thread 'module::case_400' panicked at src/lib.rs:12:5:\nassertion failed: left == right\n");
    for i in 401..800 {
        log.push_str(&format!("test module::case_{i} ... ok\n"));
    }
    log.push_str("test result: FAILED. 799 passed; 1 failed; 0 ignored\nerror: test failed, to rerun pass `--lib`\n");
    log
}

#[test]
fn keeps_the_failure_in_the_middle_within_budget() {
    let text = utf16(&log_with_failure_in_the_middle());
    let blocks = [Block::Text(&text)];
    let p = prune(&blocks, &budgets(2048), &LineOptions::default()).unwrap();
    let o = out(&blocks, &p);
    assert!(p.chars_after <= 2048 && (o.chars().count() as u64) == p.chars_after);
    for needle in
        ["panicked at src/lib.rs:12:5", "assertion failed", "test result: FAILED", "error: test failed", "$ cargo test"]
    {
        assert!(o.contains(needle), "{needle} missing from\n{o}");
    }
    assert!(o.contains("_lines_offloaded>>"));
    assert_eq!(expand(&utf16(&o), &p.recovered(&blocks)), text);
}

#[test]
fn a_failure_keeps_the_values_it_compared_before_other_causes() {
    // Distinct failures: names of different word counts are different shapes.
    let name =
        |i: usize| (0..=i).map(|w| char::from(b'a' + w as u8).to_string().repeat(3)).collect::<Vec<_>>().join(" ");
    let mut log = String::new();
    for i in 0..20 {
        log.push_str(&"PASS test/ok.test.js (12 ms)\n".repeat(30));
        log.push_str(&format!(
            "  \u{25CF} {}\n\n    expect(received).toBe(expected) // Object.is equality\n\n",
            name(i)
        ));
        log.push_str(&format!(
            "    Expected: {i}\n    Received: {}\n\n      at Object.<anonymous> (test/add.test.js:{i}:5)\n",
            i + 1
        ));
    }
    let text = utf16(&log);
    let blocks = [Block::Text(&text)];
    let p = prune(&blocks, &budgets(3000), &LineOptions::default()).unwrap();
    let o = out(&blocks, &p);
    let kept: Vec<usize> = (0..20).filter(|&i| o.contains(&format!("\u{25CF} {}\n", name(i)))).collect();
    // Not every failure fits, and each that does has its two value lines.
    assert!(kept.len() > 1 && kept.len() < 20, "{} kept", kept.len());
    for i in kept {
        assert!(o.contains(&format!("    Expected: {i}\n    Received: {}\n", i + 1)), "case {i}:\n{o}");
    }
}

#[test]
fn context_work_is_bounded_by_the_budget_not_by_context_lines() {
    // 20,000 lines, a distinct error every tenth between long lines, and
    // a context wider than the text: at most budgets the room left ends
    // between a cut's minimum and a whole line, where nothing more fits.
    let text: String = (0..20_000)
        .map(|i| {
            if i % 10 == 0 {
                format!("error: failure number {} here\n", "x".repeat(i % 97))
            } else {
                format!("{i} {}\n", "y".repeat(150))
            }
        })
        .collect();
    let t = utf16(&text);
    let blocks = [Block::Text(&t)];
    let index = LineIndex::new(&blocks).unwrap();
    let wide = LineOptions { context: 1_000_000, edge: 2, kind: None };
    for budget in (4000..4200).step_by(7) {
        let plan = super::plan::choose(&index, &budgets(budget), &wide, &[], &Default::default(), false).unwrap();
        assert!(
            plan.cost.attempts < 4 * index.line_count(),
            "{budget}: {} lines offered for {}",
            plan.cost.attempts,
            index.line_count()
        );
    }
}

#[test]
fn one_huge_line_is_cut_by_head_and_tail_and_retrievable() {
    let text = utf16(&format!("progress: {} done", "x".repeat(50_000)));
    let blocks = [Block::Text(&text)];
    let b = Budgets::new(8192, 4096, 1024).and_then(|b| b.with_keep(8192)).unwrap();
    let p = prune(&blocks, &b, &LineOptions::default()).unwrap();
    let o = out(&blocks, &p);
    assert!(p.chars_after <= 8192 && p.chars_after > 8000, "{}", p.chars_after);
    assert!(o.starts_with("progress: xxx") && o.ends_with("xx done") && o.contains("_chars_offloaded>>"));
    assert_eq!(expand(&utf16(&o), &p.recovered(&blocks)), text);
    // One line of JSON whose value is one long string: as much of its start as fits.
    let json = utf16(&format!("{{\"a\":\"{}\"}}", "x".repeat(50_000)));
    let blocks = [Block::Text(&json)];
    let p = prune(&blocks, &b, &LineOptions::default()).unwrap();
    let o = out(&blocks, &p);
    assert!(p.chars_after <= 8192 && p.chars_after > 8000, "{}", p.chars_after);
    assert!(o.starts_with("{\"a\":\"xxx") && o.ends_with("_chars_offloaded>>}"), "{o}");
    assert_eq!(expand(&utf16(&o), &p.recovered(&blocks)), json);
}

#[test]
fn falls_back_to_upstream_when_markers_cannot_fit() {
    let text = utf16(&"line\n".repeat(100));
    let blocks = [Block::Text(&text)];
    let b = Budgets::new(40, 0, 1).unwrap();
    let p = prune(&blocks, &b, &LineOptions::default()).unwrap();
    assert_eq!(out(&blocks, &p), format!("{}\n", crate::config::PRUNE_MARKER));
}

#[test]
fn rich_blocks_stay_in_place_and_each_text_is_planned() {
    let a = utf16(&log_with_failure_in_the_middle());
    let b = utf16(&"plain line without signal\n".repeat(300));
    let blocks = [Block::Text(&a), Block::Rich, Block::Text(&b)];
    let p = prune(&blocks, &budgets(4096), &LineOptions::default()).unwrap();
    assert!(matches!(p.pieces[1], Piece::Rich(1)));
    assert_eq!(p.pieces.len(), 3);
    assert!(p.chars_after <= 4096);
    let texts: Vec<Vec<u16>> = render_texts(&blocks, &p).map(<[u16]>::to_vec).collect();
    assert_eq!(expand(&texts[0], &p.recovered(&blocks)), a);
    assert_eq!(expand(&texts[1], &p.recovered(&blocks)), b);
}

fn arb_log() -> impl Strategy<Value = Vec<u16>> {
    let line = prop_oneof![
        6 => "[a-z ]{0,60}",
        1 => "error: [a-z ]{0,30}",
        1 => "FAILED [a-z_/]{0,40}",
        1 => "  at [a-z.]{0,20} \\([a-z/.]{1,20}:[0-9]{1,3}:[0-9]{1,2}\\)",
        1 => "Traceback \\(most recent call last\\):",
        1 => "[0-9]{1,3} passed, [0-9] failed",
        1 => "x{200,3000}",
        1 => "[\u{4e00}-\u{4e20}😀]{0,40}",
        // JSON report keys and brackets, a tool's line prefix.
        1 => " {0,12}\"(status|error|failureMessages|fullName|filePath|severity|missing|message)\": (\"failed\"|\"x\"|\\[|\\{|2|true|null|\"[a-z ]{0,300}\"),?",
        1 => " {0,12}[\\[\\]{},]{1,2}",
        1 => "(==|--|\\*\\*)[0-9]{1,5}(==|--|\\*\\*) {0,2}[A-Za-z ]{0,30}",
        1 => "INTERNALERROR> [a-z ]{0,30}",
    ];
    let lines = (prop::collection::vec(line, 0..200), any::<bool>(), prop::collection::vec(0xD800u16..0xE000, 0..3));
    // A fifth of the texts open and close a JSON value, so they are read as JSON.
    (lines, prop::bool::weighted(0.2)).prop_map(|((lines, trailing_newline, lone), json)| {
        let mut text = lines.join("\n");
        if json {
            text = format!("{{\n{text}\n}}");
        }
        if trailing_newline {
            text.push('\n');
        }
        let mut units = utf16(&text);
        for (i, u) in lone.into_iter().enumerate() {
            let at = (i * 7919) % (units.len() + 1);
            units.insert(at, u);
        }
        units
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]
    #[test]
    fn budget_and_round_trip_hold(
        text in arb_log(),
        extra in prop::option::of(arb_log()),
        threshold in 40u64..6000,
        keep_at in 0u64..=100,
        head in 0u64..4,
        context in 0usize..4,
        edge in 0usize..4,
    ) {
        let keep = PRUNE_MARKER_LEN + (threshold - PRUNE_MARKER_LEN) * keep_at / 100;
        let b = Budgets::new(threshold, head.min(threshold - PRUNE_MARKER_LEN), 0).and_then(|b| b.with_keep(keep)).unwrap();
        let mut blocks = vec![Block::Text(&text)];
        if let Some(extra) = extra.as_deref() {
            blocks.push(Block::Rich);
            blocks.push(Block::Text(extra));
        }
        crate::guarantees::check_lines(&blocks, &b, &LineOptions { context, edge, kind: None }).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn context_lines_zero_keeps_no_context_lines() {
    let text = utf16(&log_with_failure_in_the_middle());
    for context in [0, 2] {
        let mut context_rows = 0;
        let options = LineOptions { context, edge: 2, ..LineOptions::default() };
        assert!(explain(&text, &budgets(4096), &options, &Task::default(), |_, r| context_rows +=
            usize::from(r.reason == Some(Reason::Context))));
        assert_eq!(context_rows == 0, context == 0, "contextLines {context}: {context_rows} context lines");
    }
}

#[test]
fn a_line_within_the_cap_is_never_cut_just_to_fill() {
    // No failure in it: every kept line fills; all are within the cap.
    let log: String = (0..1000).map(|i| format!("step {i:04} {}\n", "x".repeat(140))).collect();
    let text = utf16(&log);
    let blocks = [Block::Text(&text)];
    for budget in [2048, 4096, 5000] {
        let p = prune(&blocks, &budgets(budget), &LineOptions::default()).unwrap();
        let o = out(&blocks, &p);
        assert!(!o.contains("_chars_offloaded"), "budget {budget}: a line was cut to fill\n{o}");
        assert!(o.lines().filter(|l| l.starts_with("step ")).all(|l| l.len() == 150), "budget {budget}");
    }
}

#[test]
fn a_failure_in_a_step_the_job_went_past_comes_after_the_failing_steps_own() {
    let ts = |i: usize| format!("2026-04-22T16:{:02}:{:02}.0000000Z ", i / 60 % 60, i % 60);
    let mut log = String::new();
    // The set-up step prints a traceback and goes on; the test step fails the job.
    log.push_str(&format!("{}##[group]Run pip install -e .\n", ts(0)));
    for i in 0..300 {
        log.push_str(&format!("{}Collecting package_{i}\n", ts(1 + i)));
    }
    log.push_str(&format!("{}Traceback (most recent call last):\n", ts(301)));
    for i in 0..6 {
        log.push_str(&format!(
            "{}  File \"/tmp/build-env/lib/setuptools/cmd_{i}.py\", line {i}, in run\n",
            ts(302 + i)
        ));
        log.push_str(&format!("{}    self.run_command_{i}()\n", ts(302 + i)));
    }
    log.push_str(&format!(
        "{}FileNotFoundError: [Errno 2] No such file or directory: '/tmp/build-env/version'\n",
        ts(310)
    ));
    // More of what the set-up step printed and got past: each says something else.
    for (i, what) in ["wheel", "sdist", "egg info", "metadata", "license file", "entry points"].iter().enumerate() {
        let padding = "x".repeat(60 + 10 * i);
        log.push_str(&format!("{}error: could not build the {what} of package_{i}: {padding}\n", ts(310)));
    }
    for i in 0..300 {
        log.push_str(&format!("{}Installing collected package_{i}\n", ts(311 + i)));
    }
    log.push_str(&format!("{}##[endgroup]\n{}##[group]Run pytest\n", ts(700), ts(701)));
    for i in 0..300 {
        log.push_str(&format!("{}tests/test_mod.py::test_ok_{i} PASSED\n", ts(702 + i)));
    }
    log.push_str(&format!("{}ZeroDivisionError: division by zero in tests/test_mod.py:41\n", ts(1100)));
    for i in 0..300 {
        log.push_str(&format!("{}tests/test_more.py::test_ok_{i} PASSED\n", ts(1101 + i)));
    }
    log.push_str(&format!("{}##[error]Process completed with exit code 1.\n", ts(1500)));
    let text = utf16(&log);
    let blocks = [Block::Text(&text)];
    let o = out(&blocks, &prune(&blocks, &budgets(1024), &LineOptions::default()).unwrap());
    assert!(o.contains("ZeroDivisionError: division by zero"), "the failing step's failure is missing\n{o}");
}

#[test]
fn a_ci_runners_failing_step_is_named_with_its_verdict() {
    let ts = |i: usize| format!("2026-04-22T16:{:02}:{:02}.0000000Z ", i / 60 % 60, i % 60);
    let mut log = String::new();
    for (s, step) in ["actions/checkout@v4", "npm ci", "make check"].iter().enumerate() {
        log.push_str(&format!("{}##[group]Run {step}\n{}##[endgroup]\n", ts(s * 1000), ts(s * 1000 + 1)));
        for i in 0..900 {
            log.push_str(&format!("{}step {s} output line {i} all fine\n", ts(s * 1000 + 2 + i)));
        }
    }
    log.push_str(&format!("{}##[error]Process completed with exit code 2.\n", ts(3999)));
    for i in 0..40 {
        log.push_str(&format!("{}Post job cleanup {i}\n", ts(4000 + i)));
    }
    let text = utf16(&log);
    let blocks = [Block::Text(&text)];
    for budget in [2048, 4096] {
        let o = out(&blocks, &prune(&blocks, &budgets(budget), &LineOptions::default()).unwrap());
        assert!(o.contains("##[group]Run make check\n"), "budget {budget}: the failing step is missing\n{o}");
        assert!(o.contains("##[error]Process completed with exit code 2."), "budget {budget}");
    }
}

#[test]
fn a_failures_subject_named_early_in_the_log_is_kept() {
    // A resolver fetches every package first, then fails on one of them.
    let mut log = String::from("npm verbose cli node npm\n");
    for i in 0..300 {
        let spec = if i == 40 { "leftpad@^5.0.0".to_string() } else { format!("pkg{i}@^{}.0.0", i % 7 + 1) };
        let name = spec.split('@').next().unwrap_or_default().to_string();
        log.push_str(&format!(
            "npm silly fetch manifest {spec}\nnpm http fetch GET 200 https://registry.example/{name} 12ms\n"
        ));
    }
    log.push_str("npm error code ETARGET\nnpm error notarget No matching version found for leftpad@^5.0.0.\n");
    log.push_str("npm verbose exit 1\n");
    let text = utf16(&log);
    let blocks = [Block::Text(&text)];
    for budget in [2048, 4096] {
        let p = prune(&blocks, &budgets(budget), &LineOptions::default()).unwrap();
        let o = out(&blocks, &p);
        assert!(
            o.contains("npm silly fetch manifest leftpad@^5.0.0\n"),
            "budget {budget}: the fetch is missing from\n{o}"
        );
    }
}

proptest! {
    /// The start is the first lines: a line kept as part of it follows
    /// only kept lines.
    #[test]
    fn the_start_is_the_first_lines(text in arb_log(), threshold in 200u64..4000) {
        let mut kept_so_far = true;
        let mut gap_before_start = None;
        let mut k = 0;
        explain(&text, &budgets(threshold), &LineOptions::default(), &Task::default(), |_, r| {
            if r.reason == Some(Reason::Start) && !kept_so_far && gap_before_start.is_none() {
                gap_before_start = Some(k);
            }
            kept_so_far &= r.reason.is_some();
            k += 1;
        });
        prop_assert_eq!(gap_before_start, None);
    }
}

#[test]
fn the_last_lines_stay_whatever_the_length_of_the_first() {
    // A first line of one enormous minified bundle (or JSON value), then
    // what was written: a line longer than a marker, so only a kept line shows it.
    let last = "wrote dist/bundle.min.js (2.0 MB), dist/bundle.min.js.map (6.1 MB) and dist/stats.json in 3.2s\n";
    let big = "x".repeat(2_000_000);
    for text in [format!("{big}\n{last}"), format!("{{\"a\":\"{big}\"}}\n{last}")] {
        let t = utf16(&text);
        let blocks = [Block::Text(&t)];
        for budget in [2048, 5159] {
            let p = prune(&blocks, &budgets(budget), &LineOptions::default()).unwrap();
            let o = out(&blocks, &p);
            assert!(o.ends_with(&format!("\n{last}")), "{o}");
            assert_eq!(expand(&utf16(&o), &p.recovered(&blocks)), t);
        }
    }
}

#[test]
fn a_listings_and_a_json_documents_last_lines_stay() {
    // A sorted find: what a blind tail shows (its last paths) is kept too.
    let mut find = String::from(".\n");
    for d in 0..40 {
        for f in 0..60 {
            find.push_str(&format!("./pkg/module_{d:02}/file_{f:03}.py\n"));
        }
    }
    find.push_str("./tests/test_last_a.py\n./tests/test_last_b.py\n./tests/test_last_c.py\n");
    // A package's JSON: its closing keys.
    let mut json = String::from("{\n  \"name\": \"pkg\",\n  \"versions\": [\n");
    for v in 0..1500 {
        json.push_str(&format!("    \"1.{v}.0\",\n"));
    }
    json.push_str("    \"2.0.0\"\n  ],\n  \"license\": \"MIT\",\n  \"engines\": {\"node\": \">=18\"},\n  \"homepage\": \"https://example.com/pkg\"\n}\n");
    for (text, kind, last) in
        [(&find, Kind::Listing, "./pkg/module_39/file_058.py"), (&json, Kind::Json, "\"1.1499.0\"")]
    {
        for budget in [2048, 4096] {
            let o = pruned_as(text, kind, budget);
            assert!(o.contains(last), "{last} missing at {budget} from\n{o}");
        }
    }
}

#[test]
fn a_json_documents_last_key_stays_under_the_lines_that_close_it() {
    // A lock file whose last package closes with a deep map: its first key
    // is a dozen lines from the end, deeper than the outline reaches, where
    // a blind tail of the same size shows it.
    let mut json = String::from("{\n  \"name\": \"app\",\n  \"packages\": {\n");
    for p in 0..400 {
        json.push_str(&format!(
            "    \"node_modules/pkg-{p:03}\": {{\n      \"version\": \"1.{p}.0\",\n      \"resolved\": \"https://registry.npmjs.org/pkg-{p:03}/-/pkg-{p:03}-1.{p}.0.tgz\"\n    }},\n"
        ));
    }
    json.push_str("    \"node_modules/zz-last\": {\n      \"version\": \"1.1.2\",\n      \"funding\": {\n");
    json.push_str("        \"closing-key\": \"what a blind tail shows\",\n");
    for i in 0..6 {
        json.push_str(&format!(
            "        \"field-{i}\": \"a value of the closing package, long enough to take a line {i}\",\n"
        ));
    }
    json.push_str("        \"end\": true\n      }\n    }\n  }\n}\n");
    for budget in [4096, 8192] {
        let o = pruned_as(&json, Kind::Json, budget);
        assert!(o.contains("\"closing-key\""), "the closing key missing at {budget} from\n{o}");
    }
}

#[test]
fn a_table_rows_failure_word_keeps_the_row_not_its_neighbours() {
    // A package table with no verdict: one description holds a failure
    // word. Its neighbours are other packages, not what explains it; the
    // same word on a line of its own keeps its neighbours as before.
    let row =
        |i: usize, desc: &str| format!("ii  pkg-{i:04}{}  1.{i}-1{}  amd64  {desc}\n", " ".repeat(30), " ".repeat(20));
    let table: String =
        (0..600).map(|i| row(i, if i == 300 { "a fast memory error detector" } else { "a plain library" })).collect();
    let prose: String = (0..600)
        .map(|i| if i == 300 { "the fetch failed, retrying\n".to_string() } else { format!("step {i} done\n") })
        .collect();
    for (text, want_context) in [(table, false), (prose, true)] {
        let text = utf16(&text);
        let mut context_rows = 0;
        assert!(explain(&text, &budgets(4096), &LineOptions::default(), &Task::default(), |_, r| context_rows +=
            usize::from(r.reason == Some(Reason::Context))));
        assert_eq!(context_rows > 0, want_context, "{context_rows} context lines");
    }
}

#[test]
fn a_repeat_kept_with_room_left_keeps_what_explains_it_before_neighbours() {
    // A jest run: hundreds of passing files, one failing file with two
    // failures of one template (`● suite › test`), each with the values
    // it compared. Both fit: the second's diff comes before more passes.
    let pass = |i: usize| format!("PASS tests/names/colour-{i:03}.test.js\n");
    let mut log: String = (0..150).map(pass).collect();
    log.push_str("FAIL tests/names/olive.test.js\n");
    for (test, want, got) in [("hex string", "\"#556b2f\"", "\"#55b62f\""), ("rgb channels", "107", "182")] {
        log.push_str(&format!("  ● named color olive › {test}\n\n    expect(received).toEqual(expected)\n\n"));
        log.push_str("    - Expected  - 1\n    + Received  + 1\n\n      Object {\n        \"a\": 1,\n");
        log.push_str(&format!("    -   \"g\": {want},\n    +   \"g\": {got},\n        \"r\": 85,\n      }}\n\n"));
        log.push_str("      at Object.toEqual (tests/names/olive.test.js:4:76)\n\n");
    }
    log.extend((150..300).map(pass));
    log.push_str("Tests:       2 failed, 298 passed, 300 total\n");
    let kept = pruned_as(&log, Kind::Log, 4096);
    assert!(kept.contains("+   \"g\": 182,"), "{kept}");
}

#[test]
fn small_objects_of_a_json_document_are_whole_before_a_long_maps_samples() {
    // `npm view --json`: hundreds of release times, then the small objects
    // asked about (peers, engines, dist), then more keys.
    let mut doc = String::from("{\n  \"name\": \"pkg\",\n  \"time\": {\n");
    doc.extend((0..400).map(|i| format!("    \"1.{i}.0\": \"2026-01-01T00:00:{:02}.000Z\",\n", i % 60)));
    doc.push_str("    \"2.0.0\": \"2026-02-01T00:00:00.000Z\"\n  },\n");
    let entry = |o: usize, j: usize| format!("    \"key-{o}-{j}\": \"value of key {j} in object {o}, long enough\",\n");
    for o in 0..8 {
        doc.push_str(&format!("  \"object-{o}\": {{\n"));
        doc.extend((0..3).map(|j| entry(o, j)));
        doc.push_str(&format!("    \"last-{o}\": true\n  }},\n"));
    }
    doc.push_str("  \"scripts\": {\n");
    doc.extend((0..60).map(|i| format!("    \"task-{i}\": \"node scripts/task-{i}.js --verbose\",\n")));
    doc.push_str("    \"last\": \"true\"\n  },\n  \"license\": \"MIT\"\n}\n");
    let kept = pruned_as(&doc, Kind::Json, 4096);
    for o in 0..8 {
        for j in 0..3 {
            assert!(kept.contains(&entry(o, j)), "key-{o}-{j}\n{kept}");
        }
    }
}
