//! How a request and a call are read into words: a request clause by
//! clause (what it sets aside apart, `code spans` and quoted phrases
//! marked), a shell command by its arguments.

use super::is_extension;

/// The words of a shell command's arguments: after its program (the
/// first word) and its subcommand, without its flags (words that start
/// with `-`).
pub(super) fn words_of_command(command: &[u16]) -> impl Iterator<Item = Vec<u8>> + '_ {
    // Each command of a pipeline or list (`find . | sort`, `cd x && make`)
    // names its own program.
    command.split(|&u| matches!(u, 0x7C | 0x3B | 0x26)).flat_map(|part| {
        before_redirect(part)
            .split(|&u| u == u16::from(b' ') || u == u16::from(b'\t'))
            .filter(|w| !w.is_empty())
            .enumerate()
            // The program, a subcommand right after it (`git log`, `ruff
            // check`: a bare lower-case word), and the flags.
            .filter(|(i, w)| *i > 1 || (*i == 1 && !w.iter().all(|&u| u16::from(b'a') <= u && u <= u16::from(b'z'))))
            .map(|(_, w)| w)
            .filter(|w| w.first() != Some(&u16::from(b'-')))
            .flat_map(words)
    })
}

/// A simple command without its redirections: up to its first `>` or `<`
/// outside quotes (`> raw.log 2>&1` names where the output went, not what
/// it holds).
fn before_redirect(part: &[u16]) -> &[u16] {
    let mut quote = None;
    for (i, &u) in part.iter().enumerate() {
        match (quote, u) {
            (None, 0x22 | 0x27) => quote = Some(u),
            (Some(q), _) if u == q => quote = None,
            (None, 0x3C | 0x3E) => return &part[..i],
            _ => {}
        }
    }
    part
}

/// Words that set aside what follows them in their clause ("ignore the
/// S101 ones", "apart from the missing-annotation noise").
const SET_ASIDE: &[&str] =
    &["apart", "aside", "besides", "except", "excluding", "ignore", "ignoring", "skip", "skipping"];

/// The words of a request: [`words`] of each clause (ended by `!` `?`, a
/// new line, a `.` before white space, a dash `—` `–`, or a `,` `;` outside
/// parentheses), without a clause that
/// opens a sentence with a word that sets it aside ([`SET_ASIDE`]: "Ignore
/// the S101 ones."); such a word elsewhere is what was asked about ("a
/// switch to ignore those errors", "the blind `except Exception`").
/// Returns the words asked for and the words set aside (the clause's
/// after its set-aside word, and those of [`without_set_aside_asides`]).
pub(super) fn request_words(text: &[u16]) -> (Vec<Vec<u8>>, Vec<Vec<Vec<u8>>>) {
    let (text, mut aside) = without_set_aside_asides(text);
    let text = &text;
    let mut phrases = quoted_phrases(text).peekable();
    let mut out = Vec::new();
    let mut from = 0;
    // Whether the clause from `from` opens a sentence, and starts inside a `code span`.
    let (mut opens, mut code) = (true, false);
    // Parentheses open at `at`: a list in one ("(unused imports, dict()
    // literals)") is of the clause around it.
    let mut depth = 0usize;
    for at in 0..=text.len() {
        let stop = at < text.len()
            && (matches!(text[at], 0x21 | 0x3F | 0x0A)
                || (text[at] == 0x2E && text.get(at + 1).is_none_or(|&u| u == 0x20 || u == 0x0A || u == 0x09)));
        match text.get(at) {
            Some(0x28) => depth += 1,
            Some(0x29) => depth = depth.saturating_sub(1),
            _ => {}
        }
        if stop {
            depth = 0;
        }
        // A comma or semicolon outside parentheses, or a dash (`—`, `–`), ends a clause.
        let ends =
            matches!(text.get(at), Some(0x2C | 0x3B)) && depth == 0 || matches!(text.get(at), Some(0x2013 | 0x2014));
        if at == text.len() || stop || ends {
            let mut clause = Vec::new();
            let mut spans = 0;
            for (i, span) in text[from..at].split(|&u| u == u16::from(b'`')).enumerate() {
                let in_code = code != (i % 2 == 1);
                // A word in a code span is written as code: marked, so it is a term as written.
                clause.extend(words(span).map(|w| if in_code { [&[CODE_MARK][..], &w].concat() } else { w }));
                spans = i;
            }
            code ^= spans % 2 == 1;
            let set_aside = opens && clause.first().is_some_and(|w| is_one_of(w, SET_ASIDE));
            // A quoted phrase belongs to the clause it opens in.
            while let Some((_, phrase)) = phrases.next_if(|&(start, _)| start < at.max(from + 1)) {
                clause.push([&[PHRASE_MARK][..], &phrase].concat());
            }
            if set_aside {
                aside.push(clause.into_iter().skip(1).collect());
            } else {
                out.extend(clause);
            }
            from = at + 1;
            opens = stop;
        }
    }
    (out, aside)
}

