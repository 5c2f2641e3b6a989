use super::*;
use proptest::prelude::*;

thread_local! {
    /// Units compared on this thread: work counted, not timed.
    pub(crate) static COMPARED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The plain definition: some window equals the needle.
fn naive(needle: &[u16], hay: &[u16]) -> bool {
    !needle.is_empty() && hay.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn one_long_repetitive_line_with_a_long_needle_costs_linear_work() {
    // The worst case of a window-by-window scan: every window matches
    // all but the needle's last unit.
    let hay = vec![u16::from(b'a'); 1 << 20];
    let mut needle = vec![u16::from(b'a'); 1 << 12];
    needle.push(u16::from(b'b'));
    COMPARED.with(|c| c.set(0));
    let found = Needle::new(&needle).is_in(&hay);
    let compared = COMPARED.with(|c| c.get());
    assert!(!found);
    let bound = 2 * (hay.len() + needle.len());
    assert!(compared <= bound, "{compared} comparisons for {} + {} units", hay.len(), needle.len());
}

#[test]
fn lone_surrogates_match_only_themselves() {
    let pair = [0xD83D, 0xDE00];
    assert!(Needle::new(&[0xD83D]).is_in(&pair), "a unit of a pair is a unit of the text");
    assert!(!Needle::new(&[0xDE00, 0xD83D]).is_in(&pair));
    assert!(Needle::new(&[0xDC00, 0x61]).is_in(&[0x62, 0xDC00, 0x61]));
    assert!(!Needle::new(&[]).is_in(&pair), "an empty needle matches nothing");
}

fn small_units() -> impl Strategy<Value = Vec<u16>> {
    // Few distinct units, so matches and near-matches are common.
    prop::collection::vec(prop_oneof![Just(0x61u16), Just(0x62), Just(0xD800), Just(0xDC00)], 0..40)
}

proptest! {
    #[test]
    fn agrees_with_the_definition(needle in small_units(), hay in small_units()) {
        prop_assert_eq!(Needle::new(&needle).is_in(&hay), naive(&needle, &hay));
    }
}
