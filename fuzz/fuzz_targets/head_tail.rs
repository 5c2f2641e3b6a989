//! Upstream's head/tail over random block lists: within budget, smaller,
//! final, exactly the head and tail code points (per block, as upstream
//! counts them), rich blocks in order, lone surrogates byte-exact.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_result_pruner::config::{Budgets, PRUNE_MARKER};
use tool_result_pruner::content::{Block, Piece, render_texts};
use tool_result_pruner::head_tail;
use tool_result_pruner::text::code_point_len;
use tool_result_pruner_fuzz::{blocks, core, units, word};

fuzz_target!(|data: &[u8]| {
    if data.len() < 6 {
        return;
    }
    let head = word(data, 0) % 600;
    let tail = word(data, 2) % 600;
    let threshold = head + 39 + tail + word(data, 4) % 400;
    let budgets = Budgets::new(threshold, head, tail).expect("valid by construction");
    let units = units(&data[6..]);
    let decoded = blocks(&units);
    let blocks = core(&decoded);
    let total = head_tail::measure(&blocks);
    let Some(pruned) = head_tail::prune(&blocks, &budgets) else {
        assert!(total <= threshold);
        return;
    };
    assert!(total > threshold);
    let texts: Vec<Vec<u16>> = render_texts(&blocks, &pruned).map(<[u16]>::to_vec).collect();
    let after: u64 = texts.iter().map(|t| code_point_len(t) as u64).sum();
    assert_eq!(after, pruned.chars_after);
    assert!(after <= threshold && after < total);
    assert!(texts.iter().all(|t| !t.is_empty()));
    // Head and tail are the original code points, with the marker between.
    let atoms: Vec<Vec<u16>> = decoded
        .iter()
        .flatten()
        .flat_map(|t| {
            let mut at = 0;
            char::decode_utf16(t.iter().copied())
                .map(|c| {
                    let w = c.map_or(1, char::len_utf16);
                    at += w;
                    t[at - w..at].to_vec()
                })
                .collect::<Vec<_>>()
        })
        .collect();
    let mut want: Vec<u16> = atoms[..head as usize].concat();
    want.extend(PRUNE_MARKER.encode_utf16());
    want.extend(atoms[atoms.len() - tail as usize..].concat());
    assert_eq!(texts.concat(), want);
    // Rich blocks in order, and a second pass changes nothing.
    let kept: Vec<usize> = pruned.pieces.iter().filter_map(|p| if let Piece::Keep(i) = p { Some(*i) } else { None }).collect();
    let rich: Vec<usize> = blocks.iter().enumerate().filter(|(_, b)| **b == Block::Other).map(|(i, _)| i).collect();
    assert_eq!(kept, rich);
    let again: Vec<Block<'_>> = texts.iter().map(|t| Block::Text(t)).collect();
    assert!(head_tail::prune(&again, &budgets).is_none());
});
