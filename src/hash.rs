//! Content hashes: the names retrieval markers give dropped text.
//!
//! HASH is the first 24 lowercase hex digits of the SHA-256 of the text's
//! UTF-8 bytes. Text is UTF-16 and may hold lone surrogates, which have no
//! UTF-8 form; they are encoded as WTF-8 does (three bytes each, like
//! Python's `surrogatepass`), so the bytes are UTF-8 whenever the text is
//! valid and distinct texts never share bytes.

use std::ops::Range;

use sha2::{Digest, Sha256};

use crate::text::{is_high_surrogate, is_low_surrogate};

/// Hex digits of a hash.
pub const HASH_LEN: usize = 24;

/// True for a hash as this crate writes them: 24 lowercase hex digits.
pub fn is_hash(hash: &str) -> bool {
    hash.len() == HASH_LEN && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Code units encoded at a time.
const CHUNK: usize = 1 << 14;
/// Below this many units in all, hashing stays on one thread.
const PARALLEL_FROM: usize = 1 << 18;
/// Encoded chunks the helper may run ahead of the hashing of a long text.
const PIPE_DEPTH: usize = 4;

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
/// encoding is shared (see [`pipelined`]). Lines mode on 1 MiB of CJK,
/// whose plan drops one run of a million units (A/B in one process,
/// `benches/node/compare.js`): 4.06 ms hashed on one thread, 3.19 ms so.
pub fn content_hashes(texts: &[&[u16]]) -> Vec<String> {
    let hash_all = |texts: &[&[u16]]| texts.iter().map(|t| content_hash(t)).collect::<Vec<_>>();
    let total: usize = texts.iter().map(|t| t.len()).sum();
    if total < PARALLEL_FROM {
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

/// [`content_hashes`] with text `long` hashed on this thread while both
/// threads encode its chunks in order, the helper at most [`PIPE_DEPTH`]
/// chunks ahead of the hashing; the helper hashes the other texts whole
/// whenever it is far enough ahead, and this thread the rest after `long`.
/// `None` when no thread could be started.
fn pipelined(texts: &[&[u16]], long: usize) -> Option<Vec<String>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

    /// Encoded chunks not yet hashed, and the progress of both threads.
    struct State {
        slots: Vec<Option<(Vec<u8>, usize)>>,
        claimed: usize,
        consumed: usize,
        helper_gone: bool,
    }
    /// Marks the helper gone when it ends, normally or by a panic, so this
    /// thread never waits for a chunk nobody will encode.
    struct Gone<'a>(&'a (Mutex<State>, Condvar));
    impl Drop for Gone<'_> {
        fn drop(&mut self) {
            self.0.0.lock().unwrap_or_else(PoisonError::into_inner).helper_gone = true;
            self.0.1.notify_all();
        }
    }

    let units = texts[long];
    let pieces: Vec<Range<usize>> = chunks(units).collect();
    let n = pieces.len();
    let encode_piece = |k: usize| {
        let mut buf = Vec::new();
        let used = encode_chunk(&units[pieces[k].clone()], &mut buf);
        (buf, used)
    };
    let others: Vec<usize> = (0..texts.len()).filter(|&i| i != long).collect();
    let next_other = AtomicUsize::new(0);
    let claim_other = || others.get(next_other.fetch_add(1, Ordering::Relaxed)).copied();
    let shared =
        (Mutex::new(State { slots: vec![None; n], claimed: 0, consumed: 0, helper_gone: false }), Condvar::new());
    let lock = || shared.0.lock().unwrap_or_else(PoisonError::into_inner);
    let wait = |guard: MutexGuard<'_, State>| drop(shared.1.wait(guard).unwrap_or_else(PoisonError::into_inner));

    std::thread::scope(|scope| {
        let helper = std::thread::Builder::new().spawn_scoped(scope, || {
            let _gone = Gone(&shared);
            let mut done = Vec::new();
            loop {
                let mut state = lock();
                if state.claimed < n && state.claimed < state.consumed + PIPE_DEPTH {
                    let k = state.claimed;
                    state.claimed += 1;
                    drop(state);
                    let encoded = encode_piece(k);
                    lock().slots[k] = Some(encoded);
                    shared.1.notify_all();
                } else if let Some(i) = claim_other() {
                    drop(state);
                    done.push((i, content_hash(texts[i])));
                } else if state.claimed < n {
                    wait(state);
                } else {
                    return done;
                }
            }
        });
        let helper = helper.ok()?;
        let mut hasher = Sha256::new();
        for k in 0..n {
            let (buf, used) = loop {
                let mut state = lock();
                if let Some(encoded) = state.slots[k].take() {
                    break encoded;
                }
                if state.claimed < n {
                    // Waiting would idle this core: encode the next chunk here.
                    let j = state.claimed;
                    state.claimed += 1;
                    drop(state);
                    let encoded = encode_piece(j);
                    if j == k {
                        break encoded;
                    }
                    lock().slots[j] = Some(encoded);
                } else if state.helper_gone {
                    // Claimed by a helper that stopped before storing it.
                    drop(state);
                    break encode_piece(k);
                } else {
                    wait(state);
                }
            };
            hasher.update(&buf[..used]);
            lock().consumed = k + 1;
            shared.1.notify_all();
        }
        let mut out: Vec<Option<String>> = vec![None; texts.len()];
        out[long] = Some(hex(hasher));
        while let Some(i) = claim_other() {
            out[i] = Some(content_hash(texts[i]));
        }
        for (i, hash) in helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)) {
            out[i] = Some(hash);
        }
        out.into_iter().collect()
    })
}

