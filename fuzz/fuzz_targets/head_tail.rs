//! Upstream's head/tail over random block lists: within budget, smaller,
//! final, exactly the head and tail code points (per block, as upstream
//! counts them), rich blocks in order, lone surrogates byte-exact.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_result_pruner::config::{Budgets, PRUNE_MARKER_LEN};
use tool_result_pruner::guarantees::check_head_tail;
use tool_result_pruner_fuzz::{blocks, core, units, word};

fuzz_target!(|data: &[u8]| {
    if data.len() < 6 {
        return;
    }
    let head = word(data, 0) % 600;
    let tail = word(data, 2) % 600;
    let threshold = head + PRUNE_MARKER_LEN + tail + word(data, 4) % 400;
    let budgets = Budgets::new(threshold, head, tail).expect("valid by construction");
    let units = units(&data[6..]);
    let decoded = blocks(&units);
    if let Err(broken) = check_head_tail(&core(&decoded), &budgets) {
        panic!("{broken}");
    }
});
