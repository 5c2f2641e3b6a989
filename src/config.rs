//! Budgets, their defaults and the fixed marker: each written here once.
//!
//! A [`Budgets`] value can only be built valid: the threshold is positive and
//! `head + marker + tail <= threshold`, so every over-budget text can be cut
//! to a result that is within the threshold and strictly smaller than before.
//! The binding exports the defaults and the marker; the plugin's config and
//! the command line read them from there.

use std::fmt;

/// The fixed text that stands in for a removed middle (upstream's marker).
pub const PRUNE_MARKER: &str = "\n\n[... tool result middle pruned ...]\n\n";

/// Length of [`PRUNE_MARKER`] in code points (it is ASCII: also code units).
pub const PRUNE_MARKER_LEN: u64 = PRUNE_MARKER.len() as u64;

/// Default threshold (`thresholdChars`): upstream's.
pub const DEFAULT_THRESHOLD_CHARS: u32 = 8192;
/// Default leading code points kept (`headChars`): upstream's.
pub const DEFAULT_HEAD_CHARS: u32 = 4096;
/// Default trailing code points kept (`tailChars`): upstream's.
pub const DEFAULT_TAIL_CHARS: u32 = 1024;
/// Default neighbours kept around each kept line in lines mode (`contextLines`).
pub const DEFAULT_CONTEXT_LINES: u32 = 2;
/// Default lines kept at each end in lines mode (`edgeLines`).
pub const DEFAULT_EDGE_LINES: u32 = 2;

/// Character budgets in code points. Invariant: `threshold >= 1` and
/// `head + PRUNE_MARKER_LEN + tail <= threshold`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    threshold: u64,
    head: u64,
    tail: u64,
}

/// Why a set of budgets was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BudgetError {
    /// The threshold was zero.
    ThresholdNotPositive,
    /// Head, marker and tail together are longer than the threshold.
    MarkerDoesNotFit {
        /// Head, marker and tail together, in code points.
        emitted: u128,
        /// The threshold they exceed.
        threshold: u64,
    },
}

impl fmt::Display for BudgetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BudgetError::ThresholdNotPositive => f.write_str("the threshold must be positive"),
            BudgetError::MarkerDoesNotFit { emitted, threshold } => {
                write!(f, "head + marker + tail ({emitted}) must be at most the threshold ({threshold})")
            }
        }
    }
}

impl std::error::Error for BudgetError {}

impl Budgets {
    /// Validates and builds budgets; exact integer arithmetic, no overflow.
    pub fn new(threshold: u64, head: u64, tail: u64) -> Result<Self, BudgetError> {
        if threshold == 0 {
            return Err(BudgetError::ThresholdNotPositive);
        }
        let emitted = u128::from(head) + u128::from(PRUNE_MARKER_LEN) + u128::from(tail);
        if emitted > u128::from(threshold) {
            return Err(BudgetError::MarkerDoesNotFit { emitted, threshold });
        }
        Ok(Budgets { threshold, head, tail })
    }

    /// Prune when the text is longer than this many code points.
    pub fn threshold(&self) -> u64 {
        self.threshold
    }

    /// Leading code points kept by head/tail pruning.
    pub fn head(&self) -> u64 {
        self.head
    }

    /// Trailing code points kept by head/tail pruning.
    pub fn tail(&self) -> u64 {
        self.tail
    }
}

impl Default for Budgets {
    fn default() -> Self {
        let wide = u64::from;
        Budgets {
            threshold: wide(DEFAULT_THRESHOLD_CHARS),
            head: wide(DEFAULT_HEAD_CHARS),
            tail: wide(DEFAULT_TAIL_CHARS),
        }
    }
}

#[cfg(test)]
mod tests {
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
}