/// Code-unit ranges of `text` to encode one at a time: about [`CHUNK`]
/// units each, never ending between the halves of a surrogate pair.
fn chunks(text: &[u16]) -> impl Iterator<Item = Range<usize>> + '_ {
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

/// Writes the (W)UTF-8 bytes of `units` (a chunk from [`chunks`]) to the
/// start of `out`, growing it as needed; returns how many.
fn encode_chunk(units: &[u16], out: &mut Vec<u8>) -> usize {
    let room = 3 * units.len() + 1;
    if out.len() < room {
        out.resize(room, 0);
    }
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::avx2() {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { encode_avx2(units, out) };
    }
    encode(units, out)
}

/// [`encode`] compiled for AVX2: the narrowing and both encoding passes get
/// twice the lanes. Hashing 1 MiB (`cargo bench --bench core -- FILE`,
/// best of three): CJK 2.65 ms with AVX2, 3.46 ms portable; emoji-heavy
/// text 2.30 vs 3.26; ASCII equal (narrowing and SHA-256 either way).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn encode_avx2(units: &[u16], out: &mut [u8]) -> usize {
    encode(units, out)
}

/// Writes the (W)UTF-8 bytes of `units` into `out` (room for three bytes a
/// unit and one more); returns how many. ASCII, most of any log, is
/// narrowed a group of units at a time, so a few non-ASCII characters (a
/// `✓`, an emoji) cost the general encoder only around them.
#[inline(always)]
fn encode(units: &[u16], out: &mut [u8]) -> usize {
    const GROUP: usize = 64;
    let ascii = |from: usize| {
        let group = &units[from..(from + GROUP).min(units.len())];
        (group.iter().fold(0u16, |m, &u| m | u) < 0x80, group.len())
    };
    let mut used = 0;
    let mut at = 0;
    while at < units.len() {
        let mut end = at;
        while end < units.len() {
            match ascii(end) {
                (true, n) => end += n,
                (false, _) => break,
            }
        }
        for (slot, &u) in out[used..].iter_mut().zip(&units[at..end]) {
            *slot = u as u8;
        }
        used += end - at;
        at = end;
        // The run up to the next ASCII group; it ends next to an ASCII unit,
        // so never inside a surrogate pair.
        while end < units.len() {
            match ascii(end) {
                (false, n) => end += n,
                (true, _) => break,
            }
        }
        if end > at {
            used += encode_wtf8(&units[at..end], &mut out[used..]);
            at = end;
        }
    }
    used
}

/// The first [`HASH_LEN`] hex digits of the hasher's digest.
fn hex(hasher: Sha256) -> String {
    let digest = hasher.finalize();
    let mut hex = String::with_capacity(HASH_LEN);
    for byte in &digest[..HASH_LEN / 2] {
        hex.push(char::from_digit(u32::from(byte >> 4), 16).expect("nibble"));
        hex.push(char::from_digit(u32::from(byte & 15), 16).expect("nibble"));
    }
    hex
}

/// Writes the (W)UTF-8 bytes of `units` into `out` (which holds at least
/// three bytes per unit plus one); returns how many. A pair is one 4-byte
/// sequence, a lone surrogate the 3-byte form of its value. `units` must
/// not start with the low half of a pair whose high half came before it.
///
/// Mixed text (letters between emoji) defeats branch prediction, so this
/// works in two passes over blocks of units. The first gives every unit its
/// bytes and length from the unit and its two neighbours alone: four for a
/// high half followed by a low one, none for that low half, one to three
/// for anything else. It is the same arithmetic for every unit, which the
/// compiler vectorises. The second stores four bytes per unit at the output
/// position and advances it by the unit's length, with no branches.
#[inline(always)]
fn encode_wtf8(units: &[u16], out: &mut [u8]) -> usize {
    const BLOCK: usize = 256;
    assert!(out.len() > 3 * units.len(), "room for three bytes per unit and one spare");
    let mut words = [0u32; BLOCK];
    let mut lens = [0u8; BLOCK];
    // The block between its two neighbours: unit i of the block is pad[i + 1].
    let mut pad = [0u16; BLOCK + 2];
    let mut used = 0usize;
    let mut start = 0;
    while start < units.len() {
        let end = (start + BLOCK).min(units.len());
        let n = end - start;
        pad[0] = if start == 0 { 0 } else { units[start - 1] };
        pad[1..=n].copy_from_slice(&units[start..end]);
        pad[n + 1] = units.get(end).copied().unwrap_or(0);
        // Equal-length zips, so the loop vectorises.
        let (prevs, this, nexts) = (&pad[..n], &pad[1..n + 1], &pad[2..n + 2]);
        for ((((word, len), &u), &p), &x) in words.iter_mut().zip(lens.iter_mut()).zip(this).zip(prevs).zip(nexts) {
            (*word, *len) = wtf8_form(u, p, x);
        }
        let base = out.as_mut_ptr();
        for (&word, &len) in words[..n].iter().zip(&lens[..n]) {
            // SAFETY: before a unit, used <= 3 * (units before it) (a pair is
            // four bytes for two units, a lone unit at most three), so the
            // four bytes stored end at most at 3 * units.len() + 1 <=
            // out.len(). Bytes past a unit's length are spare: a later store
            // overwrites them or they lie past the returned length.
            unsafe { base.add(used).cast::<[u8; 4]>().write_unaligned(word.to_le_bytes()) };
            used += usize::from(len);
        }
        start = end;
    }
    used
}

