//! The promises a prune keeps, as checks: one place that the property tests
//! and the fuzz targets both call, so every harness asserts the same rules.
//! Built for tests and with the `guarantees` feature (the fuzz crate's).

use crate::config::{Budgets, PRUNE_MARKER};
use crate::content::{self, Block, Piece, Pruned, measure, render_texts};
use crate::hash::content_hash;
use crate::markers::expand;
use crate::strategy::head_tail;
use crate::strategy::lines::{self, LineOptions};
use crate::text::{code_point_len, utf16};

/// `Err` with the message when `cond` is false.
macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+));
        }
    };
}

/// The rendered texts of `pruned`, checked against what every strategy
/// promises: `chars_after` is their size, which is within the threshold and
/// below the input's `total`; a second pass with `again` changes nothing.
fn budget_and_finality(
    blocks: &[Block<'_>],
    pruned: &Pruned,
    threshold: u64,
    again: impl Fn(&[Block<'_>]) -> Option<Pruned>,
) -> Result<Vec<Vec<u16>>, String> {
    let total = measure(blocks);
    let texts: Vec<Vec<u16>> = render_texts(blocks, pruned).map(<[u16]>::to_vec).collect();
    let after: u64 = texts.iter().map(|t| code_point_len(t) as u64).sum();
    ensure!(after == pruned.chars_after, "chars_after {} but the texts hold {after}", pruned.chars_after);
    ensure!(after <= threshold && after < total, "{after} of {total} code points within {threshold}");
    let rendered: Vec<Block<'_>> = texts.iter().map(|t| Block::Text(t)).collect();
    ensure!(again(&rendered).is_none(), "a second pass changes the result");
    Ok(texts)
}

/// Upstream's head/tail on `blocks`: `None` only within the threshold; else
/// within budget, smaller, final, no empty text block, exactly the first
/// `head` and last `tail` code points (per block, as upstream counts them)
/// around the marker, and the rich blocks in their order.
pub fn check_head_tail(blocks: &[Block<'_>], budgets: &Budgets) -> Result<(), String> {
    let threshold = budgets.threshold();
    let total = measure(blocks);
    let Some(pruned) = head_tail::prune(blocks, budgets) else {
        ensure!(total <= threshold, "{total} code points over {threshold} left unpruned");
        return Ok(());
    };
    ensure!(total > threshold, "{total} code points within {threshold} pruned");
    let texts = budget_and_finality(blocks, &pruned, threshold, |b| head_tail::prune(b, budgets))?;
    ensure!(texts.iter().all(|t| !t.is_empty()), "an empty text block in the result");
    let atoms: Vec<&[u16]> = content::texts(blocks)
        .flat_map(|t| {
            char::decode_utf16(t.iter().copied()).scan(0usize, move |at, item| {
                let w = item.map_or(1, char::len_utf16);
                *at += w;
                Some(&t[*at - w..*at])
            })
        })
        .collect();
    let (head, tail) = (budgets.head() as usize, budgets.tail() as usize);
    let mut want: Vec<u16> = atoms[..head].concat();
    want.extend(utf16(PRUNE_MARKER));
    want.extend(atoms[atoms.len() - tail..].concat());
    ensure!(texts.concat() == want, "not the head, the marker and the tail");
    let kept: Vec<usize> =
        pruned.pieces.iter().filter_map(|p| if let Piece::Rich(i) = p { Some(*i) } else { None }).collect();
    let rich: Vec<usize> = blocks.iter().enumerate().filter(|(_, b)| **b == Block::Rich).map(|(i, _)| i).collect();
    ensure!(kept == rich, "rich blocks {kept:?}, expected {rich:?}");
    Ok(())
}

/// Lines mode on `blocks`: `None` only within the threshold; else within
/// the threshold and `keepChars`, smaller, final, deterministic, every hash the SHA-256 prefix of
/// its text, and every text block expands back to its input exactly from
/// `recoverable` (unless upstream's non-retrievable fallback was needed).
pub fn check_lines(blocks: &[Block<'_>], budgets: &Budgets, options: &LineOptions) -> Result<(), String> {
    let threshold = budgets.threshold();
    let Some(pruned) = lines::prune(blocks, budgets, options) else {
        let total = measure(blocks);
        ensure!(total <= threshold, "{total} code points over {threshold} left unpruned");
        return Ok(());
    };
    let texts = budget_and_finality(blocks, &pruned, threshold, |b| lines::prune(b, budgets, options))?;
    ensure!(
        pruned.chars_after <= budgets.keep(),
        "{} code points over keepChars {}",
        pruned.chars_after,
        budgets.keep()
    );
    ensure!(lines::prune(blocks, budgets, options).as_ref() == Some(&pruned), "not deterministic");
    let recovered = pruned.recovered(blocks);
    for (hash, text) in &recovered {
        ensure!(&content_hash(text) == hash, "hash {hash} does not name its text");
    }
    let fallback = recovered.is_empty() && texts.iter().any(|t| String::from_utf16_lossy(t).contains(PRUNE_MARKER));
    if !fallback {
        let mut rendered = texts.iter();
        for (i, piece) in pruned.pieces.iter().enumerate() {
            if let Piece::Text { block, .. } = piece {
                let (Block::Text(original), Some(text)) = (blocks[*block], rendered.next()) else {
                    return Err(format!("piece {i} is not a text block's"));
                };
                ensure!(expand(text, &recovered) == original, "piece {i} does not expand back to its input");
            }
        }
    }
    Ok(())
}
