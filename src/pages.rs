//! Pages of a retrieved text: what `tool_result_retrieve` hands the model.
//!
//! A dropped run can be longer than a tool result may be before the pruner
//! cuts it again, so a retrieval returns one page at a time: whole lines
//! (a line longer than a page is split at code-point boundaries), each page
//! at most `budget` code points. The model may narrow first: a range of
//! lines, or the lines that contain a string, with a few neighbours. Every
//! page says which lines it covers and how many pages there are.

use std::ops::Range;

use crate::text::{code_point_len, split_lines, walk_forward};

/// Neighbours shown on each side of a line that matches a search.
pub const SEARCH_CONTEXT: usize = 2;

/// Which part of the text to page through.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Selection {
    /// Every line.
    #[default]
    All,
    /// Lines `first..=last`, counted from 1 (clamped to the text).
    Lines {
        /// The first line wanted.
        first: usize,
        /// The last line wanted.
        last: usize,
    },
    /// The lines holding this text, with [`SEARCH_CONTEXT`] neighbours each.
    Search(Vec<u16>),
}

impl Selection {
    /// The selection a caller's options ask for: a line range
    /// (`firstLine` and `lastLine`, both or neither), a `search`, or, with
    /// none of them, every line. A range and a search are alternatives:
    /// asking for both is refused, as is half a range.
    pub fn from_options(
        first_line: Option<usize>,
        last_line: Option<usize>,
        search: Option<Vec<u16>>,
    ) -> Result<Selection, SelectionError> {
        match (first_line, last_line, search) {
            (None, None, None) => Ok(Selection::All),
            (None, None, Some(needle)) => Ok(Selection::Search(needle)),
            (Some(first), Some(last), None) => Ok(Selection::Lines { first, last }),
            (_, _, Some(_)) => Err(SelectionError::RangeAndSearch),
            _ => Err(SelectionError::HalfARange),
        }
    }
}

/// Why a caller's options name no selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectionError {
    /// Only one of `firstLine` and `lastLine`.
    HalfARange,
    /// A line range and a search together.
    RangeAndSearch,
}

impl std::fmt::Display for SelectionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SelectionError::HalfARange => "options.firstLine and options.lastLine go together",
            SelectionError::RangeAndSearch => {
                "options.search and options.firstLine/options.lastLine do not go together: ask for a line range or a search"
            }
        })
    }
}

/// One page of a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Page {
    /// The page's text: whole lines of the original, byte for byte (for a
    /// search, only the matching lines and their neighbours, each run of
    /// them exactly as in the original).
    pub text: Vec<u16>,
    /// Lines of the original this page holds, counted from 1 (`first..=last`).
    pub first: usize,
    /// See `first`.
    pub last: usize,
    /// Lines in the whole original.
    pub total_lines: usize,
    /// This page's number, from 1.
    pub page: usize,
    /// Pages the selection takes.
    pub pages: usize,
    /// For a search: the lines that matched (0 otherwise).
    pub matches: usize,
}

/// Why no page could be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PageError {
    /// The page asked for is past the last one.
    NoSuchPage {
        /// The page asked for.
        page: usize,
        /// Pages there are.
        pages: usize,
    },
    /// The selection holds no line (an empty range or a search with no match).
    Empty,
}

impl std::fmt::Display for PageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PageError::NoSuchPage { page, pages } => write!(f, "page {page} does not exist: there are {pages}"),
            PageError::Empty => write!(f, "no line of the text matches"),
        }
    }
}

/// A piece of a page: a code-unit range of the text and the line it is in
/// (0-based).
#[derive(Clone, Debug)]
struct Piece {
    range: Range<usize>,
    line: usize,
}

/// Page `page` (from 1) of `selection` of `text`, each page at most
/// `budget` code points (at least one code point per page).
pub fn page(text: &[u16], budget: usize, selection: &Selection, page: usize) -> Result<Page, PageError> {
    let budget = budget.max(1);
    let lines = split_lines(text);
    let (chosen, matches) = select(text, &lines, selection);
    if chosen.is_empty() {
        return Err(PageError::Empty);
    }
    // Lines cut into pieces of at most `budget` code points.
    let mut pieces = Vec::new();
    for &k in &chosen {
        let mut at = lines[k].start;
        while at < lines[k].end {
            let (len, _) = walk_forward(&text[at..lines[k].end], budget);
            pieces.push(Piece { range: at..at + len, line: k });
            at += len;
        }
    }
    // Pieces packed greedily into pages.
    let mut pages: Vec<Range<usize>> = Vec::new();
    let (mut start, mut size) = (0, 0);
    for (i, p) in pieces.iter().enumerate() {
        let cps = code_point_len(&text[p.range.clone()]);
        if size + cps > budget && i > start {
            pages.push(start..i);
            (start, size) = (i, 0);
        }
        size += cps;
    }
    pages.push(start..pieces.len());
    let count = pages.len();
    let Some(on_page) = page.checked_sub(1).and_then(|p| pages.get(p)) else {
        return Err(PageError::NoSuchPage { page, pages: count });
    };
    let on_page = &pieces[on_page.clone()];
    let text_out = on_page.iter().flat_map(|p| text[p.range.clone()].iter().copied()).collect();
    Ok(Page {
        text: text_out,
        first: on_page[0].line + 1,
        last: on_page[on_page.len() - 1].line + 1,
        total_lines: lines.len(),
        page,
        pages: count,
        matches,
    })
}

