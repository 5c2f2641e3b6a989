//! Diagnostics: the lines a linter, type checker or compiler prints, one
//! per finding, each naming the rule it broke.
//!
//! A diagnostic line is located (`path:12:5:`, `path(12,5):`, or a bare
//! `12:5` under a file header) and says a severity word or a rule code, or
//! it opens with a rule code (`F821 Undefined name …`, its location on the
//! next line). Its *rule* is the code (`F821`, `E1120`, `TS2345`,
//! `E0308`), else the rule name the tool prints last (`[arg-type]`,
//! `(no-value-for-parameter)`, `[-Wunused-variable]`, ESLint's
//! `no-undef`), else the first words of its message. The planner shows the
//! first line of each rule before any second line of one (rarest and most
//! severe first), so the one finding that differs from a flood is kept.

use std::ops::Range;

/// How serious a diagnostic says it is; ordered, least first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Severity {
    /// `note`, `info`, `hint`, `help`.
    #[default]
    Note,
    /// No severity word: a code alone (`E501`, `D205`).
    Unstated,
    /// `warning`.
    Warning,
    /// `error` or `fatal`.
    Error,
}

/// A diagnostic line read: its rule's key and its severity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// A hash of the rule (code, rule name or the message's first words).
    pub rule: u64,
    /// What the line says of itself.
    pub severity: Severity,
    /// Located by `line:column` alone: the file is named by a header above.
    pub bare: bool,
    /// Names no location of its own: it may be on the next line.
    pub unlocated: bool,
}

/// Whether `view` is a location line under a diagnostic (`  --> path:12:5`).
pub fn is_location_line(view: &str) -> bool {
    view.trim_start().starts_with("--> ")
}

/// Whether `view` is a line of the source a finding quotes under it, in
/// the gutter rustc and ruff print: indented or numbered, then `|`
/// (`   |`, ` 12 |     let y = x;`, `   | ^^^`). A table's row opens
/// with its `|`, so it is none.
pub fn is_quoted_source_line(view: &str) -> bool {
    let b = view.as_bytes();
    let number = skip_spaces(b, 0);
    let at = skip_spaces(b, number + b[number..].iter().take_while(|c| c.is_ascii_digit()).count());
    at > 0 && b.get(at) == Some(&b'|') && b.get(at + 1).is_none_or(|&c| c == b' ' || c == b'\t')
}

/// Whether `view` can be the file header above bare-located findings: a
/// path (or any text) from the line's first column, without white space.
pub fn is_file_header(view: &str) -> bool {
    let t = view.trim_end();
    !t.is_empty() && !t.starts_with([' ', '\t']) && !t.contains([' ', '\t'])
}

/// Whether the raw line `line` (UTF-16) can be a diagnostic or a file
/// header, so that its view is worth making. A diagnostic opens (past
/// indentation) with its location, a severity word or a code, so with a
/// letter, a digit or a path's first character, and it holds a `:` unless
/// it opens with a capital (`F821 Undefined name`); a header holds no white
/// space; an escape (colour) may hide either. A code snippet's lines (`   |`,
/// ` 4 |     let y = x;`, `   = note: …`) are none of these.
pub fn worth_reading(line: &[u16]) -> bool {
    worth(line, |unit| find_unit(line, unit))
}

/// [`worth_reading`] of a line by its view, when the view is the line's
/// bytes (a plain line: see [`super::view::plain_view`]).
pub fn view_worth_reading(view: &[u8]) -> bool {
    worth(view, |unit| memchr::memchr(unit, view).is_some())
}

