//! Literal anchors over narrowed text (see
//! [`kernels::narrow`](crate::kernels::narrow)), each with a tag, found
//! by one search ([`Literals`]). The keyword scan and the verdict gate
//! search with it.

use crate::kernels::literals::{Leftmost, Literals};

/// Anchors over narrowed text, searched at once, each with a tag.
pub(crate) struct Anchors {
    literals: Literals,
    tags: Vec<u8>,
}

impl Anchors {
    /// `anchors` (narrowed bytes) with their tags.
    pub(crate) fn new(anchors: impl IntoIterator<Item = (Vec<u8>, u8)>) -> Self {
        let (literals, tags): (Vec<Vec<u8>>, Vec<u8>) = anchors.into_iter().unzip();
        Anchors { literals: Literals::new(&literals, Leftmost::First).expect("static literals"), tags }
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
