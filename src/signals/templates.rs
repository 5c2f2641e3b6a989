//! Line templates: lines that say the same thing about different things
//! count as one, so a flood of one message does not crowd out the rest.
//!
//! In the manner of Drain (He et al., "Drain: An Online Log Parsing Approach
//! with Fixed Depth Tree", 2017): a line's words, with numbers, hex ids,
//! quoted strings and paths blanked, are compared with the templates seen so
//! far that have as many words and begin with the same word; a line joins a
//! template when at least half of its places agree, an equal literal word
//! counting whole and a template's wildcard half, and the words where they
//! differ become wildcards. So `test a::b ... ok` and
//! `test c::d ... ok`, or one mypy error about 279 different names, share a
//! template, while the few lines that differ in their message do not.
//!
//! Bounded work and memory: templates live in a fixed table of buckets
//! (by word count and first word), a few per bucket, the least recently
//! joined one making room for a new one. A line is compared with at most
//! [`WAYS`] templates, whatever it says, and the table never grows past
//! its size; a template pushed out is not joined again (a later line of it
//! starts a new one), which only a text with more than [`WAYS`] templates
//! of one shape at once can notice.

use crate::kernels::is_variable;

/// Words beyond this many are not compared (long lines are rare and costly).
pub const MAX_WORDS: usize = 24;
/// Templates a bucket holds; the most a line is compared with. At most 64:
/// a bucket's agreeing keys are found as a 64-bit mask.
pub const WAYS: usize = 64;
const _: () = assert!(WAYS <= 64);
/// Most buckets a table has.
const MAX_BUCKETS: usize = 1024;
/// Code units of text a template's room in the table stands for.
const UNITS_A_TEMPLATE: usize = 128;

/// A word as templates compare it: a hash of a literal word, or [`ANY`].
pub type Word = u32;
/// A wildcard: the place where lines of the template differ.
const ANY: Word = 0;

/// The templates of one text, built as its lines are read in order. The
/// table is `buckets * WAYS` slots; a slot's key (its word count and first
/// word) is kept apart from its words, so a line scans one short array of
/// keys and compares words only where the key agrees.
pub struct Templates {
    /// Each slot's key, 0 for an empty slot.
    keys: Vec<u64>,
    ids: Vec<u32>,
    used: Vec<u64>,
    words: Vec<[Word; MAX_WORDS]>,
    buckets: usize,
    /// The most `buckets` may grow to.
    most_buckets: usize,
    next_id: u32,
    clock: u64,
    /// The words of the line being read (a buffer, so they are written once).
    line: [Word; MAX_WORDS],
    /// The words of the line read last, how many, and the slot of the
    /// template it joined: a line with the same words joins the same one (it
    /// stays the best match, since joining only turns its differing words
    /// into wildcards).
    last: ([Word; MAX_WORDS], usize, Option<usize>),
    /// Template comparisons made, for the counted-work tests.
    pub comparisons: usize,
}

impl Templates {
    /// A table for a text of `units` code units, whose ids start after
    /// `first_id`. It starts at one bucket and doubles while a full bucket
    /// would push a template out, up to a size of one template per
    /// [`UNITS_A_TEMPLATE`] units of text (at most [`MAX_BUCKETS`] buckets),
    /// so its memory follows the templates seen, bounded by the text.
    /// Nothing is allocated until a line is read.
    pub fn new(units: usize, first_id: u32) -> Self {
        let most = (units / UNITS_A_TEMPLATE / WAYS).clamp(1, MAX_BUCKETS).next_power_of_two();
        Templates {
            most_buckets: most,
            keys: Vec::new(),
            ids: Vec::new(),
            used: Vec::new(),
            words: Vec::new(),
            buckets: 1,
            next_id: first_id,
            clock: 0,
            line: [ANY; MAX_WORDS],
            last: ([ANY; MAX_WORDS], 0, None),
            comparisons: 0,
        }
    }

    /// The last id given out (ids start at `first_id + 1`).
    pub fn last_id(&self) -> u32 {
        self.next_id
    }

    /// The template of `view` (a line's view), joining or creating one.
    pub fn id(&mut self, view: &str) -> u32 {
        let len = words_of(view, &mut self.line);
        self.join(len)
    }

    /// The template of a line whose words (see [`words_of`]) are `words`.
    pub fn id_of_words(&mut self, words: &[Word]) -> u32 {
        self.line[..words.len()].copy_from_slice(words);
        self.join(words.len())
    }

