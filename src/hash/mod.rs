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
pub(crate) mod tests {
    use super::*;
    use crate::text::utf16;

    thread_local! {
        /// Code units [`content_hash`] has hashed on this thread: work counted, not timed.
        pub(crate) static HASHED_UNITS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    #[test]
    fn hash_is_sha256_prefix_of_utf8() {
        // sha256("hello\n") = 5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03
        assert_eq!(content_hash(&utf16("hello\n")), "5891b5b522d5df086d0ff0b1");
        // sha256("") = e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
        assert_eq!(content_hash(&[]), "e3b0c44298fc1c149afbf4c8");
        let emoji = utf16("é😀\n漢");
        let mut std = Sha256::new();
        std.update("é😀\n漢".as_bytes());
        let want: String = std.finalize()[..12].iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(content_hash(&emoji), want);
    }

    #[test]
    fn hashing_many_ranges_on_two_threads_matches_one_by_one() {
        let text: Vec<u16> =
            (0..600_000u32).map(|i| [0x61, 0x4E2D, 0xD83D, 0xDE00, 0xDC00][(i % 5) as usize]).collect();
        let slices = |ranges: &[std::ops::Range<usize>]| ranges.iter().map(|r| &text[r.clone()]).collect::<Vec<_>>();
        let ranges: Vec<std::ops::Range<usize>> = (0..60).map(|k| k * 10_000..k * 10_000 + 9_000 + k).collect();
        let want: Vec<String> = ranges.iter().map(|r| content_hash(&text[r.clone()])).collect();
        assert_eq!(content_hashes(&slices(&ranges)), want);
        assert_eq!(content_hashes(&slices(&ranges[..1])), want[..1]);
        assert!(content_hashes(&[]).is_empty());
        // One range most of the work, with empty and small ones around it:
        // the pipelined path, chunk boundaries inside pairs included.
        let ranges = [0..0, 3..70_001, 70_001..70_001, 80_000..599_999, 599_999..600_000];
        let want: Vec<String> = ranges.iter().map(|r| content_hash(&text[r.clone()])).collect();
        assert_eq!(pipelined(&slices(&ranges), 3), Some(want.clone()));
        assert_eq!(pipelined(&slices(&ranges), 1), Some(want.clone()));
        assert_eq!(content_hashes(&slices(&ranges)), want);
    }

    #[test]
    fn lone_surrogates_hash_as_wtf8() {
        let mut std = Sha256::new();
        std.update([b'a', 0xED, 0xA0, 0x80, b'b']); // U+D800 as three bytes
        let want: String = std.finalize()[..12].iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(content_hash(&[0x61, 0xD800, 0x62]), want);
        assert_ne!(content_hash(&[0xD800]), content_hash(&[0xDC00]));
    }

    #[test]
    fn long_texts_hash_like_the_one_shot_digest() {
        let text = "x😀".repeat(5000);
        let mut std = Sha256::new();
        std.update(text.as_bytes());
        let want: String = std.finalize()[..12].iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(content_hash(&utf16(&text)), want);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]
        #[test]
        fn hashes_agree_with_a_plain_wtf8_encoder(
            units in proptest::collection::vec(proptest::prop_oneof![
                0u16..0x80, 0x80u16..0x800, 0x800u16..0xD800, 0xD800u16..0xDC00, 0xDC00u16..0xE000, 0xE000u16..=0xFFFF,
            ], 0..9000)
        ) {
            let want: String = Sha256::digest(encode::tests::wtf8_reference(&units))[..12].iter().map(|b| format!("{b:02x}")).collect();
            proptest::prop_assert_eq!(content_hash(&units), want.clone());
            // The portable build of the same code, whatever this CPU runs.
            let mut out = vec![0u8; 3 * units.len() + 1];
            let used = crate::kernels::portable::encode(&units, &mut out);
            proptest::prop_assert_eq!(Sha256::digest(&out[..used])[..12].iter().map(|b| format!("{b:02x}")).collect::<String>(), want);
        }

    }
}
