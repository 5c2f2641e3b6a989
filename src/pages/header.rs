//! The first line of a retrieval page: which lines it holds, which page it
//! is, and how to ask for the next.
//!
//! The header's size is bounded before the page is made: a search is shown
//! as a JSON string (as `JSON.stringify` writes it, lone surrogates
//! escaped) of at most [`SEARCH_SHOWN`] code points, shortened with `…`
//! after the closing quote, and no number in it is wider than the text's
//! length. [`widest`] is that bound, so the page's budget is what is left.

use super::Page;
use crate::text::{MAX_JS_STRING_UNITS, code_point_len, is_high_surrogate, is_low_surrogate, json_escaped, utf16};

/// The retrieval tool's name, as the model calls it.
pub const TOOL_NAME: &str = "tool_result_retrieve";

/// Code points the search string takes in a header at most, quotes included.
pub const SEARCH_SHOWN: usize = 64;

/// Code points of text a page must have room for beside its header.
pub const MIN_PAGE_CHARS: usize = 128;

/// The smallest `thresholdChars` under which every retrieval of a JS string
/// (any search, any length) has a page of [`MIN_PAGE_CHARS`].
pub fn min_threshold() -> usize {
    let search: Vec<u16> = std::iter::repeat_n(u16::from(b'"'), SEARCH_SHOWN).collect();
    widest(&"0".repeat(24), Some(&search), MAX_JS_STRING_UNITS) + MIN_PAGE_CHARS
}

/// Code points of the widest header a text of `units` code units can get:
/// every number as wide as `units`, and the longer of the two endings.
pub(super) fn widest(hash: &str, search: Option<&[u16]>, units: usize) -> usize {
    let width = units.max(1).ilog10() + 1;
    let nines = 10usize.checked_pow(width).map_or(usize::MAX, |p| p - 1);
    let n = Numbers { first: nines, last: nines, total: nines, matches: nines, page: nines, pages: nines };
    let next = code_point_len(&line(hash, search, &n, Some(nines)));
    next.max(code_point_len(&line(hash, search, &n, None)))
}

/// The header of `page` (ending in `\n`); `search` as [`shown`] gives it.
pub(super) fn render(hash: &str, search: Option<&[u16]>, page: &Page) -> Vec<u16> {
    let n = Numbers {
        first: page.first,
        last: page.last,
        total: page.total_lines,
        matches: page.matches,
        page: page.page,
        pages: page.pages,
    };
    line(hash, search, &n, (page.page < page.pages).then_some(page.page + 1))
}

/// The numbers a header states.
struct Numbers {
    first: usize,
    last: usize,
    total: usize,
    matches: usize,
    page: usize,
    pages: usize,
}

/// The header's one spelling; `next` is the next page's number, if any.
fn line(hash: &str, search: Option<&[u16]>, n: &Numbers, next: Option<usize>) -> Vec<u16> {
    let mut out = utf16(&format!("[{TOOL_NAME} {hash}: lines {}-{} of {}", n.first, n.last, n.total));
    if let Some(search) = search {
        out.extend(utf16(&format!(", {} matching ", n.matches)));
        out.extend_from_slice(search);
    }
    out.extend(utf16(&format!(", page {} of {}", n.page, n.pages)));
    out.extend(utf16(&match next {
        Some(p) => format!("; next: call {TOOL_NAME} again with page {p}]\n"),
        None => "; this is the last page]\n".to_owned(),
    }));
    out
}

/// `needle` as a JSON string, `JSON.stringify`'s escapes, at most
/// [`SEARCH_SHOWN`] code points: when the whole does not fit, the longest
/// prefix of whole code points that does, then `"…`.
pub(super) fn shown(needle: &[u16]) -> Vec<u16> {
    let mut body = Vec::new();
    let (mut cps, mut short) = (0, 0);
    let mut i = 0;
    while i < needle.len() {
        let pair = is_high_surrogate(needle[i]) && needle.get(i + 1).is_some_and(|&u| is_low_surrogate(u));
        let (piece, width): (Vec<u16>, usize) =
            if pair { (needle[i..i + 2].to_vec(), 2) } else { (json_escaped(needle[i]), 1) };
        // A pair is one code point; an escape is ASCII.
        let piece_cps = if pair { 1 } else { piece.len() };
        if cps + piece_cps > SEARCH_SHOWN - 2 {
            body.truncate(short);
            let mut out = vec![u16::from(b'"')];
            out.extend(body);
            out.extend(utf16("\"…"));
            return out;
        }
        body.extend(piece);
        cps += piece_cps;
        if cps <= SEARCH_SHOWN - 3 {
            short = body.len();
        }
        i += width;
    }
    let mut out = vec![u16::from(b'"')];
    out.extend(body);
    out.push(u16::from(b'"'));
    out
}
