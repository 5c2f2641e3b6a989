//! Pages of a retrieved text: what `tool_result_retrieve` hands the model.
//!
//! A dropped run can be longer than a tool result may be before the pruner
//! cuts it again, so a retrieval returns one page at a time: whole lines
//! (a line longer than a page is split at code-point boundaries), each page
//! at most `budget` code points. The model may narrow first: a range of
//! lines, or the lines that contain a string, with a few neighbours. Every
//! page says which lines it covers and how many pages there are.
//!
//! [`retrieval`] puts a page under its [`header`] line, the whole within
//! `thresholdChars`; [`page`] makes the page for a given budget. Either
//! walks the text once, holding only the page asked for.

pub mod header;
#[cfg(test)]
mod tests;

use std::ops::Range;

use crate::substring::Needle;
use crate::text::{for_each_line, walk_forward};
pub use header::{MIN_PAGE_CHARS, SEARCH_SHOWN, TOOL_NAME, min_threshold};

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

/// A page under its header line: the tool's result is `header` then
/// `page.text`, at most `thresholdChars` code points in all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Retrieved {
    /// The first line (ending in `\n`): which lines, which page, what next.
    pub header: Vec<u16>,
    /// The page itself.
    pub page: Page,
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
    /// `thresholdChars` leaves less than [`MIN_PAGE_CHARS`] beside the header.
    ThresholdTooSmall {
        /// The threshold given.
        threshold: usize,
        /// The smallest threshold that works.
        needed: usize,
    },
}

impl std::fmt::Display for PageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PageError::NoSuchPage { page, pages } => write!(f, "page {page} does not exist: there are {pages}"),
            PageError::Empty => write!(f, "no line of the text matches"),
            PageError::ThresholdTooSmall { threshold, needed } => write!(
                f,
                "thresholdChars ({threshold}) is too small for a retrieval page: a page's first line and \
                 {MIN_PAGE_CHARS} code points of text need at least {needed}"
            ),
        }
    }
}

/// Page `page` (from 1) of `selection` of `text` under its header, the two
/// within `threshold` code points: the page's budget is the threshold less
/// the widest header this text and selection can have.
pub fn retrieval(
    text: &[u16],
    hash: &str,
    threshold: usize,
    selection: &Selection,
    page: usize,
) -> Result<Retrieved, PageError> {
    let search = match selection {
        Selection::Search(needle) => Some(header::shown(needle)),
        _ => None,
    };
    let widest = header::widest(hash, search.as_deref(), text.len());
    let needed = widest + MIN_PAGE_CHARS;
    if threshold < needed {
        return Err(PageError::ThresholdTooSmall { threshold, needed });
    }
    let page = self::page(text, threshold - widest, selection, page)?;
    Ok(Retrieved { header: header::render(hash, search.as_deref(), &page), page })
}

/// Page `page` (from 1) of `selection` of `text`, each page at most
/// `budget` code points (at least one code point per page). One walk over
/// the text; what it keeps is the page asked for.
pub fn page(text: &[u16], budget: usize, selection: &Selection, page: usize) -> Result<Page, PageError> {
    let mut pager =
        Pager { text, budget: budget.max(1), wanted: page, page: 0, size: 0, out: Vec::new(), first: 0, last: 0 };
    let mut total_lines = 0;
    let mut matches = 0;
    match selection {
        Selection::All => for_each_line(text, |range, cps| {
            pager.line(range, cps, total_lines);
            total_lines += 1;
        }),
        Selection::Lines { first, last } => {
            let wanted = first.saturating_sub(1)..*last;
            for_each_line(text, |range, cps| {
                if wanted.contains(&total_lines) {
                    pager.line(range, cps, total_lines);
                }
                total_lines += 1;
            });
        }
        Selection::Search(needle) => {
            let needle = Needle::new(needle);
            // Lines not (yet) chosen just above this one, and the last line
            // a match's neighbours reach down to.
            let mut above: Vec<(Range<usize>, usize, usize)> = Vec::with_capacity(SEARCH_CONTEXT);
            let mut reach: Option<usize> = None;
            for_each_line(text, |range, cps| {
                let k = total_lines;
                total_lines += 1;
                if needle.is_in(&text[range.clone()]) {
                    matches += 1;
                    for (range, cps, line) in above.drain(..) {
                        pager.line(range, cps, line);
                    }
                    pager.line(range, cps, k);
                    reach = Some(k + SEARCH_CONTEXT);
                } else if reach.is_some_and(|r| k <= r) {
                    pager.line(range, cps, k);
                } else {
                    if above.len() == SEARCH_CONTEXT {
                        above.remove(0);
                    }
                    above.push((range, cps, k));
                }
            });
        }
    }
    let pages = pager.page;
    if pages == 0 {
        return Err(PageError::Empty);
    }
    if page == 0 || page > pages {
        return Err(PageError::NoSuchPage { page, pages });
    }
    Ok(Page { text: pager.out, first: pager.first + 1, last: pager.last + 1, total_lines, page, pages, matches })
}

/// Packs the chosen lines into pages as they come, keeping only the
/// `wanted` page's text.
struct Pager<'a> {
    text: &'a [u16],
    budget: usize,
    wanted: usize,
    /// The page being filled, from 1 (0 before the first line).
    page: usize,
    /// Code points on it so far.
    size: usize,
    out: Vec<u16>,
    /// First and last line (0-based) on the wanted page.
    first: usize,
    last: usize,
}

impl Pager<'_> {
    /// Line `k` (0-based), `cps` code points: one piece, or pieces of
    /// `budget` code points when it is longer than that.
    fn line(&mut self, range: Range<usize>, cps: usize, k: usize) {
        if cps <= self.budget {
            return self.piece(range, cps, k);
        }
        let mut at = range.start;
        while at < range.end {
            let (len, walked) = walk_forward(&self.text[at..range.end], self.budget);
            self.piece(at..at + len, walked, k);
            at += len;
        }
    }

    /// A piece of line `k`: on the current page if it fits, else on a new one.
    fn piece(&mut self, range: Range<usize>, cps: usize, k: usize) {
        if self.page == 0 || self.size + cps > self.budget {
            self.page += 1;
            self.size = 0;
        }
        self.size += cps;
        if self.page == self.wanted {
            if self.out.is_empty() {
                self.first = k;
            }
            self.last = k;
            self.out.extend_from_slice(&self.text[range]);
        }
    }
}
