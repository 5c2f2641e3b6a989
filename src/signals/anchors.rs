//! Literal anchors over narrowed text (see
//! [`kernels::narrow`](crate::kernels::narrow)), each with a tag, found
//! by one search: a SIMD multi-literal searcher where the CPU has one,
//! else an automaton. The keyword scan and the verdict gate search with it.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, Anchored, Input, MatchKind};

/// A set of literals over narrowed text: a SIMD multi-literal searcher
/// where the CPU has one, else an automaton.
enum Literals {
    Packed(aho_corasick::packed::Searcher),
    Automaton(AhoCorasick),
}

impl Literals {
    fn new(literals: &[Vec<u8>]) -> Self {
        let packed = aho_corasick::packed::Config::new()
            .match_kind(aho_corasick::packed::MatchKind::LeftmostFirst)
            .builder()
            .extend(literals)
            .build();
        match packed {
            Some(searcher) => Literals::Packed(searcher),
            None => Literals::Automaton(
                AhoCorasickBuilder::new()
                    .match_kind(MatchKind::LeftmostFirst)
                    .build(literals)
                    .expect("static literals"),
            ),
        }
    }

    /// The first match at or after `from`: (start, end, literal index).
    #[inline]
    fn find(&self, haystack: &[u8], from: usize) -> Option<(usize, usize, usize)> {
        match self {
            Literals::Packed(s) => s
                .find_in(haystack, aho_corasick::Span::from(from..haystack.len()))
                .map(|m| (m.start(), m.end(), m.pattern().as_usize())),
            Literals::Automaton(a) => a
                .find(Input::new(haystack).range(from..).anchored(Anchored::No))
                .map(|m| (m.start(), m.end(), m.pattern().as_usize())),
        }
    }
}

/// Anchors over narrowed text, searched at once, each with a tag.
pub(crate) struct Anchors {
    literals: Literals,
    tags: Vec<u8>,
}

impl Anchors {
    /// `anchors` (narrowed bytes) with their tags.
    pub(crate) fn new(anchors: impl IntoIterator<Item = (Vec<u8>, u8)>) -> Self {
        let (literals, tags): (Vec<Vec<u8>>, Vec<u8>) = anchors.into_iter().unzip();
        Anchors { literals: Literals::new(&literals), tags }
    }

    /// The first anchor at or after `from`: (start, end, tag).
    #[inline]
    pub(crate) fn find(&self, haystack: &[u8], from: usize) -> Option<(usize, usize, u8)> {
        if from >= haystack.len() {
            return None;
        }
        self.literals.find(haystack, from).map(|(start, end, i)| (start, end, self.tags[i]))
    }
}