/// [`worth_reading`] over units of either width; `holds` says whether the
/// line holds an ASCII unit.
#[inline]
fn worth<U: Copy + Into<u16>>(line: &[U], holds: impl Fn(u8) -> bool) -> bool {
    let Some(f) = line.iter().position(|&u| u.into() != 0x20 && u.into() != 0x09) else { return false };
    let c: u16 = line[f].into();
    if c == 0x1B || (0x41..=0x5A).contains(&c) {
        return true;
    }
    let opens_a_location =
        c >= 0x80 || (c as u8).is_ascii_alphanumeric() || matches!(c as u8, b'/' | b'.' | b'~' | b'_' | b'-' | b'\\');
    if opens_a_location && holds(b':') {
        return true;
    }
    // A header: from the first column, no white space.
    f == 0 && !holds(b' ') && !holds(b'\t') || holds(0x1B)
}

/// Whether `line` holds the ASCII unit `unit`: a byte search over the
/// units' bytes, each hit checked against the unit it falls in.
fn find_unit(line: &[u16], unit: u8) -> bool {
    let bytes = crate::text::unit_bytes(line);
    memchr::memchr_iter(unit, bytes).any(|i| line[i / 2] == u16::from(unit))
}

/// Sampled lines read to tell whether a text is a tool's list of findings.
pub const SAMPLE: usize = 256;

/// A text lists findings where one non-blank line in this many is a
/// finding, its location line or the source it quotes in a gutter (a
/// linter's, even quoting the source in its own way).
pub const ONE_FINDING_IN: usize = 8;

/// Whether the sampled lines of a text hold findings often enough that
/// every line of it is read as a possible one: at least four diagnostics,
/// and diagnostics with their location and quoted source lines one in
/// [`ONE_FINDING_IN`] non-blank lines.
pub fn mostly_findings(mut views: impl Iterator<Item = String>) -> bool {
    let (mut seen, mut found, mut parts) = (0usize, 0usize, 0usize);
    for v in views.by_ref().take(SAMPLE) {
        if v.trim().is_empty() {
            continue;
        }
        seen += 1;
        match read(&v) {
            Some(_) => (found, parts) = (found + 1, parts + 1),
            // A finding's location line and the source it quotes (rustc,
            // ruff) are part of it.
            None => parts += usize::from(is_location_line(&v) || is_quoted_source_line(&v)),
        }
    }
    found >= 4 && parts * ONE_FINDING_IN >= seen
}

/// Bytes of a line read at most, from its start and from its end: a
/// diagnostic's location, severity and code come first, its rule name
/// last, so a long message costs nothing.
const REACH: usize = 160;

/// The diagnostic `view` (a line's view) is, if it is one.
pub fn read(view: &str) -> Option<Diagnostic> {
    read_with_rule(view).map(|(d, _)| d)
}

