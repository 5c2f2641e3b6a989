//! Lines mode's work, counted on the worst inputs: each shape at `n` and
//! `4n` lines must cost at most five times as much (linear, with room for
//! a log factor), and a wider budget must not multiply the work.

use std::ops::Range;

use super::super::LineOptions;
use super::super::index::LineIndex;
use super::super::plan::choose;
use crate::config::Budgets;
use crate::content::Block;
use crate::text::utf16;

fn budgets(keep: u64) -> Budgets {
    Budgets::new(keep.max(8192), 0, 0).and_then(|b| b.with_keep(keep)).unwrap()
}

/// The counted work of planning `text` within `keep` code points, with `spans`.
fn work(text: &str, keep: u64, spans: &[Range<usize>]) -> usize {
    let t = utf16(text);
    let blocks = [Block::Text(&t)];
    let index = LineIndex::new(&blocks).unwrap();
    choose(&index, &budgets(keep), &LineOptions::default(), spans, &Default::default(), false).unwrap().cost.total()
}

/// A word that no other line has: `i` spelled in letters.
fn word(i: usize, salt: usize) -> String {
    let mut n = i * 7919 + salt;
    let mut w = String::new();
    loop {
        w.push(char::from(b'a' + (n % 26) as u8));
        n /= 26;
        if n == 0 {
            return w;
        }
    }
}

/// Makes a text of `n` lines.
type Shape = fn(usize) -> String;

/// The adversarial shapes of the cost issue, each as `n` lines.
fn shapes() -> Vec<(&'static str, Shape)> {
    vec![
        ("distinct failures", |n| (0..n).map(|i| format!("error: {} {}\n", word(i, 1), word(i, 2))).collect()),
        ("weak prose", |n| {
            (0..n).map(|i| format!("The {} {} failed {}\n", word(i, 3), word(i, 4), word(i, 5))).collect()
        }),
        ("deep JSON", |n| format!("{}{}", "[\n".repeat(n / 2), "]\n".repeat(n / 2))),
        ("traceback of errors", |n| {
            let mut s = String::from("Traceback (most recent call last):\n");
            for i in 0..n / 2 {
                s.push_str(&format!("  File \"/app/m{i}.py\", line {i}, in f\n    raise error: boom {}\n", word(i, 6)));
            }
            s.push_str("ValueError: boom\n");
            s
        }),
        ("failure flood", |n| {
            (0..n)
                .map(|i| format!("FAILED tests/test_mod.py::test_case_{i} - AssertionError: assert {i} == {}\n", i + 1))
                .collect()
        }),
        ("blank lines", |n| "\n".repeat(n)),
        // Every line a finding, each of its own rule (code) and message.
        ("distinct diagnostics", |n| {
            (0..n).map(|i| format!("src/m{i}.py:{i}:1: X{:04} {} {}\n", i % 10_000, word(i, 8), word(i, 9))).collect()
        }),
        ("frames under failures", |n| {
            (0..n)
                .map(|i| {
                    if i % 5 == 0 {
                        format!("TypeError: bad {}\n", word(i, 7))
                    } else {
                        format!("    at f{i} (/app/src/m{i}.js:{i}:1)\n")
                    }
                })
                .collect()
        }),
    ]
}

#[test]
fn work_grows_linearly_on_every_adversarial_shape() {
    let n = 4_000;
    for (name, make) in shapes() {
        let (small, large) = (work(&make(n), 5159, &[]), work(&make(4 * n), 5159, &[]));
        assert!(large <= 5 * small.max(n), "{name}: {small} at {n} lines, {large} at {}", 4 * n);
        // And a bounded amount a line (a line is compared with at most
        // `WAYS` templates, and each step beyond that is a few).
        let per_line = crate::signals::templates::WAYS + 36;
        assert!(large <= per_line * 4 * n, "{name}: {large} for {} lines", 4 * n);
    }
}

#[test]
fn a_wider_budget_does_not_multiply_the_work() {
    let n = 16_000;
    for (name, make) in shapes() {
        let text = make(n);
        let (narrow, wide) = (work(&text, 5159, &[]), work(&text, 65_536, &[]));
        // The wider plan keeps more lines, each offered a few times at
        // most; nothing is walked again for each line kept.
        assert!(wide <= 2 * narrow + 3 * n, "{name}: {narrow} at keepChars 5159, {wide} at 65536");
    }
}

#[test]
fn many_spans_cost_their_lines_not_lines_times_spans() {
    let text: String = (0..8_000).map(|i| format!("line {i} of output\n")).collect();
    let spans = |count: usize| -> Vec<Range<usize>> { (0..count).map(|i| i * 40..i * 40 + 3).collect() };
    let (few, many) = (work(&text, 5159, &spans(1_000)), work(&text, 5159, &spans(4_000)));
    assert!(many <= 5 * few, "{few} with 1,000 spans, {many} with 4,000");
}
