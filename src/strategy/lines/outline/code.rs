//! Source files' tiers: declarations, imports and values, by one pass of
//! one automaton a line.

use std::sync::OnceLock;

use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::util::syntax;
use regex_automata::{Anchored, Input, MatchKind, PatternID, PatternSet};

use super::super::readers::markdown::Markdown;
use super::super::readers::patterns::{ShapePatterns, patterns};
use super::super::readers::yaml::Yaml;
use crate::signals::view;
use crate::text::{TextLines, is_space};

/// Lines of comments and decorators above a definition read as its doc at most.
const DOC_REACH: usize = 40;

/// Pattern ids of the code automaton.
const DEFINITION: PatternID = PatternID::new_unchecked(0);
const SIGNATURE: PatternID = PatternID::new_unchecked(1);
const IMPORT: PatternID = PatternID::new_unchecked(2);
const COMMENT: PatternID = PatternID::new_unchecked(3);

/// Source: top-level declarations (types, functions), the module's summary
/// (the first line of a second opening comment block, past a licence),
/// the first imports and top-level values (constants, `#define`s, names
/// bound without a keyword), nested declarations
/// (methods), the first line of the top-level ones' doc comments, the
/// other values and imports, then signature continuations. A value bound inside a body is
/// a statement, in no tier.
pub(super) fn code(lines: TextLines<'_>) -> Vec<Vec<u32>> {
    let p = patterns();
    CODE_CACHE.with_borrow_mut(|cache| code_with(lines, p, cache))
}

/// The four code line patterns in one anchored automaton (one pass a
/// line), built once per process.
fn code_automaton() -> &'static DFA {
    static CODE: OnceLock<DFA> = OnceLock::new();
    CODE.get_or_init(|| {
        let p = patterns();
        DFA::builder()
            .syntax(syntax::Config::new().unicode(false).utf8(false))
            .configure(DFA::config().match_kind(MatchKind::All).cache_capacity(2 << 20))
            .build_many(&[p.definition.as_str(), p.signature.as_str(), p.import.as_str(), p.comment.as_str()])
            .expect("static patterns")
    })
}

thread_local! {
    /// This thread's states of [`code_automaton`], kept between texts.
    static CODE_CACHE: std::cell::RefCell<Cache> = std::cell::RefCell::new(code_automaton().create_cache());
}

