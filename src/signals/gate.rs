//! The verdict gate: which of the pass, summary and chatter rules a
//! flagged line's anchors allow, read from its narrowed text, so the
//! classifier runs those rules only where they can match (a flood of
//! failure lines never pays for them).

use std::sync::OnceLock;

use super::anchors::Anchors;
use super::rules::{RULES, SEARCHED_ALONE, Says, narrowed_anchor};

/// Gate bits: which kinds of verdict rule a line's anchors allow.
pub(crate) const GATE_PASS: u8 = 1;
pub(crate) const GATE_SUMMARY: u8 = 2;
pub(crate) const GATE_CHATTER: u8 = 4;

/// The anchors of the pass, summary and chatter rules, over narrowed text,
/// and the gate bits each one opens: those of three bytes or more in one
/// multi-literal search, the counts (`0 passed`) by the space after a
/// number, the shorter ones (`ok`, a pass glyph) and the rare ones the
/// prefilter searches alone apart, since a packed searcher is only
/// selective on longer ones and slows with each literal.
struct Gate {
    anchors: Anchors,
    short: Vec<(memchr::memmem::Finder<'static>, u8)>,
}

fn built() -> &'static Gate {
    static GATE: OnceLock<Gate> = OnceLock::new();
    GATE.get_or_init(|| {
        let mut literals: Vec<(Vec<u8>, u8)> = Vec::new();
        for (bit, says) in [(GATE_PASS, Says::Pass), (GATE_SUMMARY, Says::Summary), (GATE_CHATTER, Says::Chatter)] {
            for rule in RULES.iter().filter(|r| r.says == says) {
                for anchor in rule.anchors {
                    let bytes = narrowed_anchor(anchor);
                    match literals.iter_mut().find(|(l, _)| *l == bytes) {
                        Some((_, bits)) => *bits |= bit,
                        None => literals.push((bytes, bit)),
                    }
                }
            }
        }
        // A literal found stands for every literal it holds.
        let holds = |l: &[u8]| {
            literals.iter().filter(|(m, _)| l.windows(m.len()).any(|w| w == m.as_slice())).fold(0, |b, (_, x)| b | x)
        };
        // The rare anchors the prefilter searches on their own are searched
        // on their own here too: in the multi-literal search they would
        // share its buckets and slow every other literal down.
        let alone: Vec<Vec<u8>> = SEARCHED_ALONE.iter().map(|a| narrowed_anchor(a)).collect();
        let (long, short): (Vec<_>, Vec<_>) =
            literals.iter().cloned().partition(|(l, _)| l.len() >= 3 && !alone.contains(l));
        let anchors = Anchors::new(long.iter().map(|(l, _)| (l.clone(), holds(l))));
        let short = short.into_iter().map(|(l, bits)| (memchr::memmem::Finder::new(&l).into_owned(), bits)).collect();
        Gate { anchors, short }
    })
}

/// The gate bits of a flagged line's narrowed text (see the prefilter):
/// which of the pass, summary and chatter rules its anchors allow.
pub(crate) fn gate(narrowed: &[u8]) -> u8 {
    let g = built();
    let mut bits = 0;
    let mut pos = 0;
    while let Some((_, end, tag)) = g.anchors.find(narrowed, pos) {
        bits |= tag;
        pos = end;
        if bits == GATE_PASS | GATE_SUMMARY | GATE_CHATTER {
            return bits;
        }
    }
    for (finder, bit) in &g.short {
        if bits & bit != *bit && finder.find(narrowed).is_some() {
            bits |= bit;
        }
    }
    bits
}

/// Calls `f(offset, bits)` for every anchor of the pass, summary and
/// chatter rules in `narrowed` (a window of many lines), each search in
/// order of offset: the gates of many lines in one pass.
pub(crate) fn gate_matches(narrowed: &[u8], mut f: impl FnMut(usize, u8)) {
    let g = built();
    let mut pos = 0;
    while let Some((start, end, tag)) = g.anchors.find(narrowed, pos) {
        f(start, tag);
        pos = end;
    }
    for (finder, bit) in &g.short {
        for at in finder.find_iter(narrowed) {
            f(at, *bit);
        }
    }
}

#[cfg(test)]
mod tests;