    /// The template of the line whose `len` words are in `self.line`.
    fn join(&mut self, len: usize) -> u32 {
        if self.keys.is_empty() {
            let slots = self.buckets * WAYS;
            self.keys = vec![0; slots];
            self.ids = vec![0; slots];
            self.used = vec![0; slots];
            self.words = vec![[ANY; MAX_WORDS]; slots];
        }
        let words = &self.line;
        // Compared a word at a time: the words were just stored one by one.
        if let (last, last_len, Some(slot)) = &self.last
            && *last_len == len
            && (0..len).all(|i| last[i] == words[i])
        {
            self.clock += 1;
            self.used[*slot] = self.clock;
            return self.ids[*slot];
        }
        let first = words[0];
        // Never 0 (an empty slot): the word count is at least 0 and the tag bit is set.
        let key = (1 << 63) | (len as u64) << 32 | u64::from(first);
        let bucket = (mix(key) as usize) & (self.buckets - 1);
        let ways = bucket * WAYS..bucket * WAYS + WAYS;
        self.clock += 1;
        // The ways whose key agrees, as a mask (one compare each, vectorised).
        let mut agree = 0u64;
        for (j, &k) in self.keys[ways.clone()].iter().enumerate() {
            agree |= u64::from(k == key) << j;
        }
        let mut best: Option<(usize, usize)> = None;
        while agree != 0 {
            let i = ways.start + agree.trailing_zeros() as usize;
            agree &= agree - 1;
            self.comparisons += 1;
            let template = &self.words[i][..len];
            // Twice the similarity: an equal literal word counts whole, a
            // wildcard half (it agrees with anything, so it is weaker
            // evidence of sameness; Drain counts it not at all).
            let same = 2 * template.iter().zip(words).filter(|(t, w)| **t != ANY && t == w).count()
                + template.iter().filter(|t| **t == ANY).count();
            // The oldest template wins a tie, as the first made would.
            if same >= len && best.is_none_or(|(s, b)| same > s || (same == s && self.ids[i] < self.ids[b])) {
                best = Some((same, i));
            }
        }
        if let Some((_, i)) = best {
            for (t, w) in self.words[i][..len].iter_mut().zip(&self.line) {
                if *t != *w {
                    *t = ANY;
                }
            }
            self.used[i] = self.clock;
            self.remember(len, i);
            return self.ids[i];
        }
        self.next_id += 1;
        let mut at =
            ways.clone().min_by_key(|&i| if self.keys[i] == 0 { 0 } else { self.used[i] }).expect("a bucket has ways");
        if self.keys[at] != 0 && self.buckets < self.most_buckets {
            // The bucket is full: twice the buckets rather than a template
            // pushed out (unless its templates all share this key's half).
            self.grow();
            let bucket = (mix(key) as usize) & (self.buckets - 1);
            let ways = bucket * WAYS..bucket * WAYS + WAYS;
            at = ways.min_by_key(|&i| if self.keys[i] == 0 { 0 } else { self.used[i] }).expect("a bucket has ways");
        }
        self.keys[at] = key;
        self.ids[at] = self.next_id;
        self.used[at] = self.clock;
        for (t, w) in self.words[at].iter_mut().zip(&self.line) {
            *t = *w;
        }
        self.remember(len, at);
        self.next_id
    }

    /// Doubles the buckets, every template moved to its new bucket (each old
    /// bucket splits into two, so none overflows). The last line's slot
    /// moves with its template.
    fn grow(&mut self) {
        let buckets = self.buckets * 2;
        let slots = buckets * WAYS;
        let (mut keys, mut ids, mut used) = (vec![0u64; slots], vec![0u32; slots], vec![0u64; slots]);
        let mut words = vec![[ANY; MAX_WORDS]; slots];
        let mut filled = vec![0usize; buckets];
        let mut last = None;
        for i in 0..self.keys.len() {
            if self.keys[i] == 0 {
                continue;
            }
            let bucket = (mix(self.keys[i]) as usize) & (buckets - 1);
            let at = bucket * WAYS + filled[bucket];
            filled[bucket] += 1;
            (keys[at], ids[at], used[at], words[at]) = (self.keys[i], self.ids[i], self.used[i], self.words[i]);
            if self.last.2 == Some(i) {
                last = Some(at);
            }
        }
        (self.keys, self.ids, self.used, self.words, self.buckets) = (keys, ids, used, words, buckets);
        self.last.2 = last;
    }

    /// Keeps the line's words as the last ones read, and the slot they joined.
    fn remember(&mut self, len: usize, slot: usize) {
        for (l, w) in self.last.0[..len].iter_mut().zip(&self.line) {
            *l = *w;
        }
        self.last.1 = len;
        self.last.2 = Some(slot);
    }
}

/// The first [`MAX_WORDS`] words of `view` as templates compare them, into
/// `words`; how many there are.
pub fn words_of(view: &str, words: &mut [Word; MAX_WORDS]) -> usize {
    if view.is_ascii() { ascii_words(view.as_bytes(), words) } else { unicode_words(view, words) }
}

