//! A set of line indices `0..n` in one bit per line.
//!
//! Summary levels above the bits (a bit per non-empty word of the level
//! below) find the nearest member before or after a line in a few word
//! operations whatever the gap, so a keep-set over millions of lines costs
//! an eighth of a byte a line and each query is O(log64 n).

/// Lines `0..len` as bits, with summary levels. Invariant: bit `j` of
/// `levels[i + 1]` is set exactly when word `j` of `levels[i]` is not zero.
#[derive(Clone, Debug)]
pub struct LineSet {
    levels: Vec<Vec<u64>>,
    universe: usize,
    count: usize,
}

impl LineSet {
    /// The empty set over lines `0..len`.
    pub fn new(len: usize) -> Self {
        let mut levels = vec![vec![0u64; len.div_ceil(64).max(1)]];
        while levels.last().expect("one level").len() > 1 {
            let below = levels.last().expect("one level").len();
            levels.push(vec![0u64; below.div_ceil(64)]);
        }
        LineSet { levels, universe: len, count: 0 }
    }

    /// How many lines are in the set.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether no line is in the set.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Whether line `k` is in the set (false past the end).
    #[inline]
    pub fn contains(&self, k: usize) -> bool {
        k < self.universe && self.levels[0][k / 64] >> (k % 64) & 1 == 1
    }

    /// Adds line `k` (which must be below the length); whether it was new.
    pub fn insert(&mut self, k: usize) -> bool {
        assert!(k < self.universe, "line {k} outside 0..{}", self.universe);
        if self.contains(k) {
            return false;
        }
        let mut at = k;
        for level in &mut self.levels {
            let was_empty = level[at / 64] == 0;
            level[at / 64] |= 1 << (at % 64);
            if !was_empty {
                break;
            }
            at /= 64;
        }
        self.count += 1;
        true
    }

    /// The largest member below `k`.
    pub fn prev(&self, k: usize) -> Option<usize> {
        let k = k.min(self.universe);
        if k == 0 {
            return None;
        }
        // Find, climbing, the first level with a member before the position.
        let mut at = k - 1;
        let mut level = 0;
        loop {
            let word = self.levels[level][at / 64] & mask_through(at % 64);
            if word != 0 {
                at = at / 64 * 64 + (63 - word.leading_zeros() as usize);
                break;
            }
            if at < 64 || level + 1 == self.levels.len() {
                return None;
            }
            at = at / 64 - 1;
            level += 1;
        }
        // Descend to the highest member under it.
        while level > 0 {
            level -= 1;
            let word = self.levels[level][at];
            at = at * 64 + (63 - word.leading_zeros() as usize);
        }
        Some(at)
    }

    /// The smallest member at or after `k`.
    pub fn next(&self, k: usize) -> Option<usize> {
        if k >= self.universe {
            return None;
        }
        let mut at = k;
        let mut level = 0;
        loop {
            let words = &self.levels[level];
            let word = words[at / 64] & !mask_below(at % 64);
            if word != 0 {
                at = at / 64 * 64 + word.trailing_zeros() as usize;
                break;
            }
            // The next word of this level is the next bit of the one above.
            at = at / 64 + 1;
            if at >= words.len() || level + 1 == self.levels.len() {
                return None;
            }
            level += 1;
        }
        while level > 0 {
            level -= 1;
            at = at * 64 + self.levels[level][at].trailing_zeros() as usize;
        }
        Some(at)
    }

    /// The smallest line at or after `k` that is not a member (`len` when none).
    pub fn next_absent(&self, k: usize) -> usize {
        let mut at = k;
        while at < self.universe {
            let word = !self.levels[0][at / 64] & !mask_below(at % 64);
            if word != 0 {
                return (at / 64 * 64 + word.trailing_zeros() as usize).min(self.universe);
            }
            at = at / 64 * 64 + 64;
        }
        self.universe
    }

    /// The largest line at or before `k` that is not a member.
    pub fn prev_absent(&self, k: usize) -> Option<usize> {
        if self.universe == 0 {
            return None;
        }
        let mut at = k.min(self.universe - 1);
        loop {
            let word = !self.levels[0][at / 64] & mask_through(at % 64);
            if word != 0 {
                return Some(at / 64 * 64 + (63 - word.leading_zeros() as usize));
            }
            if at < 64 {
                return None;
            }
            at = at / 64 * 64 - 1;
        }
    }

    /// The members in ascending order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        let mut from = 0;
        std::iter::from_fn(move || {
            let k = self.next(from)?;
            from = k + 1;
            Some(k)
        })
    }
}

/// Bits `0..=i` of a word.
#[inline]
fn mask_through(i: usize) -> u64 {
    u64::MAX >> (63 - i)
}

/// Bits `0..i` of a word.
#[inline]
fn mask_below(i: usize) -> u64 {
    (1u64 << i) - 1
}

#[cfg(test)]
mod tests;
