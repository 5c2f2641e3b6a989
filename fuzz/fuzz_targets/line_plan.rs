//! Lines mode over random block lists, budgets (keepChars included) and kind hints: within budget, smaller, final,
//! deterministic, and every text block expands back to its input exactly
//! from `recoverable` (lone surrogates included).
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_result_pruner::config::{Budgets, PRUNE_MARKER_LEN};
use tool_result_pruner::guarantees::check_lines;
use tool_result_pruner::strategy::lines::{Kind, LineOptions};
use tool_result_pruner_fuzz::{blocks, core, units, word};

fuzz_target!(|data: &[u8]| {
    if data.len() < 8 {
        return;
    }
    const MARK: u64 = PRUNE_MARKER_LEN;
    let threshold = MARK + word(data, 0) % 3000;
    let head = word(data, 2) % (threshold - MARK + 1);
    let tail = word(data, 4) % (threshold - MARK + 1 - head);
    // Of every (kinds + 2) runs, two plan the text as the sample says and
    // each of the rest as one kind a command named.
    let pick = usize::from(data[6] / 8) % (Kind::ALL.len() + 2);
    let kind = pick.checked_sub(2).map(|i| Kind::ALL[i]);
    let options = LineOptions { context: usize::from(data[6] % 6), edge: usize::from(data[7] % 6), kind };
    let budgets = Budgets::new(threshold, head, tail).expect("valid by construction");
    // Half the runs set keepChars anywhere in its range; the rest keep head + marker + tail.
    let budgets = if data[7] & 0x80 == 0 {
        budgets
    } else {
        let keep = MARK + (word(data, 2) ^ word(data, 4)) % (threshold - MARK + 1);
        budgets.with_keep(keep).expect("valid by construction")
    };
    let units = units(&data[8..]);
    let decoded = blocks(&units);
    if let Err(broken) = check_lines(&core(&decoded), &budgets, &options) {
        panic!("{broken}");
    }
});
