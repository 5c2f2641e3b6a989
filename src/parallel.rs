//! Two pieces of work at once, for the few passes over a large text that
//! split cleanly in two (the keyword scan, hashing dropped runs).

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
