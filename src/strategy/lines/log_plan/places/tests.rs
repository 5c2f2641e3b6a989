use super::*;
use crate::text::utf16;

#[test]
fn a_template_recurs_when_its_repeats_name_few_places() {
    let lines: Vec<(u32, Vec<u16>)> = (0..40)
        .map(|i| (1, utf16(&format!("src/lz4.c:{}:52: runtime error: load", 372 + i % 3))))
        .chain(
            (0..40).map(|i| (2, utf16(&format!("src/m.py:{}: error: Function is missing a type annotation", i + 10)))),
        )
        .collect();
    let recurring = recurring(lines.iter().map(|(t, l)| (*t, leading_place(l))));
    assert_eq!(recurring, HashSet::from([1]));
}

#[test]
fn a_place_is_the_path_and_line_a_failure_opens_with() {
    let place = |s: &str| leading_place(&utf16(s));
    let a = place("src/lz4.c:373:57: runtime error: load of misaligned address 0x1");
    assert!(a.is_some());
    // The column and what follows do not count; the line does.
    assert_eq!(a, place("src/lz4.c:373:12: runtime error: store to misaligned address 0x2"));
    assert_ne!(a, place("src/lz4.c:372:57: runtime error: load of misaligned address 0x1"));
    assert_ne!(a, place("src/lz5.c:373:57: runtime error: load of misaligned address 0x1"));
    assert_eq!(place("  tests/test_a.py:12: AssertionError"), place("tests/test_a.py:12: TypeError"));
    for none in ["AssertionError: 3 != 4", "E   assert 1 == 2", "at x.py line 3:4", "Error: 12", ":12: x", ""] {
        assert_eq!(place(none), None, "{none}");
    }
}

#[test]
fn a_file_opens_a_line_before_its_place_and_runs_open_where_it_changes() {
    let file = |s: &str| leading_file(&utf16(s)).map(<[u16]>::to_vec);
    let a = file("src/a.ts(2,3): error TS1484: 'T' is a type");
    assert!(a.is_some());
    assert_eq!(a, file("src/a.ts(9,1): error TS2551: Property"));
    assert_eq!(file("src/a.py:12: error: x"), file("  src/a.py:3: note: y"));
    assert_ne!(a, file("src/b.ts(2,3): error TS1484: 'T' is a type"));
    for none in ["Found 3 errors", "src/a.ts: error", "(1,2): x", "error TS1484: x", ""] {
        assert_eq!(file(none), None, "{none}");
    }
    let (x, y): (Option<&[u16]>, Option<&[u16]>) = (Some(&[1]), Some(&[2]));
    assert_eq!(file_openings(&[x, x, x, None, x, y, y, y]), [0, 4, 5]);
    // A new file a line: no runs.
    assert!(file_openings(&[x, y, x, y]).is_empty());
}
