use super::*;

#[test]
fn marker_is_39_code_points() {
    assert_eq!(PRUNE_MARKER_LEN, 39);
    assert_eq!(PRUNE_MARKER.chars().count(), 39);
}

#[test]
fn defaults_are_valid() {
    let d = Budgets::default();
    assert_eq!(Budgets::new(d.threshold(), d.head(), d.tail()), Ok(d));
    assert_eq!(d.keep(), 4096 + 39 + 1024);
}

#[test]
fn the_lines_budget_is_within_marker_and_threshold() {
    let b = Budgets::new(8192, 4096, 1024).unwrap();
    assert_eq!(b.with_keep(8192).unwrap().keep(), 8192);
    assert_eq!(b.with_keep(39).unwrap().keep(), 39);
    assert_eq!(b.with_keep(8193), Err(BudgetError::KeepOutOfRange { keep: 8193, threshold: 8192 }));
    assert_eq!(b.with_keep(38), Err(BudgetError::KeepOutOfRange { keep: 38, threshold: 8192 }));
    // Upstream's cut scaled into the lines budget keeps the 4:1 ratio.
    let scaled = b.with_keep(2039).unwrap().head_tail_within_keep();
    assert_eq!((scaled.head(), scaled.tail()), (1600, 400));
}

#[test]
fn refuses_zero_threshold_and_overfull_budgets() {
    assert_eq!(Budgets::new(0, 0, 0), Err(BudgetError::ThresholdNotPositive));
    assert_eq!(Budgets::new(100, 50, 12), Err(BudgetError::MarkerDoesNotFit { emitted: 101, threshold: 100 }));
    assert!(Budgets::new(101, 50, 12).is_ok());
    assert!(Budgets::new(u64::MAX, u64::MAX, u64::MAX).is_err());
    assert_eq!(
        Budgets::new(100, 50, 12).unwrap_err().to_string(),
        "head + marker + tail (101) must be at most the threshold (100)"
    );
}
