//! The order in which a log's strong failure lines are offered: each
//! distinct one first, by where it stands, then the repeats; and the order
//! of its diagnostics, the rarest rule first.

use std::cmp::Reverse;

use super::index::LineIndex;
use super::order::{ends_inward, first_last_then_in};
use crate::signals::{Failure, Signals};

/// Failure lines closer than this many lines (in one text) belong to one cluster.
const CLUSTER_GAP: usize = 8;

/// Ranks the strong failure lines. The first line of each template is
/// distinct (a flood of one message counts once, by its first instance);
/// distinct lines are kept cluster by cluster (nearby lines of one text,
/// or of one unbroken run of failure lines: one report, however long the
/// repeats in its middle): the last cluster (where reports and verdicts
/// are), the first (where a root cause often is), then inwards from both
/// ends; within a cluster its first and last line, then inwards. The
/// other lines of each template are repeats, spread over the output.
pub(super) fn rank_failures(signals: &Signals, index: &LineIndex<'_>) -> Ranked {
    let mut seen = Seen::new(signals.templates());
    let (mut distinct, mut repeats) = (Vec::new(), Vec::new());
    // Clusters as ranges of `distinct`: nearby distinct lines, or distinct
    // lines with an unbroken run of failure lines between them (one report).
    let mut clusters: Vec<std::ops::Range<usize>> = Vec::new();
    let mut run_from: Option<usize> = None;
    let mut last: Option<usize> = None;
    for (k, s) in signals.iter().filter(|(_, s)| s.failure == Failure::Strong) {
        let same_text = |j: usize| index.text_of(j) == index.text_of(k);
        if !last.is_some_and(|l| l + 1 == k && same_text(l)) {
            run_from = Some(k);
        }
        last = Some(k);
        if !seen.insert(s.template) {
            repeats.push(k as u32);
            continue;
        }
        let i = distinct.len();
        distinct.push(k as u32);
        match clusters.last_mut() {
            Some(c) => {
                let prev = distinct[c.end - 1] as usize;
                let near = k - prev <= CLUSTER_GAP || run_from.is_some_and(|r| r <= prev);
                if near && same_text(prev) { c.end = i + 1 } else { clusters.push(i..i + 1) }
            }
            None => clusters.push(i..i + 1),
        }
    }
    let mut order = Vec::with_capacity(distinct.len());
    for c in ends_inward(&clusters) {
        order.extend(first_last_then_in(c.clone()).map(|i| distinct[i]));
    }
    Ranked { distinct: order, repeats }
}

/// Templates seen so far: a bit per template id (ids are dense).
pub(super) struct Seen(Vec<u64>);

impl Seen {
    pub fn new(templates: u32) -> Self {
        Seen(vec![0; templates as usize / 64 + 1])
    }

    /// Whether `id` was not seen before; marks it seen.
    pub fn insert(&mut self, id: u32) -> bool {
        let (word, bit) = (id as usize / 64, id % 64);
        let new = self.0[word] & 1 << bit == 0;
        self.0[word] |= 1 << bit;
        new
    }
}

/// Strong failure lines in the order they are kept.
pub(super) struct Ranked {
    /// The first line of each template, ranked.
    pub distinct: Vec<u32>,
    /// The other lines of those templates, ascending (offered spread over the output).
    pub repeats: Vec<u32>,
}

/// Ranks the diagnostic lines (a linter's, type checker's or compiler's
/// findings, grouped by rule in their template). The first line of each
/// rule is distinct, and distinct lines go the most severe first; within a
/// severity, the rarest rule and the most common one in turn (each by
/// where it stands among rules as rare), so the one finding that differs
/// comes first and the floods that make up the output are named next,
/// all before any second line of a rule. The other lines are repeats.
pub(super) fn rank_diagnostics(signals: &Signals) -> Ranked {
    let mut count = vec![0u32; signals.templates() as usize + 1];
    let (mut firsts, mut repeats) = (Vec::new(), Vec::new());
    for (k, s) in signals.iter().filter(|(_, s)| s.diagnostic()) {
        let seen = &mut count[s.template as usize];
        if *seen == 0 {
            firsts.push((k as u32, s.template, s.severity()))
        } else {
            repeats.push(k as u32)
        }
        *seen += 1;
    }
    firsts.sort_unstable_by_key(|&(k, template, severity)| (Reverse(severity), count[template as usize], k));
    let mut distinct = Vec::with_capacity(firsts.len());
    for group in firsts.chunk_by(|a, b| a.2 == b.2) {
        distinct.extend(rare_and_common(group.len(), |i| (count[group[i].1 as usize], group[i].0)).map(|i| group[i].0));
    }
    Ranked { distinct, repeats }
}

/// The indices `0..n` of rules ranked rarest first (`key(i)`: a rule's
/// count and where its first finding stands, ascending in `i`), taken
/// the rarest left and the most common left in turn (the earliest first
/// among as common).
fn rare_and_common(n: usize, key: impl Fn(usize) -> (u32, u32)) -> impl Iterator<Item = usize> {
    let mut common: Vec<usize> = (0..n).collect();
    common.sort_by_key(|&i| {
        let (count, at) = key(i);
        (Reverse(count), at)
    });
    let mut taken = vec![false; n];
    (0..n)
        .zip(common)
        .flat_map(|(rare, common)| [rare, common])
        .filter(move |&i| !std::mem::replace(&mut taken[i], true))
}