/// [`code`] with this thread's automaton cache.
fn code_with(lines: TextLines<'_>, p: &ShapePatterns, cache: &mut Cache) -> Vec<Vec<u32>> {
    let dfa = code_automaton();
    let mut set = PatternSet::new(4);
    let n = lines.len();
    let (mut top, mut nested, mut docs, mut imports, mut continued) = (vec![], vec![], vec![], vec![], vec![]);
    let mut values = vec![];
    // Comment and decorator lines right above the current one.
    let mut doc_run = 0;
    // Markdown, read on the way: headings outside fenced code, by level.
    let mut md = Markdown::default();
    // YAML, read on the way: keys by indentation.
    let mut yaml = Yaml::default();
    let mut v = String::new();
    // The comment blocks a file opens with, before its first code line:
    // the first is its licence or title (the first line is kept anyway),
    // the second's first line its own summary (a module's docstring).
    let (mut opening, mut blocks, mut summary) = (true, 0, None);
    // The token that closes the block comment or docstring the line is
    // in: its prose (`a name has a prefix (i.e. …) then`) is no signature.
    let mut open_block: Option<&str> = None;
    // The line before reads as a C return type on a line of its own
    // (`XMLPARSEAPI(XML_Parser)`, `static int`): a name and a parameter
    // list at the first column under it declare a function.
    let mut returns_above = false;
    for k in 0..n {
        view(lines.line(k), &mut v);
        md.read(k as u32, &v);
        yaml.read(k as u32, &v);
        set.clear();
        let input = Input::new(v.as_bytes()).anchored(Anchored::Yes);
        if dfa.try_which_overlapping_matches(cache, &input, &mut set).is_err() {
            for (id, re) in
                [p.definition.clone(), p.signature.clone(), p.import.clone(), p.comment.clone()].iter().enumerate()
            {
                if re.is_match(v.as_bytes()) {
                    set.insert(PatternID::must(id));
                }
            }
        }
        let t = v.trim_start();
        let inside_block = open_block.is_some();
        let comment = match open_block {
            Some(close) => {
                if t.contains(close) {
                    open_block = None;
                }
                true
            }
            None => {
                open_block = opens_block(t);
                set.contains(COMMENT)
            }
        };
        let indented = t.len() < v.len();
        let split_signature = std::mem::replace(&mut returns_above, !comment && !indented && is_return_type(t))
            && !comment
            && !indented
            && is_called_name(t);
        if opening && !t.is_empty() {
            if !comment {
                opening = false;
            } else if !inside_block && (k == 0 || lines.line(k - 1).iter().all(|&u| is_space(u))) {
                blocks += 1;
                if blocks == 2 {
                    summary = Some(k as u32);
                }
            }
        }
        let bound = !indented && !comment && is_top_level_binding(t);
        let is_def = (bound || split_signature || set.contains(DEFINITION) || set.contains(SIGNATURE))
            && !comment
            && !is_control(t);
        let value = is_def && (bound || is_value(t));
        if is_def && !(value && indented) {
            if value {
                values.push(k as u32);
            } else if !indented {
                top.push(k as u32);
                if doc_run > 0 {
                    docs.push((k - doc_run) as u32);
                }
            } else {
                nested.push(k as u32);
            }
            if v.trim_end().ends_with(['(', ',']) && k + 1 < n {
                continued.push(k as u32 + 1);
            }
        }
        if set.contains(IMPORT) {
            imports.push(k as u32);
        }
        let doc_like = comment || t.starts_with('@') || t.starts_with("#[");
        doc_run = if doc_like { (doc_run + 1).min(DOC_REACH) } else { 0 };
    }
    // A document: its headings are its map, not what reads as code in it.
    if md.is_document(top.len()) {
        return md.tiers();
    }
    if yaml.is_document(top.len()) {
        return yaml.tiers();
    }
    // The first imports say what the file builds on; the rest come late.
    // So do the first values (a header's guard, its first constants).
    let rest_of_imports = imports.split_off(imports.len().min(FIRST_ENTRIES));
    let rest_of_values = values.split_off(values.len().min(FIRST_ENTRIES));
    imports.append(&mut values);
    imports.splice(0..0, summary);
    // Signature continuations follow their definition, so they come in order.
    vec![top, imports, nested, docs, rest_of_values, rest_of_imports, continued]
}

/// Imports, and values, kept right after the top-level declarations.
const FIRST_ENTRIES: usize = 4;

/// Whether a definition line (`trimmed`: past its indentation) binds a
/// value rather than declaring a type or a function: `let`, `var`,
/// `const`, `static` (not `const fn`, not a closure or function bound to a
/// name, not a `static class`) and `#define`. Those nested in a body are statements; those at
/// the top come after the declarations.
fn is_value(trimmed: &str) -> bool {
    let mut t = trimmed;
    if let Some(directive) = t.strip_prefix('#') {
        return directive.trim_start().starts_with("define");
    }
    while let Some(rest) = strip_word(t, &["export ", "pub(crate) ", "pub(super) ", "pub ", "declare "]) {
        t = rest;
    }
    let Some(rest) = strip_word(t, &["let ", "var ", "const ", "static "]) else { return false };
    if rest.starts_with("fn ") || rest.starts_with("unsafe fn ") {
        return false;
    }
    // A nested type is declared static in Java (`static final class
    // TreeNode<K,V> extends …`): a type, not a value.
    let mut body = rest;
    while let Some(r) = strip_word(body, &["final ", "abstract ", "sealed "]) {
        body = r;
    }
    if strip_word(body, &["class ", "interface ", "enum ", "record "]).is_some() {
        return false;
    }
    // A parameter list before any `=` makes it a function (`static int
    // f(void)`), as does a function or an arrow bound to the name.
    match rest.bytes().position(|b| b == b'=' || b == b'(') {
        Some(at) if rest.as_bytes()[at] == b'(' => false,
        Some(at) => {
            let value = rest[at + 1..].trim_start();
            !(value.starts_with("function") || value.starts_with("async") || value.starts_with('('))
        }
        None => true,
    }
}