/// Whether `word` is one of `words` (lower-case), in any case.
pub(super) fn is_one_of(word: &[u8], words: &[&str]) -> bool {
    words.iter().any(|w| w.as_bytes().eq_ignore_ascii_case(word))
}

/// Marks a word of a request written in a `code span`: a term as it is
/// written (not stemmed), weighed as code.
pub(super) const CODE_MARK: u8 = b'`';

/// Marks a phrase a request quotes (`'Map keys must be unique'`): a term
/// as it is written, found where the output holds it whole.
pub(super) const PHRASE_MARK: u8 = b'"';

/// Longest phrase in quotes read as one term, in units.
const PHRASE_MAX: usize = 80;

/// The phrases `text` quotes, each with where it starts, lower-cased: text
/// between two of the same quotation mark (`'`, `"`), the first after the
/// start, a space or `(` and before a printable ASCII unit (`'-3 days'`), the second before
/// the end, a space or punctuation; two words or more, ASCII, at most
/// [`PHRASE_MAX`] units, nothing elided (`...`): so `don't` opens none, a
/// quoted word is a word, and `IncompleteRead(...)` is no text to find.
fn quoted_phrases(text: &[u16]) -> impl Iterator<Item = (usize, Vec<u8>)> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < text.len() {
            let (open, q) = (at, text[at]);
            at += 1;
            let opens = matches!(q, 0x22 | 0x27)
                && (open == 0 || matches!(text[open - 1], 0x20 | 0x09 | 0x0A | 0x28))
                && text.get(open + 1).is_some_and(|&u| (0x21..0x7F).contains(&u) && u != q);
            if !opens {
                continue;
            }
            let reach = &text[open + 1..text.len().min(open + 2 + PHRASE_MAX)];
            let closes = |i: usize, u: u16| {
                u == q
                    && reach.get(i + 1).is_none_or(|&n| {
                        matches!(n, 0x20 | 0x09 | 0x0A | 0x29 | 0x2C | 0x2E | 0x3A | 0x3B | 0x3F | 0x21)
                    })
            };
            let Some(len) = reach.iter().enumerate().position(|(i, &u)| closes(i, u)) else {
                continue;
            };
            let inside = &reach[..len];
            let words = inside.split(|&u| u == 0x20).filter(|w| !w.is_empty()).count();
            let elided = inside.windows(3).any(|w| w == [0x2E; 3]);
            if words >= 2 && !elided && inside.iter().all(|&u| (0x20..0x7F).contains(&u)) {
                at = open + 2 + len;
                return Some((open, inside.iter().map(|&u| (u as u8).to_ascii_lowercase()).collect()));
            }
        }
        None
    })
}

/// `text` with each parenthesis that a set-aside word or `not` opens
/// ("(ignore SortedKeyList)", "(not the tests)") blanked to its `)`, or
/// to the end of its line when it has none; and the words blanked after
/// that first one.
fn without_set_aside_asides(text: &[u16]) -> (Vec<u16>, Vec<Vec<Vec<u8>>>) {
    let mut out = text.to_vec();
    let mut aside = Vec::new();
    let mut at = 0;
    while let Some(open) = out[at..].iter().position(|&u| u == 0x28).map(|p| at + p) {
        let close = out[open..].iter().position(|&u| u == 0x29 || u == 0x0A).map_or(out.len(), |p| open + p);
        let mut inside = words(&out[open + 1..close]);
        if inside.next().is_some_and(|w| is_one_of(&w, SET_ASIDE) || is_one_of(&w, &["not"])) {
            aside.push(inside.collect());
            out[open..close].fill(u16::from(b' '));
        }
        at = close.max(open + 1);
    }
    (out, aside)
}

/// The words of `text`: runs of ASCII letters, digits, `_`, `-`, `.`,
/// `/` and `:`, without the punctuation that ends a sentence or opens a
/// flag (`-k`, `--task`, `./`).
pub(super) fn words(text: &[u16]) -> impl Iterator<Item = Vec<u8>> + '_ {
    let is_word = |u: u16| {
        u < 0x80 && (u as u8).is_ascii_alphanumeric() || [b'_', b'-', b'.', b'/', b':'].map(u16::from).contains(&u)
    };
    let mut at = 0;
    text.split(move |&u| !is_word(u)).filter_map(move |w| {
        // The unit after the word: a call's `(` tells a method from an extension.
        let next = text.get(at + w.len()).copied();
        at += w.len() + 1;
        let w: Vec<u8> = w.iter().map(|&u| u as u8).collect();
        let trim = |b: &u8| matches!(b, b'-' | b'.' | b'/' | b':');
        let start = w.iter().position(|b| !trim(b))?;
        let end = w.iter().rposition(|b| !trim(b))? + 1;
        // A file's extension (`.so`, `.pyi`), not a method called
        // (`.shift(`), keeps its dot: it is the term.
        let dotted = start > 0 && end == w.len() && next != Some(u16::from(b'('));
        let start = if dotted && is_extension(&w[start - 1..end]) { start - 1 } else { start };
        Some(w[start..end].to_vec())
    })
}
