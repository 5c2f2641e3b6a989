//! Hashing one long text on two threads: both encode its chunks in order,
//! this thread feeds the digest, which cannot be split.

use std::ops::Range;

use sha2::{Digest, Sha256};

use super::encode::encode_chunk;
use super::{PIPE_DEPTH, chunks, content_hash, hex};

/// [`content_hashes`] with text `long` hashed on this thread while both
/// threads encode its chunks in order, the helper at most [`PIPE_DEPTH`]
/// chunks ahead of the hashing; the helper hashes the other texts whole
/// whenever it is far enough ahead, and this thread the rest after `long`.
/// `None` when no thread could be started.
pub(super) fn pipelined(texts: &[&[u16]], long: usize) -> Option<Vec<String>> {
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
