use proptest::prelude::*;

use super::header::shown;
use super::*;
use crate::guarantees::check_retrieval;
use crate::text::{code_point_len, utf16};

const HASH: &str = "0123456789abcdef01234567";

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
    // Matches two and six lines apart: one run, then a gap.
    let t = utf16("a\nb\nX\nc\nX\nd\ne\nf\ng\nh\ni\nX\n");
    let found = page(&t, 10_000, &Selection::Search(utf16("X")), 1).unwrap();
    assert_eq!(String::from_utf16_lossy(&found.text), "a\nb\nX\nc\nX\nd\ne\nh\ni\nX\n");
    assert_eq!((found.first, found.last, found.matches), (1, 12, 3));
    let found = page(&t, 10_000, &Selection::Search(utf16("X\nd")), 1);
    assert_eq!(found, Err(PageError::Empty), "a match never spans lines");
}

#[test]
fn the_header_says_where_the_page_is_and_how_to_go_on() {
    let t = text(100);
    let r = retrieval(&t, HASH, 400, &Selection::All, 1).unwrap();
    let header = String::from_utf16_lossy(&r.header);
    let pages = r.page.pages;
    assert_eq!(
        header,
        format!(
            "[{TOOL_NAME} {HASH}: lines 1-{} of 100, page 1 of {pages}; next: call {TOOL_NAME} again with page 2]\n",
            r.page.last
        )
    );
    let last = retrieval(&t, HASH, 400, &Selection::All, pages).unwrap();
    assert!(
        String::from_utf16_lossy(&last.header).ends_with(&format!("page {pages} of {pages}; this is the last page]\n"))
    );
    let found = retrieval(&t, HASH, 4096, &Selection::Search(utf16("line 05")), 1).unwrap();
    assert!(String::from_utf16_lossy(&found.header).contains(", 10 matching \"line 05\", page 1 of 1;"));
}

#[test]
fn a_search_is_shown_as_json_and_shortened_to_a_bounded_size() {
    let show = |s: &[u16]| String::from_utf16(&shown(s)).unwrap();
    assert_eq!(
        show(&utf16("a\"b\\c\n\t\r\u{8}\u{c}\u{1}\u{7f}😀")),
        r#""a\"b\\c\n\t\r\b\f\u0001"#.to_owned() + "\u{7f}😀\""
    );
    assert_eq!(show(&[0x61, 0xD800, 0xDC00, 0xDFFF, 0xD83D]), "\"a\u{10000}\\udfff\\ud83d\"");
    let long = show(&utf16(&"x".repeat(1000)));
    assert_eq!(long, format!("\"{}\"…", "x".repeat(SEARCH_SHOWN - 3)));
    let exact = "y".repeat(SEARCH_SHOWN - 2);
    assert_eq!(show(&utf16(&exact)), format!("\"{exact}\""), "a search that fits is shown whole");
    // Escapes are never cut in half, and the shown text stays within bounds.
    let quotes = shown(&vec![u16::from(b'"'); 500]);
    assert!(code_point_len(&quotes) <= SEARCH_SHOWN);
    assert!(String::from_utf16(&quotes).unwrap().ends_with("\\\"\"…"));
    let surrogates = shown(&vec![0xDC00; 500]);
    assert!(code_point_len(&surrogates) <= SEARCH_SHOWN);
    assert!(String::from_utf16(&surrogates).unwrap().ends_with("\\udc00\"…"));
}

#[test]
fn a_long_search_keeps_the_page_within_the_threshold() {
    // Issue 18: a 161-code-point search made a 4,145-code-point page at 4,096.
    let t = utf16(&"an error line that is long enough to fill pages\n".repeat(2000));
    let needle = utf16(&format!("{}error", "\"".repeat(156)));
    for needle in [needle, utf16("error line"), vec![0xD800; 161]] {
        check_retrieval(&t, HASH, 4096, &Selection::Search(needle)).unwrap();
    }
    check_retrieval(&t, HASH, 4096, &Selection::All).unwrap();
}

#[test]
fn a_threshold_too_small_for_any_page_is_one_clear_error() {
    // Issue 18: at thresholdChars 100 every page was 137 code points, 103,408 of them.
    let t = utf16(&"\n".repeat(100_000));
    let e = retrieval(&t, HASH, 100, &Selection::All, 1).unwrap_err();
    let PageError::ThresholdTooSmall { needed, .. } = e else { panic!("{e:?}") };
    assert!(needed > 100 && needed <= min_threshold());
    assert!(e.to_string().starts_with("thresholdChars (100) is too small for a retrieval page"), "{e}");
    assert!(retrieval(&t, HASH, needed, &Selection::All, 1).is_ok());
    // The bound for any JS string, checked at load, under the tool test's threshold.
    assert!(min_threshold() < 1000, "{}", min_threshold());
}

#[test]
fn a_search_over_one_long_repetitive_line_costs_linear_work() {
    // Issue 18: line length times needle length (9 s) for a window scan.
    let mut t = vec![u16::from(b'a'); 1 << 20];
    t.push(u16::from(b'\n'));
    let mut needle = vec![u16::from(b'a'); 1 << 12];
    needle.push(u16::from(b'b'));
    crate::substring::tests::COMPARED.with(|c| c.set(0));
    assert_eq!(page(&t, 4096, &Selection::Search(needle.clone()), 1), Err(PageError::Empty));
    let compared = crate::substring::tests::COMPARED.with(|c| c.get());
    assert!(compared <= 2 * (t.len() + needle.len()), "{compared} unit comparisons");
    eprintln!("{compared} unit comparisons for a line of {} units and a needle of {}", t.len(), needle.len());
}

/// Units that make every case likely: line feeds, letters, quotes, control
/// characters, pairs and their halves alone.
fn unit() -> impl Strategy<Value = u16> {
    prop_oneof![
        4 => Just(u16::from(b'\n')),
        6 => Just(u16::from(b'a')),
        2 => Just(u16::from(b'b')),
        1 => Just(u16::from(b'"')),
        1 => Just(u16::from(b'\\')),
        1 => Just(0x01u16),
        1 => Just(0xD83D),
        1 => Just(0xDE00),
        1 => any::<u16>(),
    ]
}

fn selection() -> impl Strategy<Value = Selection> {
    prop_oneof![
        Just(Selection::All),
        (0usize..40, 0usize..40).prop_map(|(first, last)| Selection::Lines { first, last }),
        prop::collection::vec(unit(), 0..4).prop_map(Selection::Search),
        prop::collection::vec(unit(), 0..200).prop_map(Selection::Search),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn pages_fit_the_threshold_and_join_to_the_selection(
        text in prop::collection::vec(unit(), 0..1500),
        threshold in prop_oneof![0usize..2000, Just(min_threshold())],
        selection in selection(),
    ) {
        check_retrieval(&text, HASH, threshold, &selection).map_err(TestCaseError::fail)?;
    }
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
