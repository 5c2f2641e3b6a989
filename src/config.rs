//! Budgets and their validation.
//!
//! A [`Budgets`] value can only be built valid: the threshold is positive and
//! `head + marker + tail <= threshold`, so every over-budget text can be cut
//! to a result that is within the threshold and strictly smaller than before.

use std::fmt;

/// The fixed text that stands in for a removed middle (upstream's marker).
pub const PRUNE_MARKER: &str = "\n\n[... tool result middle pruned ...]\n\n";

/// Length of [`PRUNE_MARKER`] in code points (it is ASCII: also code units).
pub const PRUNE_MARKER_LEN: u64 = PRUNE_MARKER.len() as u64;

/// Upstream's defaults: `thresholdChars`, `headChars`, `tailChars`.
pub const DEFAULT_THRESHOLD: u64 = 8192;
/// Default leading code points kept.
pub const DEFAULT_HEAD: u64 = 4096;
/// Default trailing code points kept.
pub const DEFAULT_TAIL: u64 = 1024;

/// Character budgets in code points. Invariant: `threshold >= 1` and
/// `head + PRUNE_MARKER_LEN + tail <= threshold`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    threshold: u64,
    head: u64,
    tail: u64,
}

/// Why a set of budgets was refused. Messages name the config key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// `thresholdChars` was zero.
    ThresholdNotPositive,
    /// `headChars + marker + tailChars` exceeds `thresholdChars`.
    MarkerDoesNotFit { emitted: u128, threshold: u64 },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::ThresholdNotPositive => {
                f.write_str("ToolResultPruneConfig: thresholdChars (0) must be a positive integer")
            }
            ConfigError::MarkerDoesNotFit { emitted, threshold } => write!(
                f,
                "ToolResultPruneConfig: headChars + marker + tailChars ({emitted}) must be at most thresholdChars ({threshold})"
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

impl Budgets {
    /// Validates and builds budgets; exact integer arithmetic, no overflow.
    pub fn new(threshold: u64, head: u64, tail: u64) -> Result<Self, ConfigError> {
        if threshold == 0 {
            return Err(ConfigError::ThresholdNotPositive);
        }
        let emitted = u128::from(head) + u128::from(PRUNE_MARKER_LEN) + u128::from(tail);
        if emitted > u128::from(threshold) {
            return Err(ConfigError::MarkerDoesNotFit { emitted, threshold });
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
        Budgets { threshold: DEFAULT_THRESHOLD, head: DEFAULT_HEAD, tail: DEFAULT_TAIL }
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
        assert_eq!(Budgets::new(0, 0, 0), Err(ConfigError::ThresholdNotPositive));
        assert_eq!(Budgets::new(100, 50, 12), Err(ConfigError::MarkerDoesNotFit { emitted: 101, threshold: 100 }));
        assert!(Budgets::new(101, 50, 12).is_ok());
        assert!(Budgets::new(u64::MAX, u64::MAX, u64::MAX).is_err());
        assert_eq!(
            Budgets::new(100, 50, 12).unwrap_err().to_string(),
            "ToolResultPruneConfig: headChars + marker + tailChars (101) must be at most thresholdChars (100)"
        );
    }
}