/// The (W)UTF-8 bytes (little-endian, up to four) and their count for unit
/// `u` between `prev` and `next`, by arithmetic and selects only.
#[inline(always)]
fn wtf8_form(u: u16, prev: u16, next: u16) -> (u32, u8) {
    let pick = |cond: bool, a: u32, b: u32| {
        let mask = 0u32.wrapping_sub(u32::from(cond));
        (a & mask) | (b & !mask)
    };
    let starts_pair = is_high_surrogate(u) & is_low_surrogate(next);
    let ends_pair = is_low_surrogate(u) & is_high_surrogate(prev);
    let (u, next) = (u32::from(u), u32::from(next));
    let point = 0x10000 + ((u & 0x3FF) << 10) + (next & 0x3FF);
    let four = (0xF0 | (point >> 18))
        | ((0x80 | ((point >> 12) & 0x3F)) << 8)
        | ((0x80 | ((point >> 6) & 0x3F)) << 16)
        | ((0x80 | (point & 0x3F)) << 24);
    let three = (0xE0 | (u >> 12)) | ((0x80 | ((u >> 6) & 0x3F)) << 8) | ((0x80 | (u & 0x3F)) << 16);
    let two = (0xC0 | (u >> 6)) | ((0x80 | (u & 0x3F)) << 8);
    let word = pick(starts_pair, four, pick(u < 0x80, u, pick(u < 0x800, two, three)));
    let alone = 1 + u32::from(u >= 0x80) + u32::from(u >= 0x800);
    (word, pick(starts_pair, 4, pick(ends_pair, 0, alone)) as u8)
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

    /// WTF-8 the plain way: std's decoder, lone surrogates as their 3-byte form.
    fn wtf8_reference(units: &[u16]) -> Vec<u8> {
        let mut out = Vec::new();
        for decoded in char::decode_utf16(units.iter().copied()) {
            match decoded {
                Ok(c) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
                Err(lone) => {
                    let u = lone.unpaired_surrogate();
                    out.extend_from_slice(&[
                        0xE0 | (u >> 12) as u8,
                        0x80 | ((u >> 6) & 0x3F) as u8,
                        0x80 | (u & 0x3F) as u8,
                    ]);
                }
            }
        }
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]
        #[test]
        fn hashes_agree_with_a_plain_wtf8_encoder(
            units in proptest::collection::vec(proptest::prop_oneof![
                0u16..0x80, 0x80u16..0x800, 0x800u16..0xD800, 0xD800u16..0xDC00, 0xDC00u16..0xE000, 0xE000u16..=0xFFFF,
            ], 0..9000)
        ) {
            let want: String = Sha256::digest(wtf8_reference(&units))[..12].iter().map(|b| format!("{b:02x}")).collect();
            proptest::prop_assert_eq!(content_hash(&units), want.clone());
            // The portable build of the same code, whatever this CPU runs.
            let mut out = vec![0u8; 3 * units.len() + 1];
            let used = encode(&units, &mut out);
            proptest::prop_assert_eq!(Sha256::digest(&out[..used])[..12].iter().map(|b| format!("{b:02x}")).collect::<String>(), want);
        }

        /// The encoder on its own, on short texts where every block
        /// boundary is near.
        #[test]
        fn the_encoder_writes_wtf8(
            units in proptest::collection::vec(proptest::prop_oneof![
                0u16..0x80, 0x80u16..0x800, 0x800u16..0xD800, 0xD800u16..0xDC00, 0xDC00u16..0xE000, 0xE000u16..=0xFFFF,
            ], 0..80)
        ) {
            // The encoders' contract: no low half of a pair split off before.
            let want = wtf8_reference(&units);
            let mut out = vec![0xAAu8; 3 * units.len() + 1];
            let used = encode_wtf8(&units, &mut out);
            proptest::prop_assert_eq!(&out[..used], &want[..]);
        }
    }
}
