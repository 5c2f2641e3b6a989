//! How a request and a call are read into words: a request clause by
//! clause (what it sets aside apart, `code spans` and quoted phrases
//! marked), a shell command by its arguments.

use super::is_extension;

/// Each simple command of a shell command line (a pipeline's or a list's:
/// `find . | sort`, `cd x && make`), as its words, without its
/// redirections: each names its own program. A `|`, `;` or `&` quoted or
/// escaped (`rg "a|b"`, `grep a\|b`) is an argument's, not the shell's.
fn simple_commands(command: &[u16]) -> impl Iterator<Item = impl Iterator<Item = &[u16]>> {
    let mut parts = Vec::new();
    let mut from = 0;
    for i in unquoted(command, |u| matches!(u, 0x7C | 0x3B | 0x26)) {
        parts.push(&command[from..i]);
        from = i + 1;
    }
    parts.push(&command[from..]);
    parts.into_iter().map(|part| {
        before_redirect(part).split(|&u| u == u16::from(b' ') || u == u16::from(b'\t')).filter(|w| !w.is_empty())
    })
}

/// Where in shell text `s` a unit `special` says is, outside quotes and
/// not escaped by a backslash (none escapes inside single quotes).
fn unquoted<'a>(s: &'a [u16], special: impl Fn(u16) -> bool + 'a) -> impl Iterator<Item = usize> + 'a {
    let (mut quote, mut escaped) = (None, false);
    s.iter().enumerate().filter_map(move |(i, &u)| {
        match (quote, u) {
            _ if escaped => escaped = false,
            (None | Some(0x22), 0x5C) => escaped = true,
            (None, 0x22 | 0x27) => quote = Some(u),
            (Some(q), _) if u == q => quote = None,
            (None, _) if special(u) => return Some(i),
            _ => {}
        }
        None
    })
}

/// The words of a shell command's arguments: after its program (the
/// first word) and its subcommand, without its flags (words that start
/// with `-`) and without an argument of alternatives (`"a|b|c"`, a
/// search's pattern: every line it found holds one of them, so they say
/// what was searched for, not which line is asked about; the request's
/// own words still count).
pub(super) fn words_of_command(command: &[u16]) -> impl Iterator<Item = Vec<u8>> + '_ {
    simple_commands(command).flat_map(|args| {
        args.enumerate()
            // The program, a subcommand right after it (`git log`, `ruff
            // check`: a bare lower-case word), and the flags.
            .filter(|(i, w)| *i > 1 || (*i == 1 && !w.iter().all(|&u| u16::from(b'a') <= u && u <= u16::from(b'z'))))
            .map(|(_, w)| w)
            .filter(|w| w.first() != Some(&u16::from(b'-')))
            // Alternatives (`"a|b|c"`): what every line found holds one of.
            .filter(|w| !w.contains(&u16::from(b'|')))
            .flat_map(words)
    })
}

/// The programs a shell command runs, lower-cased: each command's first
/// word (its file name, not its directory), or the module an interpreter
/// runs with `-m` (`pytest` of `python -m pytest`). The output is theirs:
/// their names in a request ("I ran `pytest -v`") say which tool, not
/// what was asked about.
pub(super) fn programs_of_command(command: &[u16]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for mut args in simple_commands(command) {
        let Some(first) = args.next() else { continue };
        let mut args = args.peekable();
        let mut module = None;
        while let Some(a) = args.next() {
            if a == [u16::from(b'-'), u16::from(b'm')] {
                module = args.peek().copied();
            }
        }
        // An interpreter running a module: the module is the tool.
        let name = module.unwrap_or_else(|| first.rsplit(|&u| u == u16::from(b'/')).next().unwrap_or(first));
        out.push(name.iter().map(|&u| if u < 0x80 { (u as u8).to_ascii_lowercase() } else { 0x80 }).collect());
    }
    out
}

/// A simple command without its redirections: up to its first `>` or `<`
/// outside quotes (`> raw.log 2>&1` names where the output went, not what
/// it holds).
fn before_redirect(part: &[u16]) -> &[u16] {
    unquoted(part, |u| matches!(u, 0x3C | 0x3E)).next().map_or(part, |i| &part[..i])
}

