//! The floor (see [`floor`](crate::strategy::lines::floor)): what it asks
//! of a plan, and that every plan on every labelled fixture keeps it.

use super::*;
use crate::config::PRUNE_MARKER_LEN;
use crate::content::render_texts;
use crate::strategy::lines::floor::Floor;
use crate::strategy::lines::index::LineIndex;
use crate::text::utf16;

/// The floor on every labelled fixture at the recall budgets, head and
/// tail in upstream's 4:1 ratio (as the scorer's blind cut): the plan shows,
/// of each evidence class, as much distinct evidence as the better blind
/// cut. The check reads the text itself (`guarantees::check_floor`).
#[test]
fn floor_holds_on_every_fixture() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("__test__").join("fixtures");
    let mut logs: Vec<std::path::PathBuf> = Vec::new();
    for corpus in std::fs::read_dir(&root).unwrap().filter_map(Result::ok).filter(|e| e.path().is_dir()) {
        for case in std::fs::read_dir(corpus.path()).unwrap().filter_map(Result::ok) {
            let raw = case.path().join("raw.log");
            if raw.is_file() {
                logs.push(raw);
            }
        }
    }
    logs.sort();
    assert!(logs.len() >= 200, "{} fixtures", logs.len());
    let mut held = 0;
    for raw in &logs {
        let text: Vec<u16> = String::from_utf8_lossy(&std::fs::read(raw).unwrap()).encode_utf16().collect();
        for budget in [2048u64, 4096, 8192, 32768] {
            let room = budget - PRUNE_MARKER_LEN;
            let head = room * 4 / 5;
            let b = Budgets::new(budget, head, room - head).unwrap();
            crate::guarantees::check_floor(&text, &b, &LineOptions::default())
                .unwrap_or_else(|e| panic!("{} at {budget}: {e}", raw.display()));
            held += usize::from(crate::strategy::lines::kept_lines(&text, &b, &LineOptions::default()).is_some());
        }
    }
    assert!(held > logs.len(), "only {held} plans checked");
}

/// What the floor asks of a plan: a flood of passes, then distinct
/// failures a blind cut shows. Nothing kept lacks one line of each (the
/// last); all of them kept lacks nothing; the plan itself keeps each.
#[test]
fn floor_asks_for_each_failure_a_blind_cut_shows() {
    let mut text = String::new();
    for i in 0..4000 {
        text.push_str(&format!("ok {i} - test case number {i} passes\n"));
    }
    let failures = ["FAILED tests/test_a.py::test_one - AssertionError: 1 != 2", "error[E0308]: mismatched types"];
    for f in failures.iter().chain(&failures) {
        text.push_str(f);
        text.push('\n');
    }
    let text = utf16(&text);
    let blocks = [Block::Text(&text)];
    let index = LineIndex::new(&blocks).unwrap();
    let n = index.line_count();
    let mut signals = Signals::default();
    signals.scan(index.lines_of(0), 0);
    let floor = Floor::read(&index, &signals, 2048, (4, 1)).expect("the tail shows failures");
    let mut missing: Vec<usize> = floor.missing(&Kept::none(n)).into_iter().map(|(k, _)| k).collect();
    missing.sort_unstable();
    assert_eq!(missing, vec![n - 2, n - 1], "the last line of each failure");
    let all = Kept::from_fates(&(0..n).map(|k| if k + 2 >= n { Fate::Keep } else { Fate::Drop }).collect::<Vec<_>>());
    assert!(floor.missing(&all).is_empty());
    let b = Budgets::new(2048, 1607, 402).unwrap();
    let pruned = prune(&blocks, &b, &LineOptions::default()).unwrap();
    let out: Vec<u16> = render_texts(&blocks, &pruned).flat_map(|t| t.iter().copied()).collect();
    let out = String::from_utf16_lossy(&out);
    for f in failures {
        assert!(out.contains(f), "{f} dropped:\n{out}");
    }
}
