//! Stack traces and the blocks that explain a failure.
//!
//! After a failure line come the lines that explain it: the structured block
//! under it (an assertion's expected and actual values, a diff, TAP's YAML
//! block, a code frame, pytest's `E` lines) and, often, a stack trace. A
//! trace is a run of frames; each frame is a header line and its detail
//! lines (the source line under a Python frame, the `at path` line under a
//! Rust frame, the file line under a Go function). A frame is the
//! project's own unless its text names a library or runtime location
//! ([`LIBRARY`]), so the planner can keep the frame that names the bug.

use std::sync::OnceLock;

use regex::bytes::Regex;

use super::rules::ascii_regex;

/// Where a frame's code lives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Frame {
    /// Not a frame.
    #[default]
    None,
    /// A frame in a library, the runtime or the standard library.
    Library,
    /// A frame in the project's own code.
    Project,
}

/// Substrings (lowercase) that put a frame in a library or runtime.
pub const LIBRARY: &[&str] = &[
    "node_modules",
    "node:internal",
    "(node:",
    "site-packages",
    "dist-packages",
    "/lib/python",
    "<frozen",
    "/usr/lib/",
    "/usr/include/",
    "/usr/local/lib/",
    "/rustc/",
    ".cargo/registry",
    "/library/std/",
    "/library/core/",
    "core::",
    "std::",
    "alloc::",
    "__rust",
    "rust_begin_unwind",
    "java.base/",
    "jdk.internal",
    "sun.reflect",
    "java.lang.reflect",
    "org.junit.",
    "junit.framework",
    "org.apache.maven",
    "org.gradle",
    "/go/src/",
    "/lib/go",
    "runtime/",
    "testing.",
    "testing/",
    "created by ",
    "<anonymous>",
    "native method",
];

/// The patterns that read traces and explanation blocks (byte regexes).
pub(crate) struct Patterns {
    /// A line that opens a frame.
    pub frame: Regex,
    /// A line that belongs to the frame above it.
    pub frame_detail: Regex,
    /// A line that starts a trace without being a frame.
    pub trace_start: Regex,
    /// A line of the structured block under a failure.
    pub explains: Regex,
    /// A line of that block stating a value the failure compared
    /// (`Expected: 3`, `received = "a"`, `left: 1`).
    pub states_value: Regex,
    /// A line of the context a compiler prints above a diagnostic: where
    /// it was included from, which function or template instantiation it
    /// is in, and what required it (GCC and Clang).
    pub context_above: Regex,
}

pub(crate) fn patterns() -> &'static Patterns {
    static PATTERNS: OnceLock<Patterns> = OnceLock::new();
    PATTERNS.get_or_init(|| Patterns {
        frame: ascii_regex(
            r#"(?x)
              ^\s+at\s+\S
            | ^\s+File\ "
            | ^\s+\d+:\s+\S
            | ^\s+[\w$.<>\[\]\ ]+\ \(\S+:\d+(?::\d+)?\)\s*$
            | ^\s+\S+\.(?:go|rs|py|js|mjs|cjs|ts|tsx|java|kt|scala|rb|c|cc|cpp|h|hpp|cs|swift):\d+
            | ^[\w./*()\[\]-]+\(.*\)\s*$
            | ^\s+\.\.\.\ \d+\ more
            "#,
        ),
        frame_detail: ascii_regex(
            r#"(?x)
              ^\s+at\s+\S+:\d+
            | ^\t\S+\.go:\d+
            | ^\s{4,}\S
            "#,
        ),
        trace_start: ascii_regex(r"^\s*(?:stack backtrace:|goroutine \d+ \[|stack:\s*\|)"),
        explains: ascii_regex(
            r#"(?xi)
              ^E\s
            | ^[-+?]\s
            | ^[-+]\ ?\S
            | ^\s*>\s
            | ^\s*(?:expected|actual|received|left|right|operator|at|location|error|code|name|message|stack|diff|found|wanted|got|value|difference)\b(?:\ value)?\s*[:=]
            | ^\s*(?:---|\.\.\.)\s*$
            | ^\s*>?\s*\d*\s*\|
            | ^\s*\^
            | ^\s*~+\^?~*\s*$
            | ^\s*(?:note|help|hint):
            "#,
        ),
        states_value: ascii_regex(
            r"(?i)^\s*(?:expected|actual|received|left|right|got|wanted|found)\b(?: value)?\s*[:=]",
        ),
        context_above: ascii_regex(
            r#"(?x)
              ^In\ file\ included\ from\ \S+:\d+
            | ^\s+from\ \S+:\d+[,:]
            | :\ In\ (?:instantiation\ of|function|member\ function|constructor|destructor|static\ member\ function|lambda\ function)\b
            | :\d+:\d+:\s+(?:required|recursively\ required)\ (?:from|by)\b
            "#,
        ),
    })
}

/// Whether a frame's text (header and details, lowercased) names a library.
pub fn library_text(text: &str) -> bool {
    LIBRARY.iter().any(|marker| text.contains(marker))
}
