//! Retrieval pages over arbitrary UTF-16 texts, searches and thresholds:
//! every page with its header within the threshold, the pages joined the
//! selected lines byte for byte, and a threshold refused only when it
//! leaves no room for a page (`guarantees::check_retrieval`).
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_result_pruner::guarantees::check_retrieval;
use tool_result_pruner::pages::{Selection, min_threshold};
use tool_result_pruner_fuzz::{units, word};

fuzz_target!(|data: &[u8]| {
    if data.len() < 6 {
        return;
    }
    // Thresholds around the smallest that works, where pages are fewest code points.
    let threshold = (min_threshold() as u64 + word(data, 0) % 2048).saturating_sub(512) as usize;
    let kind = data[2] % 3;
    let (a, b) = (usize::from(data[3]), usize::from(data[4]));
    let units = units(&data[5..]);
    // The search is taken from the text's own units, so it often matches.
    let selection = match kind {
        0 => Selection::All,
        1 => Selection::Lines { first: a % 64, last: b % 64 },
        _ => {
            let from = a.min(units.len());
            Selection::Search(units[from..(from + b % 96).min(units.len())].to_vec())
        }
    };
    if let Err(broken) = check_retrieval(&units, "0123456789abcdef01234567", threshold, &selection) {
        panic!("{broken}");
    }
});