/// Words that set aside what follows them in their clause ("ignore the
/// S101 ones", "apart from the missing-annotation noise").
const SET_ASIDE: &[&str] =
    &["apart", "aside", "besides", "except", "excluding", "ignore", "ignoring", "leave", "leaving", "skip", "skipping"];

/// Words that open a list's next item: after a comma, a clause opening
/// with one goes on with the clause before it ("ignore the tests, the
/// locales and the .d.ts files").
const LIST_ITEM: &[&str] = &["the", "a", "an", "any", "all", "those", "these", "or", "nor"];

/// Words that, after a negation ("don't care about", "not interested
/// in"), say that what follows in the clause is not wanted.
const NOT_WANTED: &[&str] = &["care", "interested"];

/// How a clause opens: a sentence; a dash or semicolon; a comma.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Opening {
    Sentence,
    Break,
    Comma,
}

/// What `clause` sets aside, if anything: `(asked, aside)`, the words
/// before `asked` are still asked for, those from `aside` on are set
/// aside, those between are neither. A clause sets aside what follows a
/// word of [`SET_ASIDE`] that opens it (a sentence, or a clause after a
/// dash or semicolon: "— ignore the tests"); what follows a `not` that
/// opens it after a comma or dash ("Only export_html, not the SVG
/// export"); what follows a negated [`NOT_WANTED`] word and its
/// preposition ("I don't care about the dist"); or all of it, where it
/// goes on with a clause set aside before it ([`LIST_ITEM`]).
fn set_aside_from(clause: &[Vec<u8>], opening: Opening, goes_on: bool) -> Option<(usize, usize)> {
    let first = clause.first()?;
    if opening != Opening::Comma && is_one_of(first, SET_ASIDE)
        || opening != Opening::Sentence && is_one_of(first, &["not"])
    {
        return Some((0, 1));
    }
    let second = clause.get(1).map_or(&[][..], |w| &w[..]);
    if goes_on
        && opening == Opening::Comma
        && (is_one_of(first, LIST_ITEM) || is_one_of(first, &["and"]) && is_one_of(second, LIST_ITEM))
    {
        return Some((0, 0));
    }
    let negated = |w: &[u8]| is_one_of(w, &["not", "don", "dont", "t"]);
    let at = clause.windows(2).position(|w| negated(&w[0]) && is_one_of(&w[1], NOT_WANTED))?;
    let after = at + 2;
    Some((at, after + usize::from(clause.get(after).is_some_and(|w| is_one_of(w, &["about", "in", "for", "with"])))))
}