/// [`read`], with where in `view` the bytes its rule is named by are (a
/// code or a rule name; empty when the rule is the message's first words,
/// which never hold a digit). What `read` says depends on nothing else but
/// the places of digits, so a line equal to this one but for digits
/// outside that range reads the same (see [`same_reading`]).
pub fn read_with_rule(view: &str) -> Option<(Diagnostic, Range<usize>)> {
    let b = view.as_bytes();
    let start = skip_spaces(b, 0);
    // A location line belongs to the finding above it.
    if b[start..].starts_with(b"--> ") {
        return None;
    }
    let (located, mut at, column_then_message) = match location(b, start) {
        // go vet's and gcc's `path:L:C: message`: one space, then a word (a
        // search hit with its column quotes its line whole, so one space
        // and a word follow only a line indented by one space).
        Some((end, column)) => (
            true,
            skip_spaces(b, end),
            column && b.get(end) == Some(&b' ') && b.get(end + 1).is_some_and(u8::is_ascii_alphabetic),
        ),
        None => (false, start, false),
    };
    let bare = located && b[start].is_ascii_digit();
    // pyright: `path:12:5 - error: …`.
    if located && b[at..].starts_with(b"- ") {
        at = skip_spaces(b, at + 1);
    }
    let (severity, after_word, colon) = severity_word(b, at);
    if let Some(end) = after_word {
        at = end;
    }
    // `error[E0308]:`, `error TS2345:`, or a code in first place.
    let code = if b.get(at) == Some(&b'[') {
        code_at(b, at + 1).filter(|&e| b.get(e) == Some(&b']')).map(|e| (at + 1, e))
    } else {
        None
    }
    .or_else(|| code_at(b, skip_spaces(b, at)).filter(|&e| ends_token(b, e)).map(|e| (skip_spaces(b, at), e)));
    let opens_with_code = !located && after_word.is_none() && code.is_some_and(|(s, _)| s == start);
    let stated = after_word.is_some() && severity != Severity::Unstated;
    let accepted = if located {
        stated || code.is_some() || trailing_rule(b).is_some() || column_then_message
    } else if opens_with_code {
        // `F821 Undefined name …`: a code, one space (and ruff's `[*]` for
        // a fixable one), then a word.
        let (_, mut e) = code.expect("checked");
        if b[e..].starts_with(b" [*]") {
            e += 4;
        }
        b.get(e) == Some(&b' ') && b.get(e + 1).is_some_and(|c| c.is_ascii_alphabetic() || *c == b'`' || *c == b'\'')
    } else {
        // `warning: unused variable`, `error[E0599]: no method`: a severity
        // word at the line's start, then `:` or a bracketed code.
        stated && at == start + severity_len(b, start) && (colon || code.is_some())
    };
    if !accepted {
        return None;
    }
    let (rule, span) = match code {
        Some((s, e)) => (hash(&b[s..e]), s..e),
        None => match trailing_rule(b) {
            Some(r) => {
                let s = r.as_ptr() as usize - b.as_ptr() as usize;
                (hash(r), s..s + r.len())
            }
            None => (message_rule(&b[at..], 3), 0..0),
        },
    };
    let severity = match (after_word, code) {
        (Some(_), _) => severity,
        (None, Some((s, e))) => pylint_severity(b, s, e),
        (None, None) => Severity::Unstated,
    };
    Some((Diagnostic { rule, severity, bare, unlocated: !located }, span))
}

/// Whether `line` reads as `before` does, where `before`'s view is its
/// units (a plain line: see [`super::view::plain_view`]) and `rule` is
/// where its rule is named (see [`read_with_rule`]): both of one length,
/// equal unit for unit but where both hold a digit, and equal within
/// `rule`. Then `line` is plain too, and every test here and in
/// [`worth_reading`], [`is_file_header`] and [`is_location_line`] says of
/// it what it said of `before`. One pass without branches (vectorised): a
/// flood's findings mostly differ from the one before only in numbers.
pub fn same_reading(line: &[u16], before: &[u16], rule: Range<usize>) -> bool {
    // Folds without a branch a unit, not a `memcmp` call a line: the lines are short.
    let exact = |a: &[u16], b: &[u16]| a.iter().zip(b).fold(true, |same, (x, y)| same & (x == y));
    line.len() == before.len()
        && exact(&line[rule.clone()], &before[rule])
        && crate::kernels::same_but_digits(line, before)
}

fn skip_spaces(b: &[u8], mut at: usize) -> usize {
    while b.get(at).is_some_and(|&c| c == b' ' || c == b'\t') {
        at += 1;
    }
    at
}

