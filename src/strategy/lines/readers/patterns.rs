//! The line patterns the kind sampler, the code outline and the task's
//! search hits share: a definition, a function opened, a signature, an import, a comment, log evidence, a search
//! hit, a diagnostic, a listing entry.

use std::sync::OnceLock;

use regex::bytes::Regex;

use crate::signals::rules::ascii_regex;

/// The compiled patterns (see [`patterns`]).
pub struct ShapePatterns {
    pub definition: Regex,
    pub function: Regex,
    pub signature: Regex,
    pub import: Regex,
    pub comment: Regex,
    pub log_evidence: Regex,
    pub search_hit: Regex,
    pub search_context: Regex,
    pub diagnostic: Regex,
    pub listing: Regex,
}

/// The words a definition may open with before its keyword (`pub` also
/// as `pub(crate)`), as the definition pattern reads them.
pub const DEFINITION_MODIFIERS: &[&str] = &[
    "export",
    "default",
    "pub",
    "async",
    "static",
    "public",
    "private",
    "protected",
    "internal",
    "unsafe",
    "const",
    "declare",
    "extern",
    "inline",
    "abstract",
    "final",
    "override",
    "virtual",
    "sealed",
    "open",
    "data",
    "suspend",
];

/// The patterns, compiled once.
pub fn patterns() -> &'static ShapePatterns {
    static PATTERNS: OnceLock<ShapePatterns> = OnceLock::new();
    PATTERNS.get_or_init(|| ShapePatterns {
        // A definition opened by a keyword, in most languages.
        definition: ascii_regex(&format!(
            r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:{})\s+)*(?:(?:def|class|fn|func|function|struct|enum|trait|impl|interface|type|module|namespace|object|record|union|typedef|mod|let|var|const)\b|macro_rules!)",
            DEFINITION_MODIFIERS.iter().map(|m| if *m == "pub" { r"pub(?:\([^)]*\))?" } else { m }).collect::<Vec<_>>().join("|")
        )),
        // A function or a class opened (what a search hit may sit in): a
        // keyword after its modifiers, or a name bound to a function
        // (`proto.handle = function handle(req) {`).
        function: ascii_regex(
            r"^\s*(?:(?:export|default|async|static|public|private|protected|pub(?:\([^)]*\))?)\s+)*(?:def|fn|func|function|class)\b|^\s*[\w.$]+\s*[:=]\s*(?:async\s+)?function\b",
        ),
        // A C-family or Java signature: a return type, a name, a parameter
        // list, not a call or a statement.
        signature: ascii_regex(
            r"^[ \t]{0,4}(?:[A-Za-z_][\w:<>\[\]*&,]*[ \t*&]+)+\**[A-Za-z_]\w*\s*\([^;{]*[,){;]?\s*(?:const\s*)?(?:\{|;|,|\)\s*)?$|^#\s*define\s+\w",
        ),
        import: ascii_regex(r"^\s*(?:import\b|from\s+\S+\s+import\b|#\s*include\b|use\s+[\w:{]|using\s+\w|package\s+\w|require\s*\(|extern\s+crate\b)"),
        comment: ascii_regex(r#"^\s*(?://|#(?:\s|$)|/\*|\*|"""|''')"#),
        log_evidence: ascii_regex(
            r"^\s*\d*\s*\|\s|\s-->\s|^\d{4}-\d\d-\d\d[T ]\d\d:|^\[?\d\d:\d\d:\d\d|\b(?:PASSED|FAILED|PASS|FAIL)\b|\b(?:INFO|WARN|WARNING|ERROR|DEBUG)\b|^\s*(?:at\s+\S|File\s+\x22)|\.\.\.\s*ok$",
        ),
        search_hit: ascii_regex(r"^[^\s:]{1,400}:\d+:"),
        search_context: ascii_regex(r"^[^\s:]{1,400}-\d+-|^--$"),
        diagnostic: ascii_regex(r"^[^\s:]{1,400}:\d+:(?:\d+:)?\s*(?:(?:error|warning|note|info|fatal|hint)\b|[A-Z]{1,3}\d{2,4}\b)|^[^\s:]{1,400}:\d+:\d+: [A-Za-z]"),
        listing: ascii_regex(r"^[-dlcbps][rwxsStT-]{9}[.+@]?\s|^total \d+$|^\S.*:$|^\.{0,2}/?[\w@.+-]+(?:/[\w@.+-]*)+/?$"),
    })
}