/// The lines (0-based, ascending) `selection` picks, and how many matched a search.
fn select(text: &[u16], lines: &[Range<usize>], selection: &Selection) -> (Vec<usize>, usize) {
    match selection {
        Selection::All => ((0..lines.len()).collect(), 0),
        Selection::Lines { first, last } => {
            let from = first.saturating_sub(1);
            let to = (*last).min(lines.len());
            ((from..to.max(from)).collect(), 0)
        }
        Selection::Search(needle) => {
            let hits: Vec<usize> = (0..lines.len())
                .filter(|&k| {
                    !needle.is_empty() && text[lines[k].clone()].windows(needle.len()).any(|w| w == &needle[..])
                })
                .collect();
            let mut chosen: Vec<usize> = Vec::new();
            for &k in &hits {
                let from = k.saturating_sub(SEARCH_CONTEXT).max(chosen.last().map_or(0, |&l| l + 1));
                chosen.extend(from..(k + SEARCH_CONTEXT + 1).min(lines.len()));
            }
            (chosen, hits.len())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::utf16;

    fn text(n: usize) -> Vec<u16> {
        utf16(&(1..=n).map(|i| format!("line {i:03}\n")).collect::<String>())
    }

    #[test]
    fn pages_are_whole_lines_within_budget_and_join_to_the_text() {
        let t = text(100);
        let first = page(&t, 95, &Selection::All, 1).unwrap();
        assert_eq!((first.first, first.last, first.total_lines), (1, 10, 100));
        // Nine code points a line: ten lines to a page of 95.
        assert_eq!(first.pages, 10);
        let joined: Vec<u16> = (1..=first.pages).flat_map(|p| page(&t, 95, &Selection::All, p).unwrap().text).collect();
        assert_eq!(joined, t);
        for p in 1..=first.pages {
            assert!(code_point_len(&page(&t, 95, &Selection::All, p).unwrap().text) <= 95);
        }
        assert_eq!(page(&t, 95, &Selection::All, 11), Err(PageError::NoSuchPage { page: 11, pages: 10 }));
        assert_eq!(page(&t, 95, &Selection::All, 0), Err(PageError::NoSuchPage { page: 0, pages: 10 }));
    }

    #[test]
    fn a_line_longer_than_a_page_is_split_on_code_points() {
        let t = utf16(&format!("{}\nshort\n", "😀".repeat(30)));
        let p1 = page(&t, 16, &Selection::All, 1).unwrap();
        assert_eq!(code_point_len(&p1.text), 16);
        assert_eq!((p1.first, p1.last), (1, 1));
        let joined: Vec<u16> = (1..=p1.pages).flat_map(|p| page(&t, 16, &Selection::All, p).unwrap().text).collect();
        assert_eq!(joined, t);
    }

    #[test]
    fn ranges_and_searches_narrow_the_text() {
        let t = text(100);
        let range = page(&t, 10_000, &Selection::Lines { first: 41, last: 43 }, 1).unwrap();
        assert_eq!(String::from_utf16_lossy(&range.text), "line 041\nline 042\nline 043\n");
        assert_eq!((range.first, range.last, range.pages), (41, 43, 1));
        let found = page(&t, 10_000, &Selection::Search(utf16("line 05")), 1).unwrap();
        // Lines 50..=59 match; with two neighbours each: 48..=61.
        assert_eq!((found.first, found.last, found.matches), (48, 61, 10));
        assert_eq!(page(&t, 100, &Selection::Search(utf16("absent")), 1), Err(PageError::Empty));
        assert_eq!(page(&t, 100, &Selection::Lines { first: 200, last: 300 }, 1), Err(PageError::Empty));
    }

    #[test]
    fn options_name_a_range_or_a_search_never_both() {
        let needle = || Some(utf16("x"));
        assert_eq!(Selection::from_options(None, None, None), Ok(Selection::All));
        assert_eq!(Selection::from_options(Some(3), Some(5), None), Ok(Selection::Lines { first: 3, last: 5 }));
        assert_eq!(Selection::from_options(None, None, needle()), Ok(Selection::Search(utf16("x"))));
        assert_eq!(Selection::from_options(Some(3), None, None), Err(SelectionError::HalfARange));
        assert_eq!(Selection::from_options(None, Some(5), None), Err(SelectionError::HalfARange));
        for (first, last) in [(Some(3), Some(5)), (Some(3), None), (None, Some(5))] {
            assert_eq!(Selection::from_options(first, last, needle()), Err(SelectionError::RangeAndSearch));
        }
        assert!(SelectionError::RangeAndSearch.to_string().contains("options.search"));
    }
}
