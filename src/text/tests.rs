use super::*;
use proptest::prelude::*;

const HIGH: u16 = 0xD83D;
const LOW: u16 = 0xDE00;

#[test]
fn counts_pairs_once_and_lone_surrogates_once() {
    assert_eq!(code_point_len(&utf16("")), 0);
    assert_eq!(code_point_len(&utf16("abc")), 3);
    assert_eq!(code_point_len(&utf16("a😀b")), 3);
    assert_eq!(code_point_len(&[HIGH]), 1);
    assert_eq!(code_point_len(&[LOW, HIGH]), 2);
    assert_eq!(code_point_len(&[HIGH, HIGH, LOW]), 2);
    assert_eq!(code_point_len(&[HIGH, LOW, LOW]), 2);
}

#[test]
fn offsets_respect_pairs() {
    let t = utf16("a😀b😀");
    assert_eq!(offset_after(&t, 0), 0);
    assert_eq!(offset_after(&t, 1), 1);
    assert_eq!(offset_after(&t, 2), 3);
    assert_eq!(offset_after(&t, 9), t.len());
    assert_eq!(offset_before_last(&t, 1), 4);
    assert_eq!(offset_before_last(&t, 2), 3);
    assert_eq!(offset_before_last(&t, 9), 0);
    let lone = [HIGH, 0x61, LOW];
    assert_eq!(offset_after(&lone, 1), 1);
    assert_eq!(offset_before_last(&lone, 1), 2);
}

#[test]
fn splits_on_newline_only_keeping_endings() {
    let t = utf16("a\r\nb\u{2028}c\n\nlast");
    let lines = split_lines(&t);
    let parts: Vec<String> = lines.iter().map(|r| String::from_utf16_lossy(&t[r.clone()])).collect();
    assert_eq!(parts, ["a\r\n", "b\u{2028}c\n", "\n", "last"]);
    assert!(split_lines(&[]).is_empty());
    assert_eq!(split_lines(&utf16("x\n")).len(), 1);
}

/// Code-point start offsets computed by the standard library's decoder,
/// which yields one item per pair and one per lone surrogate.
fn std_starts(units: &[u16]) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut at = 0;
    for item in char::decode_utf16(units.iter().copied()) {
        starts.push(at);
        at += item.map_or(1, char::len_utf16);
    }
    starts
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4096))]
    #[test]
    fn agrees_with_the_std_decoder(units in proptest::collection::vec(
        proptest::prop_oneof![0u16..0x80, 0xD800u16..0xE000, proptest::num::u16::ANY], 0..300)) {
        let starts = std_starts(&units);
        let n_points = starts.len();
        proptest::prop_assert_eq!(code_point_len(&units), n_points);
        // The portable count on its own, whatever this CPU runs.
        proptest::prop_assert_eq!(crate::kernels::portable::code_point_len(&units), n_points);
        for n in 0..=n_points + 1 {
            let after = starts.get(n).copied().unwrap_or(units.len());
            proptest::prop_assert_eq!(offset_after(&units, n), after);
            let before = if n == 0 { units.len() } else { starts.get(n_points.saturating_sub(n)).copied().unwrap_or(0) };
            let before = if n > n_points { 0 } else { before };
            proptest::prop_assert_eq!(offset_before_last(&units, n), before);
        }
    }

    #[test]
    fn newlines_are_counted_on_every_path(units in prop::collection::vec(prop_oneof![Just(10u16), 0u16..0xFFFF], 0..3000)) {
        let want = units.iter().filter(|&&u| u == 10).count();
        prop_assert_eq!(count_newlines(&units), want);
        prop_assert_eq!(crate::kernels::portable::count_newlines(&units), want);
    }

    #[test]
    fn joined_lines_are_the_input(units in prop::collection::vec(prop_oneof![Just(10u16), 0x20u16..0x7f, 0xD800u16..0xE000], 0..200)) {
        let joined: Vec<u16> = split_lines(&units).into_iter().flat_map(|r| units[r].to_vec()).collect();
        prop_assert_eq!(joined, units);
    }

    #[test]
    fn line_walk_agrees_with_a_plain_split(units in prop::collection::vec(prop_oneof![
        Just(10u16), 0x20u16..0x7f, 0xD800u16..0xDC00, 0xDC00u16..0xE000, 0xE000u16..=0xFFFF,
    ], 0..400)) {
        let mut want = Vec::new();
        let mut start = 0;
        for (i, &u) in units.iter().enumerate() {
            if u == 10 {
                want.push((start..i + 1, code_point_len(&units[start..i + 1])));
                start = i + 1;
            }
        }
        if start < units.len() {
            want.push((start..units.len(), code_point_len(&units[start..])));
        }
        let mut got = Vec::new();
        for_each_line(&units, |range, points| got.push((range, points)));
        prop_assert_eq!(&got, &want);
        let mut portable = Vec::new();
        crate::kernels::portable::scan_lines(&units, &mut |range, points| portable.push((range, points)), crate::kernels::portable::line_masks);
        prop_assert_eq!(portable, want);
    }
}

#[test]
fn rows_of_one_table_open_their_columns_at_the_same_offsets() {
    let row = |s: &str| utf16(s);
    assert!(same_columns(
        &row("ii  adduser     3.134   all  add users"),
        &row("ii  apt         2.6.1   amd64  manager")
    ));
    // Indentation is not a column gap; one gap is not a table.
    assert!(!same_columns(&row("    a  b"), &row("    a  b")));
    assert!(!same_columns(&row("ii  adduser     3.134"), &row("ii  apt  2.6.1     amd64")));
    assert!(!same_columns(&row("the fetch failed"), &row("the fetch failed")));
}
