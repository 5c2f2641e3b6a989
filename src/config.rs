//! Budgets, their defaults and the fixed marker: each written here once;
//! the config's keys, one table ([`KEYS`]), and their resolution.
//!
//! A [`Budgets`] value can only be built valid: the threshold is positive and
//! `head + marker + tail <= threshold`, so every over-budget text can be cut
//! to a result that is within the threshold and strictly smaller than before.
//! [`resolve`] turns a caller's config into one, with upstream's messages;
//! the binding exports it, the defaults and the marker, and the plugin's
//! config and the command line use them from there.

mod js_number;
mod keys;
mod object;
mod policy_keys;
mod resolve;

use std::fmt;

pub use js_number::js_number;
pub use keys::{DEFAULT_THRESHOLD_RATIO, Flag, KEYS, Key, KeyDefault, KeySpec, Range, Scope, StrategyName};
pub use object::{Resolved, resolve_object};
pub use policy_keys::{PRUNE_KEY, ResolvedPolicy, ToolRule};
pub use resolve::{
    ConfigError, ConfigObject, ConfigValue, ConfigValues, ErrorKind, Failure, Raw, ResolvedConfig, check_keys,
    not_an_object, resolve,
};

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
/// Default code points a result the model has read keeps when the session
/// policy prunes it in lines mode (`readKeepChars`): a reminder of a text it
/// read whole, shorter than a first cut, so each pass frees more room and
/// passes, each a cache break, come less often (docs/benchmarks.md).
pub const DEFAULT_READ_KEEP_CHARS: u32 = 2048;
/// Default neighbours kept around each kept line in lines mode (`contextLines`).
pub const DEFAULT_CONTEXT_LINES: u32 = 2;
/// Default lines kept at each end in lines mode (`edgeLines`).
pub const DEFAULT_EDGE_LINES: u32 = 2;

/// Character budgets in code points. Invariant: `threshold >= 1`,
/// `head + PRUNE_MARKER_LEN + tail <= threshold`, and
/// `PRUNE_MARKER_LEN <= keep <= threshold`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    threshold: u64,
    head: u64,
    tail: u64,
    keep: u64,
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
    /// Lines mode's output budget is below the marker or above the threshold.
    KeepOutOfRange {
        /// The output budget asked for.
        keep: u64,
        /// The threshold it must not exceed.
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
            BudgetError::KeepOutOfRange { keep, threshold } => {
                write!(f, "the lines budget ({keep}) must be from {PRUNE_MARKER_LEN} to the threshold ({threshold})")
            }
        }
    }
}

impl std::error::Error for BudgetError {}

impl Budgets {
    /// Validates and builds budgets; exact integer arithmetic, no overflow.
    /// Lines mode's output budget is what head/tail emits, `head + marker +
    /// tail`, so that switching strategy changes what is kept, not how much.
    pub fn new(threshold: u64, head: u64, tail: u64) -> Result<Self, BudgetError> {
        if threshold == 0 {
            return Err(BudgetError::ThresholdNotPositive);
        }
        let emitted = u128::from(head) + u128::from(PRUNE_MARKER_LEN) + u128::from(tail);
        if emitted > u128::from(threshold) {
            return Err(BudgetError::MarkerDoesNotFit { emitted, threshold });
        }
        // At most the threshold, checked just above.
        let keep = emitted as u64;
        Ok(Budgets { threshold, head, tail, keep })
    }

    /// These budgets with lines mode's output budget set to `keep` code points.
    pub fn with_keep(self, keep: u64) -> Result<Self, BudgetError> {
        if !(PRUNE_MARKER_LEN..=self.threshold).contains(&keep) {
            return Err(BudgetError::KeepOutOfRange { keep, threshold: self.threshold });
        }
        Ok(Budgets { keep, ..self })
    }

    /// Lines mode's output budget: code points a lines-mode result keeps at most.
    pub fn keep(&self) -> u64 {
        self.keep
    }

    /// Head and tail in the configured ratio, summing to `keep - marker`:
    /// upstream's cut scaled to lines mode's output budget.
    pub fn head_tail_within_keep(&self) -> Budgets {
        let room = self.keep - PRUNE_MARKER_LEN;
        let head = head_part(room, (self.head, self.tail));
        Budgets { threshold: self.threshold, head, tail: room - head, keep: self.keep }
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

/// The head's part of `room` split in the ratio `head:tail` (half when both
/// are 0), rounded down; exact for any `u64` values.
pub fn head_part(room: u64, (head, tail): (u64, u64)) -> u64 {
    (u128::from(room) * u128::from(head))
        .checked_div(u128::from(head) + u128::from(tail))
        .map_or(room / 2, |h| h as u64)
}

impl Default for Budgets {
    fn default() -> Self {
        let wide = u64::from;
        Budgets::new(wide(DEFAULT_THRESHOLD_CHARS), wide(DEFAULT_HEAD_CHARS), wide(DEFAULT_TAIL_CHARS))
            .expect("the defaults are valid")
    }
}

#[cfg(test)]
mod tests;
