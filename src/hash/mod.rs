//! Content hashes: the names retrieval markers give dropped text.
//!
//! HASH is the first 24 lowercase hex digits of the SHA-256 of the text's
//! UTF-8 bytes. Text is UTF-16 and may hold lone surrogates, which have no
//! UTF-8 form; they are encoded as WTF-8 does (three bytes each, like
//! Python's `surrogatepass`), so the bytes are UTF-8 whenever the text is
//! valid and distinct texts never share bytes.

use std::ops::Range;

use sha2::{Digest, Sha256};

use crate::text::is_high_surrogate;
use encode::encode_chunk;
use pipeline::pipelined;

pub(crate) mod encode;
mod pipeline;

/// Hex digits of a hash.
pub const HASH_LEN: usize = 24;

/// True for a hash as this crate writes them: 24 lowercase hex digits.
pub fn is_hash(hash: &str) -> bool {
    hash.len() == HASH_LEN && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Code units encoded at a time.
const CHUNK: usize = 1 << 14;
/// Encoded chunks the helper may run ahead of the hashing of a long text.
pub(super) const PIPE_DEPTH: usize = 4;

/// The retrieval hash of `text`: 24 lowercase hex digits of its SHA-256.
pub fn content_hash(text: &[u16]) -> String {
    #[cfg(test)]
    tests::HASHED_UNITS.with(|n| n.set(n.get() + text.len()));
    let mut hasher = Sha256::new();
    let mut buf = Vec::new();
    for chunk in chunks(text) {
        let used = encode_chunk(&text[chunk], &mut buf);
        hasher.update(&buf[..used]);
    }
    hex(hasher)
}

/// The hashes of `texts`, in order, on two threads when there is a lot to
/// hash. Texts are split by length between the threads, unless one is
/// more than three quarters of the work (a log whose middle is one dropped
/// run): its SHA-256, which cannot be split, then runs here while its
/// encoding is shared (see [`pipelined`]). Below
/// [`PARALLEL_FROM`](crate::parallel::PARALLEL_FROM) units in all, one
/// thread does it all.
pub fn content_hashes(texts: &[&[u16]]) -> Vec<String> {
    let hash_all = |texts: &[&[u16]]| texts.iter().map(|t| content_hash(t)).collect::<Vec<_>>();
    let total: usize = texts.iter().map(|t| t.len()).sum();
    if total < crate::parallel::PARALLEL_FROM {
        return hash_all(texts);
    }
    let (largest, longest) =
        texts.iter().enumerate().map(|(i, t)| (i, t.len())).max_by_key(|&(_, n)| n).unwrap_or((0, 0));
    if longest > total / 4 * 3 {
        return pipelined(texts, largest).unwrap_or_else(|| hash_all(texts));
    }
    // The first texts up to about half the total go to the helper.
    let mut acc = 0;
    let split = texts.iter().position(|t| {
        acc += t.len();
        acc >= total / 2
    });
    let split = split.map_or(texts.len() / 2, |p| (p + 1).min(texts.len() - 1));
    let (first, second) = texts.split_at(split);
    let (mut out, mut rest) = crate::parallel::join(|| hash_all(first), || hash_all(second));
    out.append(&mut rest);
    out
}

/// Code-unit ranges of `text` to encode one at a time: about [`CHUNK`]
/// units each, never ending between the halves of a surrogate pair.
pub(super) fn chunks(text: &[u16]) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= text.len() {
            return None;
        }
        let mut end = (at + CHUNK).min(text.len());
        if end < text.len() && is_high_surrogate(text[end - 1]) {
            end -= 1;
        }
        let chunk = at..end;
        at = end;
        Some(chunk)
    })
}

/// The first [`HASH_LEN`] hex digits of the hasher's digest.
pub(super) fn hex(hasher: Sha256) -> String {
    let digest = hasher.finalize();
    let mut hex = String::with_capacity(HASH_LEN);
    for byte in &digest[..HASH_LEN / 2] {
        hex.push(char::from_digit(u32::from(byte >> 4), 16).expect("nibble"));
        hex.push(char::from_digit(u32::from(byte & 15), 16).expect("nibble"));
    }
    hex
}

#[cfg(test)]
pub(crate) mod tests;
