//! Substring search over UTF-16 code units in linear time.
//!
//! Knuth–Morris–Pratt over `u16`: the needle's failure table is built once
//! (at most `2m` unit comparisons for a needle of `m` units), and a search
//! compares at most `2n` units of an `n`-unit haystack, whatever the two
//! hold. Units are compared as they are, so lone surrogates match only
//! themselves and a needle never matches half of a pair it does not hold.

/// A needle prepared for searching.
#[derive(Clone, Debug)]
pub struct Needle {
    units: Vec<u16>,
    /// `fail[i]`: the length of the longest proper border of `units[..=i]`.
    fail: Vec<usize>,
}

impl Needle {
    /// Prepares `units` for searching.
    pub fn new(units: &[u16]) -> Needle {
        let mut fail = vec![0; units.len()];
        let mut k = 0;
        for i in 1..units.len() {
            while k > 0 && units[i] != units[k] {
                count(1);
                k = fail[k - 1];
            }
            count(1);
            if units[i] == units[k] {
                k += 1;
            }
            fail[i] = k;
        }
        Needle { units: units.to_vec(), fail }
    }

    /// Whether `haystack` holds the needle (never for an empty needle).
    pub fn is_in(&self, haystack: &[u16]) -> bool {
        let m = self.units.len();
        if m == 0 || haystack.len() < m {
            return false;
        }
        let mut k = 0;
        for &u in haystack {
            while k > 0 && u != self.units[k] {
                count(1);
                k = self.fail[k - 1];
            }
            count(1);
            if u == self.units[k] {
                k += 1;
                if k == m {
                    return true;
                }
            }
        }
        false
    }
}

/// Counts `n` unit comparisons, in tests.
#[inline(always)]
fn count(_n: usize) {
    #[cfg(test)]
    tests::COMPARED.with(|c| c.set(c.get() + _n));
}

#[cfg(test)]
pub(crate) mod tests;