/// Whether `trimmed` binds a name at a file's top level without a keyword
/// (`__version__ = "1.16.0"`, `CC = gcc`): a module's value.
pub(super) fn is_top_level_binding(trimmed: &str) -> bool {
    after_name(trimmed).is_some_and(|rest| rest.starts_with(" = "))
}

/// What follows the identifier `trimmed` opens with, if it opens with one.
fn after_name(trimmed: &str) -> Option<&str> {
    let name = trimmed.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
    (name > 0 && !trimmed.as_bytes()[0].is_ascii_digit()).then(|| &trimmed[name..])
}

/// The token closing the block comment or triple-quoted string (a
/// docstring) `trimmed` opens and leaves open (`/*` without `*/`; an odd
/// count of `"""` on a line that opens or ends with one, as `x = """`
/// does), if it does.
fn opens_block(trimmed: &str) -> Option<&'static str> {
    if let Some(rest) = trimmed.strip_prefix("/*") {
        return (!rest.contains("*/")).then_some("*/");
    }
    // A triple quote opens or closes a line (a docstring's, `x = """`)
    // where it matters: only then are the line's quotes counted.
    let b = trimmed.as_bytes();
    let end = b.trim_ascii_end();
    let quote = |q: u8| {
        let three = [q; 3];
        (b.starts_with(&three) || end.ends_with(&three)) && b.windows(3).filter(|w| *w == three).count() % 2 == 1
    };
    let is_quote = |c: Option<&u8>| c.is_some_and(|&c| c == b'"' || c == b'\'');
    if !is_quote(b.first()) && !is_quote(end.last()) {
        return None;
    }
    if quote(b'"') {
        Some("\"\"\"")
    } else if quote(b'\'') {
        Some("'''")
    } else {
        None
    }
}

/// Whether `trimmed` (at the first column) can be a C function's return
/// type on a line of its own: a few words and a macro call, nothing that
/// ends a statement or opens a body.
fn is_return_type(trimmed: &str) -> bool {
    let t = trimmed.trim_end();
    !t.is_empty()
        && t.len() <= 64
        && t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && t.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b' ' | b'*' | b'(' | b')'))
}

/// Whether `trimmed` opens with a name and a parameter list (`f(int x);`,
/// `XML_Parse(XML_Parser p,`), as a function declared under its return type does.
fn is_called_name(trimmed: &str) -> bool {
    after_name(trimmed).is_some_and(|rest| rest.trim_start().starts_with('('))
}

/// Statements that read like signatures (`if (x) {`, `return f(y);`); `t`
/// is the line past its indentation.
fn is_control(t: &str) -> bool {
    strip_word(
        t,
        &[
            "if ", "if(", "for ", "for(", "while ", "while(", "switch ", "switch(", "return ", "else", "do ", "catch",
            "case ", "throw ", "new ", "await ", "yield ",
        ],
    )
    .is_some()
}

/// `t` past the first of `words` it starts with. Each line of a source
/// file meets these lists: a word is compared only when its first byte is
/// `t`'s.
fn strip_word<'a>(t: &'a str, words: &[&str]) -> Option<&'a str> {
    let first = *t.as_bytes().first()?;
    words.iter().find_map(|w| if w.as_bytes()[0] == first { t.strip_prefix(w) } else { None })
}
