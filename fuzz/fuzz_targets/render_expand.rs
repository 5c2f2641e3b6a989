//! Rendering any keep/drop/cut decision, and walking it back: expanding the
//! markers gives the input exactly, and `recover` finds exactly the dropped
//! text of each hash from the original and the pruned text, never another
//! (the input may itself hold marker-looking text).
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_result_pruner::content::{Block, render_texts};
use tool_result_pruner::hash::content_hash;
use tool_result_pruner::markers::{expand, recover};
use tool_result_pruner::strategy::lines::index::LineIndex;
use tool_result_pruner::strategy::lines::render::render_blocks;
use tool_result_pruner::strategy::lines::{Fate, Kept};
use tool_result_pruner::text::{is_high_surrogate, is_low_surrogate, split_lines};
use tool_result_pruner_fuzz::units;

fuzz_target!(|data: &[u8]| {
    let Some((&split, rest)) = data.split_first() else { return };
    let cut = (usize::from(split) + 1).min(rest.len());
    let (decisions, body) = rest.split_at(cut);
    let mut text = units(body);
    // Sometimes plant a marker-looking line naming the hash of the start.
    if decisions.first().is_some_and(|d| d & 1 == 1) && text.len() > 8 {
        let fake = format!("<<ccr:{} 2_lines_offloaded>>\n", content_hash(&text[..8]));
        let at = text.len() / 2;
        text.splice(at..at, fake.encode_utf16());
    }
    let lines = split_lines(&text);
    let fates: Vec<Fate> = lines
        .iter()
        .enumerate()
        .map(|(i, r)| match decisions.get(i % decisions.len().max(1)).copied().unwrap_or(0) % 3 {
            0 => Fate::Keep,
            1 => Fate::Drop,
            _ => {
                let len = r.len() as u32;
                let from = (len / 3).min(len);
                let to = (2 * len / 3).max(from);
                // Never between the halves of a pair: snap to unit boundaries the renderer accepts.
                let snap = |at: u32| {
                    let at = at as usize;
                    let inside_pair = at > 0
                        && at < r.len()
                        && is_low_surrogate(text[r.start + at])
                        && is_high_surrogate(text[r.start + at - 1]);
                    if inside_pair { at as u32 - 1 } else { at as u32 }
                };
                Fate::Cut { from: snap(from), to: snap(to).max(snap(from)) }
            }
        })
        .collect();
    let blocks = [Block::Text(&text)];
    let index = LineIndex::new(&blocks).expect("fuzz inputs are short");
    let plan = render_blocks(&blocks, &index, &Kept::from_fates(&fates));
    let content = render_texts(&blocks, &plan).collect::<Vec<_>>().concat();
    let recovered = plan.recovered(&blocks);
    assert_eq!(expand(&content, &recovered), text);
    for (hash, dropped) in &recovered {
        assert_eq!(&content_hash(dropped), hash);
        assert_eq!(recover(&text, &content, hash).as_ref(), Some(dropped));
    }
    let unknown = "0123456789abcdef01234567";
    assert!(recover(&text, &content, unknown).is_none() || recovered.contains_key(unknown));
});