/// The end of a location at `at`: `path:L[:C]:` or `path:L[:C] ` (`path`
/// without white space), `path(L,C):`, `--> path:L:C`, or `L:C` followed
/// by white space (a file's findings under its header); and whether it is
/// `path:L:C:`, a line and a column closed by a colon (gcc's form).
fn location(b: &[u8], at: usize) -> Option<(usize, bool)> {
    let digits = |mut i: usize| {
        let s = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        (i > s).then_some(i)
    };
    if b[at..].starts_with(b"--> ") {
        let path_start = skip_spaces(b, at + 4);
        return location(b, path_start).or(Some((b.len(), false)));
    }
    // `L:C` then white space.
    if let Some(e) = digits(at)
        && b.get(e) == Some(&b':')
        && let Some(e2) = digits(e + 1)
        && b.get(e2).is_some_and(|&c| c == b' ' || c == b'\t')
    {
        return Some((e2, false));
    }
    // A path: no white space, at most REACH bytes, then `:L` or `(L,C)`.
    let limit = (at + REACH).min(b.len());
    let mut i = at;
    while let Some(off) = b[i..limit].iter().position(|&c| matches!(c, b':' | b'(' | b' ' | b'\t')) {
        let j = i + off;
        if matches!(b[j], b' ' | b'\t') {
            return None;
        }
        if b[j] == b':'
            && j > at
            && let Some(mut e) = digits(j + 1)
        {
            let mut column = false;
            if b.get(e) == Some(&b':')
                && let Some(e2) = digits(e + 1)
            {
                (e, column) = (e2, true);
            }
            return match b.get(e) {
                Some(b':') => Some((e + 1, column)),
                Some(b' ' | b'\t') | None => Some((e, false)),
                _ => None,
            };
        }
        if b[j] == b'(' && j > at {
            let e = digits(j + 1)?;
            let e = if b.get(e) == Some(&b',') { digits(e + 1)? } else { e };
            return (b.get(e) == Some(&b')') && b.get(e + 1) == Some(&b':')).then_some((e + 2, false));
        }
        i = j + 1;
    }
    None
}

/// The severity word at `at`, the end of it (past a following `:` and
/// white space, or before a `[`) and whether a `:` followed it, if there
/// is one; [`Severity::Unstated`] and `None` when there is none.
fn severity_word(b: &[u8], at: usize) -> (Severity, Option<usize>, bool) {
    let run = |from: usize| from + b[from.min(b.len())..].iter().take_while(|c| c.is_ascii_alphabetic()).count();
    let word_end = run(at);
    let mut lower = [0u8; 7];
    let Some(word) = b.get(at..word_end).filter(|w| w.len() <= lower.len()) else {
        return (Severity::Unstated, None, false);
    };
    for (l, c) in lower.iter_mut().zip(word) {
        *l = c.to_ascii_lowercase();
    }
    let (severity, mut e) = match &lower[..word.len()] {
        b"error" => (Severity::Error, word_end),
        b"warning" | b"warn" => (Severity::Warning, word_end),
        b"note" | b"info" | b"hint" | b"help" => (Severity::Note, word_end),
        b"fatal" => (Severity::Error, word_end),
        _ => return (Severity::Unstated, None, false),
    };
    // `fatal error:` reads as one word.
    if word.eq_ignore_ascii_case(b"fatal")
        && b.get(e) == Some(&b' ')
        && b.get(e + 1..run(e + 1)).is_some_and(|w| w.eq_ignore_ascii_case(b"error"))
    {
        e = run(e + 1);
    }
    match b.get(e) {
        Some(b':') => (severity, Some(skip_spaces(b, e + 1)), true),
        Some(b'[') => (severity, Some(e), false),
        Some(b' ' | b'\t') => (severity, Some(skip_spaces(b, e)), false),
        _ => (Severity::Unstated, None, false),
    }
}

/// How many bytes the severity word at `at` and what follows it take (see
/// [`severity_word`]), 0 when there is none.
fn severity_len(b: &[u8], at: usize) -> usize {
    severity_word(b, at).1.map_or(0, |e| e - at)
}

/// The end of a rule code at `at`: one to five ASCII capitals, then two to
/// five digits (`F821`, `E1120`, `TS2345`, `ANN001`, `E0308`).
fn code_at(b: &[u8], at: usize) -> Option<usize> {
    let mut i = at;
    while i < at + 5 && b.get(i).is_some_and(u8::is_ascii_uppercase) {
        i += 1;
    }
    if i == at {
        return None;
    }
    let d = i;
    while i < d + 5 && b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    (i - d >= 2 && !b.get(i).is_some_and(u8::is_ascii_alphanumeric)).then_some(i)
}

