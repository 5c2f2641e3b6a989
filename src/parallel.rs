//! Two pieces of work at once, for the few passes over a large text that
//! split cleanly: the keyword scan, the line classification, hashing
//! dropped runs.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// Work over at least this many code units is worth a second thread (the
/// signal scan, hashing); below it, starting one costs more than it saves.
pub const PARALLEL_FROM: usize = 1 << 18;

/// Runs `first` on a helper thread and `second` on this one, and returns
/// both results. When no thread can be started, `first` runs here after
/// `second`. A panic in `first` resumes on this thread.
pub fn join<A: Send, B>(first: impl Fn() -> A + Sync, second: impl FnOnce() -> B) -> (A, B) {
    std::thread::scope(|scope| {
        let helper = std::thread::Builder::new().spawn_scoped(scope, &first).ok();
        let b = second();
        let a = match helper {
            Some(handle) => handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            None => first(),
        };
        (a, b)
    })
}

/// Produces the items `0..n` on two threads and consumes them in order on
/// this one: `consume(k, item)` for each `k` ascending. Both threads take
/// the next item to produce as they free up (this one whenever the item it
/// must consume next is not ready), and the helper runs at most `depth`
/// items ahead of the consumer, so at most that many wait in memory. Each
/// thread produces with its own state: `mine` here, `theirs()` on the
/// helper. With `n` below 2, or when no thread can be started, everything
/// runs here in order. A panic on the helper resumes here.
pub fn ordered<S: ?Sized, H: std::ops::DerefMut<Target = S>, T: Send>(
    n: usize,
    depth: usize,
    mine: &mut S,
    theirs: impl FnOnce() -> H + Send,
    produce: impl Fn(&mut S, usize) -> T + Sync,
    mut consume: impl FnMut(usize, T),
) {
    if n < 2 {
        for k in 0..n {
            let item = produce(mine, k);
            consume(k, item);
        }
        return;
    }
    /// Produced items not yet consumed, and how far each side has got.
    pub(super) struct State<T> {
        slots: Vec<Option<T>>,
        claimed: usize,
        consumed: usize,
        helper_gone: bool,
    }
    /// Marks the helper gone when it ends, normally or by a panic, so this
    /// thread never waits for an item nobody will produce.
    struct Gone<'a, T>(&'a (Mutex<State<T>>, Condvar));
    impl<T> Drop for Gone<'_, T> {
        fn drop(&mut self) {
            self.0.0.lock().unwrap_or_else(PoisonError::into_inner).helper_gone = true;
            self.0.1.notify_all();
        }
    }
    let shared = (
        Mutex::new(State { slots: (0..n).map(|_| None).collect(), claimed: 0, consumed: 0, helper_gone: false }),
        Condvar::new(),
    );
    let lock = || shared.0.lock().unwrap_or_else(PoisonError::into_inner);
    fn wait<'a, T>(cv: &Condvar, guard: MutexGuard<'a, State<T>>) -> MutexGuard<'a, State<T>> {
        cv.wait(guard).unwrap_or_else(PoisonError::into_inner)
    }
    /// Ends the helper's work when this thread leaves, normally or by a
    /// panic (which the scope would otherwise wait on a helper for ever).
    struct Done<'a, T>(&'a (Mutex<State<T>>, Condvar), usize);
    impl<T> Drop for Done<'_, T> {
        fn drop(&mut self) {
            self.0.0.lock().unwrap_or_else(PoisonError::into_inner).claimed = self.1;
            self.0.1.notify_all();
        }
    }
    std::thread::scope(|scope| {
        let _done = Done(&shared, n);
        let helper = std::thread::Builder::new().spawn_scoped(scope, || {
            let _gone = Gone(&shared);
            let mut held = theirs();
            let state: &mut S = &mut held;
            let mut guard = lock();
            loop {
                if guard.claimed >= n {
                    return;
                }
                if guard.claimed < guard.consumed + depth {
                    let k = guard.claimed;
                    guard.claimed += 1;
                    drop(guard);
                    let item = produce(state, k);
                    guard = lock();
                    guard.slots[k] = Some(item);
                    shared.1.notify_all();
                } else {
                    guard = wait(&shared.1, guard);
                }
            }
        });
        let helper = helper.ok();
        for k in 0..n {
            let item = loop {
                let mut guard = lock();
                if let Some(item) = guard.slots[k].take() {
                    break item;
                }
                if guard.claimed < n {
                    // Rather than wait, produce the next unclaimed item here.
                    let j = guard.claimed;
                    guard.claimed += 1;
                    drop(guard);
                    let item = produce(mine, j);
                    if j == k {
                        break item;
                    }
                    lock().slots[j] = Some(item);
                } else if guard.helper_gone {
                    // Claimed by a helper that stopped before storing it.
                    drop(guard);
                    break produce(mine, k);
                } else {
                    drop(wait(&shared.1, guard));
                }
            };
            consume(k, item);
            lock().consumed = k + 1;
            shared.1.notify_all();
        }
        if let Some(handle) = helper
            && let Err(panic) = handle.join()
        {
            std::panic::resume_unwind(panic);
        }
    });
}

#[cfg(test)]
mod tests;