/// The first [`MAX_WORDS`] words of an ASCII view as templates compare
/// them: a wildcard for a word holding a digit, a path separator or a
/// quotation mark, else a hash of the word. The bytes are classified 64 at
/// a time into two masks (white space, variable) by element-wise compares
/// the compiler vectorises; words are read off the masks; each word is
/// hashed from a few 8-byte loads, not byte by byte.
fn ascii_words(view: &[u8], words: &mut [Word; MAX_WORDS]) -> usize {
    let mut len = 0;
    // A word still open at the end of the chunk before: its start, and
    // whether it is variable so far.
    let mut open: Option<(usize, bool)> = None;
    let mut base = 0;
    while base < view.len() && len < MAX_WORDS {
        let n = (view.len() - base).min(64);
        let (spaces, variables) = masks(view, base);
        // Bytes past the view count as space, so a last word ends there.
        let beyond = if n == 64 { 0 } else { u64::MAX << n };
        let space = spaces | beyond;
        let after_space = (space << 1) | u64::from(open.is_none());
        let mut starts = !space & after_space;
        let mut ends = space & !after_space;
        let below = |bits: u32| if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
        if let Some((start, variable)) = open {
            if ends == 0 {
                open = Some((start, variable || variables != 0));
                base += 64;
                continue;
            }
            let e = ends.trailing_zeros();
            ends &= ends - 1;
            let variable = variable || variables & below(e) != 0;
            words[len] = if variable { ANY } else { hash_word(view, start, base + e as usize) };
            len += 1;
            open = None;
        }
        while starts != 0 && len < MAX_WORDS {
            let b = starts.trailing_zeros();
            starts &= starts - 1;
            if ends == 0 {
                open = Some((base + b as usize, variables >> b != 0));
                break;
            }
            let e = ends.trailing_zeros();
            ends &= ends - 1;
            let variable = (variables >> b) & below(e - b) != 0;
            words[len] = if variable { ANY } else { hash_word(view, base + b as usize, base + e as usize) };
            len += 1;
        }
        base += 64;
    }
    if let Some((start, variable)) = open
        && len < MAX_WORDS
    {
        words[len] = if variable { ANY } else { hash_word(view, start, view.len()) };
        len += 1;
    }
    len
}

/// The white-space and variable-byte masks of the (up to) 64 ASCII bytes
/// of `view` from `base` (bit `i` for byte `base + i`): SSE2 compares on
/// x86-64, else (or with the portable paths forced) [`masks_swar`]; the
/// tests hold both to [`masks_by_bytes`](crate::kernels::portable::masks_by_bytes).
#[inline]
fn masks(view: &[u8], base: usize) -> (u64, u64) {
    crate::kernels::word_masks(view, base)
}

/// [`ascii_words`] for a view that is not all ASCII (words split on Unicode white space).
fn unicode_words(view: &str, words: &mut [Word; MAX_WORDS]) -> usize {
    let mut len = 0;
    for w in view.split_whitespace().take(MAX_WORDS) {
        let variable = w.bytes().any(is_variable);
        words[len] = if variable { ANY } else { hash_word(w.as_bytes(), 0, w.len()) };
        len += 1;
    }
    len
}

/// The hash of the word `view[start..end]` from 8-byte loads (two for a
/// word of up to sixteen bytes, one per eight bytes of a longer one),
/// mixed; never the wildcard.
#[inline(always)]
fn hash_word(view: &[u8], start: usize, end: usize) -> Word {
    // Eight bytes from `at`, the bytes from `end` on zeroed.
    let load = |at: usize| {
        let x = match view.get(at..at + 8) {
            Some(eight) => u64::from_le_bytes(eight.try_into().expect("eight bytes")),
            None => {
                let mut b = [0u8; 8];
                let stop = view.len().min(at + 8);
                b[..stop - at].copy_from_slice(&view[at..stop]);
                u64::from_le_bytes(b)
            }
        };
        let keep = end.saturating_sub(at);
        if keep >= 8 { x } else { x & ((1u64 << (8 * keep)) - 1) }
    };
    const K1: u64 = 0x9E37_79B9_7F4A_7C15;
    const K2: u64 = 0xC2B2_AE3D_27D4_EB4F;
    let n = end - start;
    // Independent multiplications for a short word, a chain for a long one.
    let h = if n <= 16 {
        let a = load(start).wrapping_mul(K1);
        let b = if n > 8 { load(end - 8).wrapping_mul(K2) } else { 0 };
        a ^ b.rotate_left(29) ^ n as u64
    } else {
        let mut h = n as u64;
        let mut at = start;
        while at < end {
            h = (h ^ load(at)).wrapping_mul(K1).rotate_left(31);
            at += 8;
        }
        h
    };
    let h = h.wrapping_mul(K2);
    ((h ^ h >> 32) as u32) | 1
}

/// A 64-bit finaliser (splitmix64's).
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests;
