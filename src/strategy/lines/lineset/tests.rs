use super::*;
use proptest::prelude::*;
use std::collections::BTreeSet;

#[test]
fn neighbours_across_levels() {
    let mut s = LineSet::new(300_000);
    for k in [0, 63, 64, 4095, 4096, 262_143, 262_144, 299_999] {
        assert!(s.insert(k));
    }
    assert!(!s.insert(64));
    assert_eq!(s.len(), 8);
    assert_eq!(s.prev(0), None);
    assert_eq!(s.prev(1), Some(0));
    assert_eq!(s.prev(262_144), Some(262_143));
    assert_eq!(s.prev(262_143), Some(4096));
    assert_eq!(s.next(4097), Some(262_143));
    assert_eq!(s.next(299_999), Some(299_999));
    assert_eq!(s.next(300_000), None);
    assert_eq!(s.next_absent(63), 65);
    assert_eq!(s.prev_absent(64), Some(62));
    assert_eq!(s.iter().collect::<Vec<_>>(), [0, 63, 64, 4095, 4096, 262_143, 262_144, 299_999]);
}

proptest! {
    #[test]
    fn agrees_with_a_btree_set(len in 1usize..20_000, members in prop::collection::vec(any::<prop::sample::Index>(), 0..200), probes in prop::collection::vec(any::<prop::sample::Index>(), 1..50)) {
        let mut s = LineSet::new(len);
        let mut reference = BTreeSet::new();
        for m in &members {
            let k = m.index(len);
            prop_assert_eq!(s.insert(k), reference.insert(k));
        }
        prop_assert_eq!(s.len(), reference.len());
        for p in &probes {
            let k = p.index(len + 2);
            prop_assert_eq!(s.contains(k), reference.contains(&k));
            prop_assert_eq!(s.prev(k), reference.range(..k).next_back().copied());
            prop_assert_eq!(s.next(k), reference.range(k..).next().copied());
            let absent_after = (k..len).find(|j| !reference.contains(j)).unwrap_or(len);
            prop_assert_eq!(s.next_absent(k), absent_after.max(k.min(len)));
            let absent_before = (0..=k.min(len - 1)).rev().find(|j| !reference.contains(j));
            prop_assert_eq!(s.prev_absent(k), absent_before);
        }
        prop_assert_eq!(s.iter().collect::<Vec<_>>(), reference.iter().copied().collect::<Vec<_>>());
    }
}
