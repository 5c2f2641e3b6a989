//! What a frame line is: the patterns that read stack traces and the
//! blocks under a failure, and whether a frame is the project's own.
//!
//! A trace is a run of frames; each frame is a header line and its detail
//! lines (the source line under a Python frame, the `at path` line under a
//! Rust frame, the file line under a Go function). A frame is the
//! project's own unless its text names a library or runtime location
//! ([`LIBRARY`]), so the planner can keep the frame that names the bug.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use regex::bytes::Regex;

use super::rules::ascii_regex;
use super::view::{content_start, escape_len};

/// Where a frame's code lives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(u8)]
pub enum Frame {
    /// Not a frame.
    #[default]
    None,
    /// A frame in a library, the runtime or the standard library.
    Library,
    /// A frame in the project's own code.
    Project,
}

/// Substrings (matched without regard to ASCII case) that put a frame in a
/// library or runtime.
pub const LIBRARY: &[&str] = &[
    "node_modules",
    "node:internal",
    "(node:",
    "site-packages",
    "dist-packages",
    "/lib/python",
    "<frozen",
    "/usr/lib/",
    "/usr/libexec/",
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
    "(<anonymous>)",
    "native method",
];

/// The patterns that read traces and explanation blocks (byte regexes).
pub(crate) struct TracePatterns {
    /// A line that opens a frame.
    pub frame: Regex,
    /// A line that belongs to the frame above it.
    pub frame_detail: Regex,
    /// A line that starts a trace without being a frame.
    pub trace_start: Regex,
    /// A line of the structured block under a failure (values, a gutter of
    /// source, the hunk header of an assertion's long diff).
    pub explains: Regex,
    /// A line of that block stating a value the failure compared
    /// (`Expected: 3`, `received = "a"`, `left: 1`).
    pub states_value: Regex,
    /// A line of the context a compiler prints above a diagnostic: where
    /// it was included from, which function or template instantiation it
    /// is in, and what required it (GCC and Clang).
    pub context_above: Regex,
    /// The [`LIBRARY`] markers.
    library: AhoCorasick,
}

pub(crate) fn patterns() -> &'static TracePatterns {
    static PATTERNS: OnceLock<TracePatterns> = OnceLock::new();
    PATTERNS.get_or_init(|| TracePatterns {
        frame: ascii_regex(
            r#"(?x)
              ^\s+at\s+\S
            | ^\s+by\ 0x[0-9A-Fa-f]+:\ \S
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
            | ^@@\ -\d+(?:,\d+)?\ \+\d+(?:,\d+)?\ @@
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
        library: AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::LeftmostFirst)
            .build(LIBRARY)
            .expect("static markers"),
    })
}

/// Whether a frame's text names a library.
pub fn library_text(text: &str) -> bool {
    // `<anonymous>` as the place (`at <anonymous>`, `new Promise (<anonymous>)`)
    // is no file of the project; as a function's name with a file
    // (`Object.<anonymous> (/app/test/a.js:3:5)`), it is the test itself.
    patterns().library.is_match(text) || text.trim_end().ends_with("<anonymous>")
}

/// Searchers for the two headers that change how a failure is followed.
fn finders() -> &'static (memchr::memmem::Finder<'static>, memchr::memmem::Finder<'static>) {
    static FINDERS: OnceLock<(memchr::memmem::Finder<'static>, memchr::memmem::Finder<'static>)> = OnceLock::new();
    FINDERS.get_or_init(|| {
        (memchr::memmem::Finder::new("Traceback (most recent call last)"), memchr::memmem::Finder::new("panicked at"))
    })
}

/// What a strong failure line opens, as its trace reading needs it (read
/// from the line's view once, when it is classified).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Opens {
    /// A Python traceback's header.
    pub traceback: bool,
    /// A Rust panic, whose message is the next line.
    pub panic: bool,
}

/// What strong failure line `view` opens (see [`Opens`]).
pub(crate) fn opens(view: &str) -> Opens {
    let (traceback, panicked) = finders();
    Opens { traceback: traceback.find(view.as_bytes()).is_some(), panic: panicked.find(view.as_bytes()).is_some() }
}

/// The indentation of `line`'s view (see [`indent_of`]), read off its code
/// units as [`view`] reads them: after a CI timestamp, escapes skipped, a
/// tree's box drawing a space while only spaces and tabs precede it.
pub(crate) fn line_indent(line: &[u16]) -> usize {
    let mut at = content_start(line);
    let mut indent = 0;
    let mut leading = true;
    while at < line.len() {
        let u = line[at];
        if leading && (0x2500..=0x257F).contains(&u) {
            indent += 1;
            at += 1;
            continue;
        }
        match u {
            0x1B => {
                at += escape_len(&line[at..]).unwrap_or(1);
                continue;
            }
            0x5E if escape_len(&line[at..]).is_some() => {
                at += escape_len(&line[at..]).unwrap_or(1);
                continue;
            }
            0x0D | 0x0A => {}
            0x20 => indent += 1,
            0x09 => indent += 4,
            0x0B | 0x0C | 0x85 | 0xA0 | 0x1680 | 0x2000..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000 => {
                indent += 1;
                leading = false;
            }
            _ => return indent,
        }
        at += 1;
    }
    indent
}

/// Leading whitespace of a view, tabs counting four.
pub(crate) fn indent_of(view: &str) -> usize {
    view.chars().take_while(|c| c.is_whitespace()).map(|c| if c == '\t' { 4 } else { 1 }).sum()
}

/// Whether `line`'s text starts with a pass glyph (`✓ ok`): a pass verdict
/// the keyword scan does not flag, since it never makes a failure line.
pub(crate) fn starts_with_pass_glyph(line: &[u16]) -> bool {
    let at = content_start(line);
    let rest = &line[at..];
    let skip = rest.iter().take_while(|&&u| matches!(u, 0x20 | 0x09)).count();
    matches!(rest.get(skip), Some(0x2713 | 0x2714 | 0x221A))
        && rest.get(skip + 1).is_some_and(|&u| crate::text::is_space(u))
}

#[cfg(test)]
mod indent_tests {
    use super::*;
    use crate::signals::view::view;
    use crate::text::utf16;

    #[test]
    fn line_indent_is_the_views_indent() {
        let mut v = String::new();
        for line in [
            "plain",
            "    four",
            "\tat x",
            "  \u{1b}[31m  red",
            "2026-04-22T16:11:57.0127816Z   stamped",
            "\u{2502}  \u{251c}\u{2500} tree",
            "\u{a0}\u{2502} nbsp then box",
            " \u{b}\u{2502} vt then box",
            "^[[1m  caret",
            "^x",
            " \u{1b}",
            "   \r\n",
            "\u{3000}wide",
        ] {
            let t = utf16(line);
            view(&t, &mut v);
            assert_eq!(line_indent(&t), indent_of(&v), "{line:?}");
        }
    }
}
