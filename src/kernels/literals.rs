//! A set of byte literals searched for at once: a SIMD multi-literal
//! searcher (Teddy) where the CPU has one and the set is small enough,
//! else an Aho-Corasick automaton. Both give the same leftmost matches;
//! the SIMD searcher reads dense matches several times faster, since the
//! automaton only uses it as a prefilter and confirms each candidate.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, Anchored, Input, MatchKind, Span, packed};

/// Which of the literals starting at the leftmost position a match is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leftmost {
    /// The one added first.
    First,
    /// The longest.
    Longest,
}

/// Byte literals searched for at once (see the module).
#[derive(Clone, Debug)]
pub enum Literals {
    /// The SIMD searcher.
    Packed(packed::Searcher),
    /// The automaton.
    Automaton(AhoCorasick),
}

impl Literals {
    /// A searcher for `literals` (none of them empty), their index being
    /// their place in it; `None` when no automaton can hold them.
    pub fn new<L: AsRef<[u8]>>(literals: &[L], leftmost: Leftmost) -> Option<Literals> {
        let (kind, packed_kind) = match leftmost {
            Leftmost::First => (MatchKind::LeftmostFirst, packed::MatchKind::LeftmostFirst),
            Leftmost::Longest => (MatchKind::LeftmostLongest, packed::MatchKind::LeftmostLongest),
        };
        if let Some(searcher) = packed::Config::new().match_kind(packed_kind).builder().extend(literals).build() {
            return Some(Literals::Packed(searcher));
        }
        AhoCorasickBuilder::new().match_kind(kind).build(literals).ok().map(Literals::Automaton)
    }

    /// The leftmost match at or after `from`: (start, end, literal index).
    #[inline]
    pub fn find(&self, haystack: &[u8], from: usize) -> Option<(usize, usize, usize)> {
        if from > haystack.len() {
            return None;
        }
        match self {
            Literals::Packed(s) => s
                .find_in(haystack, Span::from(from..haystack.len()))
                .map(|m| (m.start(), m.end(), m.pattern().as_usize())),
            Literals::Automaton(a) => a
                .find(Input::new(haystack).range(from..).anchored(Anchored::No))
                .map(|m| (m.start(), m.end(), m.pattern().as_usize())),
        }
    }

    /// The matches that do not overlap, each the leftmost after the one
    /// before it: (start, end, literal index).
    pub fn find_iter<'a>(&'a self, haystack: &'a [u8]) -> impl Iterator<Item = (usize, usize, usize)> + 'a {
        let mut from = 0;
        std::iter::from_fn(move || {
            let found = self.find(haystack, from)?;
            // No literal is empty, so each match moves the search on.
            from = found.1.max(from + 1);
            Some(found)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every literal set, on every haystack: the SIMD searcher's matches
    /// are the automaton's.
    #[test]
    fn the_simd_searcher_finds_what_the_automaton_finds() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n) as u8
        };
        let mut compared = 0;
        for round in 0..300 {
            // A small alphabet, so that literals overlap and nest.
            let literals: Vec<Vec<u8>> =
                (0..1 + round % 9).map(|_| (0..3 + next(6)).map(|_| b'a' + next(4)).collect()).collect();
            let haystack: Vec<u8> = (0..50 + round * 7).map(|_| b'a' + next(5)).collect();
            for leftmost in [Leftmost::First, Leftmost::Longest] {
                let kind =
                    if leftmost == Leftmost::First { MatchKind::LeftmostFirst } else { MatchKind::LeftmostLongest };
                let automaton = AhoCorasickBuilder::new().match_kind(kind).build(&literals).unwrap();
                let want: Vec<_> =
                    automaton.find_iter(&haystack[..]).map(|m| (m.start(), m.end(), m.pattern().as_usize())).collect();
                let literals = Literals::new(&literals, leftmost).unwrap();
                if matches!(literals, Literals::Packed(_)) {
                    compared += 1;
                }
                assert_eq!(literals.find_iter(&haystack).collect::<Vec<_>>(), want, "round {round}");
            }
        }
        // The comparison means something only where the SIMD searcher was built.
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("ssse3") {
            assert!(compared > 0);
        }
    }
}