/// The words of a request: [`words`] of each clause (ended by `!` `?`, a
/// new line, a `.` before white space, a dash `—` `–`, or a `,` `;` outside
/// parentheses), without what a clause sets aside ([`set_aside_from`]:
/// "Ignore the S101 ones."); a set-aside word elsewhere is what was asked
/// about ("a switch to ignore those errors", "the blind `except
/// Exception`", "blow up, skip that item"). Returns the words asked for
/// and the words set aside (each clause's, and those of
/// [`without_set_aside_asides`]). The words asked for hold, with each
/// clause's, the words it counts ([`counted_words`]), joins
/// ([`joined_words`]) and negates ([`negated_words`]) as a tool words them.
pub(super) fn request_words(text: &[u16]) -> (Vec<Vec<u8>>, Vec<Vec<Vec<u8>>>) {
    let (text, mut aside) = without_set_aside_asides(text);
    let text = &text;
    let mut phrases = quoted_phrases(text).peekable();
    let mut out = Vec::new();
    let mut from = 0;
    // How the clause from `from` opens, whether it starts inside a `code
    // span`, and whether the clause before it set words aside.
    let (mut opening, mut code, mut aside_before) = (Opening::Sentence, false, false);
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
            let set_aside = set_aside_from(&clause, opening, aside_before);
            // A quoted phrase belongs to the clause it opens in.
            while let Some((_, phrase)) = phrases.next_if(|&(start, _)| start < at.max(from + 1)) {
                clause.push([&[PHRASE_MARK][..], &phrase].concat());
            }
            aside_before = set_aside.is_some();
            if let Some((asked, aside_at)) = set_aside {
                aside.push(clause.split_off(aside_at));
                clause.truncate(asked);
            }
            let (counted, negated): (Vec<_>, Vec<_>) =
                (counted_words(&clause).collect(), negated_words(&clause).collect());
            out.extend(counted);
            out.extend(joined_words(&clause).collect::<Vec<_>>());
            out.extend(clause);
            out.extend(negated);
            from = at + 1;
            opening = if stop {
                Opening::Sentence
            } else if matches!(text.get(at), Some(0x2C)) {
                Opening::Comma
            } else {
                Opening::Break
            };
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

/// Words that count what follows them: `too many branches`, `more than
/// five arguments`, `too complex`.
const COUNTING: &[&str] = &["few", "fewer", "less", "many", "more", "most", "several", "too"];

/// Marks a term of prose as it is written, taken after every other word
/// of the request (so it never takes a word's room): a word the request
/// counts after the word counting it (`many branch`, found where a linter
/// writes `Too many branches`, so that a finding that counts what the
/// request counts comes before findings that only share its words), or a
/// hyphenated word joined (`keepalive` of `keep-alive`).
pub(super) const LATE_MARK: u8 = b'~';

/// The words `clause` counts, each after the word of [`COUNTING`] right
/// before it, lower-cased, stemmed, marked [`LATE_MARK`]: words of prose
/// (letters only) that are no stop words.
fn counted_words(clause: &[Vec<u8>]) -> impl Iterator<Item = Vec<u8>> + '_ {
    clause.windows(2).filter_map(|w| {
        let counted = w[1].to_ascii_lowercase();
        (is_one_of(&w[0], COUNTING) && is_prose_term(&counted))
            .then(|| [&[LATE_MARK][..], &w[0].to_ascii_lowercase(), b" ", &super::stem(&counted)].concat())
    })
}

/// Whether `word`, lower-case, is a word of prose that is a term: letters
/// only, at least [`MIN_TERM`](super::MIN_TERM) of them, no stop word.
fn is_prose_term(word: &[u8]) -> bool {
    word.len() >= super::MIN_TERM && word.iter().all(u8::is_ascii_alphabetic) && !super::is_stop_word(word)
}

/// The hyphenated words of prose of `clause` (letters and `-` only),
/// joined as code writes them, lower-cased, marked [`LATE_MARK`]:
/// `keep-alive` is `keepalive_timeout` or `KeepAlive` in code.
fn joined_words(clause: &[Vec<u8>]) -> impl Iterator<Item = Vec<u8>> + '_ {
    clause.iter().filter_map(|w| {
        let prose = w.iter().all(|&b| b.is_ascii_alphabetic() || b == b'-') && w.contains(&b'-');
        prose.then(|| {
            let joined = w.iter().filter(|&&b| b != b'-').map(u8::to_ascii_lowercase);
            [LATE_MARK].into_iter().chain(joined).collect()
        })
    })
}

/// Words that negate the word after them: `not`, and the first part of a
/// negative contraction (`aren't` is read as `aren` and `t`).
const NEGATING: &[&str] = &["aren", "didn", "doesn", "don", "isn", "never", "not", "wasn", "weren"];

/// The words `clause` negates, as a tool words them: `un` before each
/// participle or `-able` word of prose (no stop word) right after a word of
/// [`NEGATING`] (or its `t`): "names that aren't defined" asks for
/// `undefined`, "not reachable" for `unreachable`; "not sure" for nothing.
fn negated_words(clause: &[Vec<u8>]) -> impl Iterator<Item = Vec<u8>> + '_ {
    clause.iter().enumerate().skip(1).filter_map(move |(i, w)| {
        let before = if clause[i - 1].eq_ignore_ascii_case(b"t") && i >= 2 { &clause[i - 2] } else { &clause[i - 1] };
        let w = w.to_ascii_lowercase();
        let done = [&b"ed"[..], b"able", b"ible"].iter().any(|end| w.ends_with(end));
        (done && is_prose_term(&w) && is_one_of(before, NEGATING)).then(|| [&b"un"[..], &w].concat())
    })
}

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
