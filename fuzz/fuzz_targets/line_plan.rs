//! Lines mode over random block lists: within budget, smaller, final,
//! deterministic, and every text block expands back to its input exactly
//! from `recoverable` (lone surrogates included).
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_result_pruner::config::Budgets;
use tool_result_pruner::content::{Block, Piece, render_texts};
use tool_result_pruner::lines::expand;
use tool_result_pruner::markers::content_hash;
use tool_result_pruner::select::{self, LineOptions};
use tool_result_pruner::text::code_point_len;
use tool_result_pruner_fuzz::{blocks, core, units, word};

fuzz_target!(|data: &[u8]| {
    if data.len() < 8 {
        return;
    }
    let threshold = 39 + word(data, 0) % 3000;
    let head = word(data, 2) % (threshold - 38);
    let tail = word(data, 4) % (threshold - 38 - head);
    let options = LineOptions { context: usize::from(data[6] % 6), edge: usize::from(data[7] % 6) };
    let budgets = Budgets::new(threshold, head, tail).expect("valid by construction");
    let units = units(&data[8..]);
    let decoded = blocks(&units);
    let blocks = core(&decoded);
    let total: u64 = decoded.iter().flatten().map(|t| code_point_len(t) as u64).sum();
    let Some(pruned) = select::prune(&blocks, &budgets, &options) else {
        assert!(total <= threshold);
        return;
    };
    let texts: Vec<Vec<u16>> = render_texts(&blocks, &pruned).map(<[u16]>::to_vec).collect();
    let after: u64 = texts.iter().map(|t| code_point_len(t) as u64).sum();
    assert_eq!(after, pruned.chars_after);
    assert!(after <= threshold && after < total, "{after} of {total} within {threshold}");
    assert_eq!(select::prune(&blocks, &budgets, &options), Some(pruned.clone()), "deterministic");
    let again: Vec<Block<'_>> = texts.iter().map(|t| Block::Text(t)).collect();
    assert!(select::prune(&again, &budgets, &options).is_none(), "a second pass changes nothing");
    let recovered = pruned.recovered(&blocks);
    for (hash, text) in &recovered {
        assert_eq!(&content_hash(text), hash);
    }
    // Upstream's fallback (when markers cannot fit) is not retrievable.
    if !recovered.is_empty() || texts.iter().all(|t| !String::from_utf16_lossy(t).contains("[... tool result middle pruned ...]")) {
        let mut rendered = texts.iter();
        for piece in &pruned.pieces {
            if let Piece::Text { block, .. } = piece {
                let Block::Text(original) = blocks[*block] else { unreachable!() };
                assert_eq!(&expand(rendered.next().expect("a text per piece"), &recovered), original);
            }
        }
    }
});
