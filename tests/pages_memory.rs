//! Memory of a retrieval page, counted by a tracking allocator: finding a
//! page walks the run and keeps the page, so what it allocates is bounded
//! by the page, not by the run's lines (a run of blank lines included).

use std::sync::atomic::Ordering;

use tool_result_pruner::pages::{Selection, page};

mod tracking;

use tracking::{LIVE, PEAK};

/// The most bytes finding page `n` held beyond what was live before.
fn peak_bytes(text: &[u16], budget: usize, selection: &Selection, n: usize) -> usize {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let found = page(text, budget, selection, n).expect("the page exists");
    let peak = PEAK.load(Ordering::Relaxed) - before;
    drop(found);
    peak
}

// One test, so nothing else allocates while it measures.
#[test]
fn a_page_costs_memory_bounded_by_the_page_not_the_run() {
    // Issue 18: ~48 bytes a line plus 24 a piece, 25x the run.
    let blank = vec![u16::from(b'\n'); 1 << 23];
    let budget = 3856;
    // A page's text is at most `budget` code points, two units each; its
    // vector may have doubled once; a search's needle and table are small.
    let bound = 2 * 2 * 2 * budget + 4096;
    let mut needle_hits = blank.clone();
    needle_hits[1 << 22] = u16::from(b'x');
    let cases: [(&str, &[u16], Selection, usize); 5] = [
        ("every line, first page", &blank, Selection::All, 1),
        ("every line, last page", &blank, Selection::All, (1 << 23) / budget + 1),
        ("a range of lines", &blank, Selection::Lines { first: 1000, last: 1 << 22 }, 2),
        ("a search", &needle_hits, Selection::Search(vec![u16::from(b'x')]), 1),
        ("one long line", &vec![u16::from(b'y'); 1 << 23], Selection::All, 100),
    ];
    for (name, text, selection, n) in &cases {
        let peak = peak_bytes(text, budget, selection, *n);
        assert!(
            peak <= bound,
            "{name}: {peak} bytes for a page of {budget} code points ({} a unit of the text)",
            peak as f64 / (2 * text.len()) as f64
        );
        eprintln!("{name}: {peak} bytes, {:.5}x the text", peak as f64 / (2 * text.len()) as f64);
    }
}
