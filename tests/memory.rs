//! Peak memory of a lines-mode prune, counted by a tracking allocator: a
//! few bytes a line whatever the lines, so blank and one-character lines
//! cost a small multiple of the text, not of its line count.

use std::sync::atomic::Ordering;

use tool_result_pruner::config::Budgets;
use tool_result_pruner::content::Block;
use tool_result_pruner::strategy::lines::{self, LineOptions};

mod tracking;

use tracking::{LIVE, PEAK};

/// The most memory a lines-mode prune of `text` held beyond what was live
/// before it, as a multiple of the text's UTF-16 size.
fn peak_ratio(text: &[u16]) -> f64 {
    let blocks = [Block::Text(text)];
    let budgets = Budgets::default();
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let pruned = lines::prune(&blocks, &budgets, &LineOptions::default()).expect("over the threshold");
    let peak = PEAK.load(Ordering::Relaxed) - before;
    drop(pruned);
    peak as f64 / (2 * text.len()) as f64
}

// One test, so nothing else allocates while it measures.
#[test]
fn lines_mode_peaks_at_a_small_multiple_of_the_text() {
    let n = 1 << 22;
    let unit = |s: &str| s.encode_utf16().collect::<Vec<u16>>();
    // Words no other line has, for lines that are each a template of their own.
    let word = |mut i: usize| {
        let mut w = String::new();
        loop {
            w.push(char::from(b'a' + (i % 26) as u8));
            i /= 26;
            if i == 0 {
                return w;
            }
        }
    };
    let distinct: String = (0..n / 12).map(|i| format!("error: {}\n", word(i))).collect();
    let cases: [(&str, Vec<u16>); 9] = [
        ("blank lines", vec![u16::from(b'\n'); n]),
        ("one-character lines", unit("a\n").repeat(n / 2)),
        ("CRLF blank lines", unit("\r\n").repeat(n / 2)),
        ("tiny failure lines", unit("E  x\n").repeat(n / 5)),
        ("distinct failure lines", unit(&distinct)),
        ("deeply nested JSON", unit(&format!("{}{}", "[\n".repeat(n / 4), "]\n".repeat(n / 4)))),
        (
            "a diff of one-character lines",
            unit(&format!("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n{}", "+\n".repeat(n / 2))),
        ),
        ("one long line", vec![u16::from(b'x'); n]),
        // A failure line that is all words a subject could be (`name@1.0`).
        ("one failure line of package names", unit(&format!("error: {}\n", "ab.c@1 ".repeat(n / 7)))),
    ];
    // Each case once before any is measured: what the first prune of a
    // process builds and keeps (compiled patterns, each thread's pattern
    // caches, whichever thread first needs one) is no part of a prune's peak.
    for (_, text) in &cases {
        peak_ratio(text);
    }
    for (name, text) in &cases {
        let ratio = peak_ratio(text);
        // The binding's copy of the JS string is one more times the text:
        // under 3 here keeps a prune from JS under 4.
        assert!(ratio < 3.0, "{name}: peak {ratio:.2}x the text's UTF-16 size");
        eprintln!("{name}: peak {ratio:.2}x");
    }
}