/// The severity pylint's code `b[s..e]` states by its letter, when it is
/// one (a letter, four digits, `:`, and the symbolic name in parentheses
/// at the end: `E0602: Undefined variable 'x' (undefined-variable)`):
/// `E`rror and `F`atal, `W`arning, and `C`onvention, `R`efactor and
/// `I`nfo as notes. Other codes state none (flake8's `E501` is a style).
fn pylint_severity(b: &[u8], s: usize, e: usize) -> Severity {
    let closes = b.iter().rposition(|&c| c != b' ' && c != b'\t').is_some_and(|i| b[i] == b')');
    let pylint = e - s == 5 && b.get(e) == Some(&b':') && closes && trailing_rule(b).is_some();
    match b[s] {
        b'E' | b'F' if pylint => Severity::Error,
        b'W' if pylint => Severity::Warning,
        b'C' | b'R' | b'I' if pylint => Severity::Note,
        _ => Severity::Unstated,
    }
}

/// Whether a code ending at `e` stands alone: followed by `:`, white space,
/// `]`, or the end.
fn ends_token(b: &[u8], e: usize) -> bool {
    matches!(b.get(e), None | Some(b':' | b' ' | b'\t' | b']'))
}

/// The rule name a tool prints at the end of the line: `[arg-type]`,
/// `[-Wunused-variable]`, `(no-value-for-parameter)`, `(reportCallIssue)`, or ESLint's
/// `no-undef` after two spaces.
fn trailing_rule(b: &[u8]) -> Option<&[u8]> {
    let end = b.iter().rposition(|&c| c != b' ' && c != b'\t')? + 1;
    let tail = &b[end.saturating_sub(REACH)..end];
    let name = |s: &[u8]| {
        !s.is_empty()
            && s.iter().all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'/' | b'@' | b'.' | b':'))
    };
    let last = *tail.last()?;
    if let Some(open) = match last {
        b']' => tail.iter().rposition(|&c| c == b'['),
        b')' => tail.iter().rposition(|&c| c == b'('),
        _ => None,
    } {
        let inner = &tail[open + 1..tail.len() - 1];
        // A bracketed name (`[operator]`, `[-Wextra]`); a parenthesised one
        // only with a dash or underscore, as pylint's symbols have, or in
        // camel case, as pyright's (`(reportCallIssue)`).
        let camel = inner.first().is_some_and(u8::is_ascii_lowercase)
            && inner.iter().any(u8::is_ascii_uppercase)
            && inner.iter().all(u8::is_ascii_alphanumeric);
        let plain = last == b']' || camel || inner.iter().any(|c| matches!(c, b'-' | b'_'));
        return (name(inner) && inner.len() >= 3 && inner.iter().any(u8::is_ascii_alphabetic) && plain)
            .then_some(inner);
    }
    // ESLint: the rule after a run of two or more spaces.
    let gap = tail.windows(2).rposition(|w| w == b"  ")?;
    let word = &tail[gap + 2..];
    (name(word) && word.first().is_some_and(|c| c.is_ascii_lowercase() || *c == b'@')).then_some(word)
}

/// A hash of the first `n` fixed words of a message: words holding a
/// digit, a quotation mark or a path separator (names and values that
/// differ from one finding to the next) are skipped.
fn message_rule(b: &[u8], n: usize) -> u64 {
    let fixed = |w: &&[u8]| !w.iter().any(|c| c.is_ascii_digit() || matches!(c, b'\'' | b'"' | b'`' | b'/' | b'\\'));
    let words = b.split(|&c| c == b' ' || c == b'\t').filter(|w| !w.is_empty()).filter(fixed).take(n);
    words.fold(hash(b""), hash_more)
}

/// FNV-1a: rule names are short; any fixed hash will do.
fn hash(bytes: &[u8]) -> u64 {
    hash_more(0xcbf2_9ce4_8422_2325, bytes)
}

/// [`hash`] continued over more bytes (a word separator first).
fn hash_more(h: u64, bytes: &[u8]) -> u64 {
    std::iter::once(&b' ').chain(bytes).fold(h, |h, &c| (h ^ u64::from(c)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests;
