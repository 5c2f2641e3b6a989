//! A commit log's lines (`git log`, `git show`): its `commit` headers and
//! their fields.

/// Whether a view is a `commit <40 hex digits>` line.
pub fn is_commit(v: &str) -> bool {
    v.strip_prefix("commit ").is_some_and(|h| h.len() >= 40 && h.as_bytes()[..40].iter().all(u8::is_ascii_hexdigit))
}

/// Whether a view is a commit's `Author:`, `Date:` or `Merge:` line.
pub fn is_commit_field(v: &str) -> bool {
    v.starts_with("Author:") || v.starts_with("Date:") || v.starts_with("Merge:")
}

/// Whether `line` (UTF-16), as the plan views it, is a `commit` header: a
/// text that opens with one is a commit log, newest first.
pub fn opens_with_commit(line: &[u16]) -> bool {
    let mut v = String::new();
    crate::signals::view(line, &mut v);
    is_commit(&v)
}
