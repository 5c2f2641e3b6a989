//! The outline of one long line of JSON (minified output, `npm view
//! --json` piped, `cargo metadata`): character spans of it kept in place,
//! each dropped stretch an inline chars marker.
//!
//! Every top-level key with the start of its value comes first (the first
//! few in order, the rest spread), then the second level's keys (and the
//! start of each element of a second-level array) as room allows. A kept
//! span ends between tokens, after a string, a number or a bracket; only a
//! string longer than the span's allowance is cut inside, at a code point.
//! One pass over the line finds the members; each span then reads at most
//! its allowance, so the work is linear in the line and the spans.

use crate::markers::{Unit, marker_len};

use super::order::{first_last_then_in, spread_positions};
use super::outline;

/// Code units of a top-level member kept from its key on (key, `:` and the
/// start of its value), at most.
const TOP_SPAN: usize = 72;
/// The same for a second-level member or element.
const INNER_SPAN: usize = 40;
/// The same for an element of a top-level array.
const ELEMENT_SPAN: usize = 256;
/// Spans of each level kept in order before the rest is spread.
const IN_ORDER: usize = 4;
/// Members of the first two levels read at most: a line with more is left
/// to the plain cut of a long line, so the memory stays bounded.
const MAX_MEMBERS: usize = 1 << 16;

/// A member one level in: which top-level member holds it, whether in an object.
#[derive(Clone, Copy, Debug)]
struct Inner {
    holder: usize,
    in_object: bool,
    member: Member,
}

/// A member of an object (from its key) or an element of an array, by its
/// offsets in code units: where it starts, where its value starts, and
/// where it ends (the `,` or closing bracket after it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Member {
    start: usize,
    value: usize,
    end: usize,
}

/// The ranges of `line` (code units, ascending, disjoint) to drop so that
/// what is left, with one inline marker a range, is at most `room` code
/// points, and an upper bound of that size; `None` when not even the
/// brackets and one marker fit, or when `line` is not one JSON object or array.
pub fn plan(line: &[u16], room: usize) -> Option<(Vec<(u32, u32)>, usize)> {
    let (top, inner, close) = members(line)?;
    let mut kept = Spans::new(line.len());
    // The opening bracket and what ends the line (closing bracket, newline).
    let first = line.iter().position(|&u| !is_space(u))?;
    let last = line.iter().rposition(|&u| !is_space(u))?;
    // One value, the whole line.
    if close != last {
        return None;
    }
    if !(kept.try_insert(0, first + 1, room) && kept.try_insert(last, line.len(), room)) {
        return None;
    }
    // The top level: an object's keys, the first few in order, then
    // spread; an array's elements (records alike) from both ends inward,
    // each whole up to a few spans, so kept ones meet and share markers.
    // The level in: each value's first member, then each one's second, and
    // so on (an array's first element only: the others are more of the same).
    let (top_order, top_span): (Vec<Member>, usize) = if line[first] == OPEN_ARRAY {
        (first_last_then_in(0..top.len()).map(|i| top[i]).collect(), ELEMENT_SPAN)
    } else {
        let head = top.len().min(IN_ORDER);
        let rest = &top[head..];
        (top[..head].iter().chain(spread_positions(rest.len()).map(|i| &rest[i])).copied().collect(), TOP_SPAN)
    };
    let inner_order = round_robin(&inner);
    for (level, span) in [(&top_order, top_span), (&inner_order, INNER_SPAN)] {
        for m in level {
            // The rest of this level is no smaller: the next level's spans
            // are, so they may still fit.
            if !kept.try_insert(m.start, span_end(line, *m, span), room) {
                break;
            }
        }
    }
    // Room left: the top-level spans grow in rounds, their allowance
    // doubled each (never past the room), so a value that is one long
    // string shows as much of its start as fits; a round ends at the first
    // span that does not fit.
    let mut span = top_span;
    while span < line.len().min(room) {
        span = span.saturating_mul(2);
        let before = kept.cost();
        for m in &top_order {
            if !kept.try_insert(m.start, span_end(line, *m, span), room) {
                break;
            }
        }
        if kept.cost() == before {
            break;
        }
    }
    // Then what is left, to the first span that can take it.
    for m in &top_order {
        let mut extra = room.saturating_sub(kept.cost());
        if extra == 0 {
            break;
        }
        if kept.covers(m.start, m.end) {
            continue;
        }
        // A few tries: each takes off what the last one overshot.
        let mut taken = false;
        for _ in 0..4 {
            let end = span_end(line, *m, span / 2 + extra);
            let cost = kept.cost_with(m.start, end);
            if cost <= room {
                taken = kept.try_insert(m.start, end, room);
                break;
            }
            extra = extra.saturating_sub(cost - room);
            if extra == 0 {
                break;
            }
        }
        if taken {
            break;
        }
    }
    Some((kept.gaps(), kept.cost()))
}

/// Members of the top-level value (its keys, or its elements) and of the
/// values one level in (their keys, or elements), in order, and where the
/// top-level value closes, from one scan.
fn members(line: &[u16]) -> Option<(Vec<Member>, Vec<Inner>, usize)> {
    let first = line.iter().position(|&u| !is_space(u))?;
    if !matches!(line[first], OPEN_OBJECT | OPEN_ARRAY) {
        return None;
    }
    let (mut top, mut inner): (Vec<Member>, Vec<Inner>) = (Vec::new(), Vec::new());
    // Open containers of the first two levels: whether each is an object,
    // and the member of it being read (its start and value), if any.
    let mut open: Vec<(bool, Option<(usize, usize)>)> = Vec::new();
    let mut depth = 0usize;
    // A member (key or element) may start at the next token.
    let mut expect = false;
    let mut i = first;
    while i < line.len() {
        let u = line[i];
        let at = depth;
        if expect && (1..=2).contains(&at) && !is_space(u) && !matches!(u, CLOSE_OBJECT | CLOSE_ARRAY | COMMA | COLON) {
            let (is_object, member) = &mut open[at - 1];
            // An element's value starts where it does; a key's after its `:`.
            *member = Some((i, if *is_object { usize::MAX } else { i }));
            expect = false;
        }
        match u {
            QUOTE => {
                i = string_end(line, i);
                continue;
            }
            OPEN_OBJECT | OPEN_ARRAY => {
                depth += 1;
                if depth <= 2 {
                    open.push((u == OPEN_OBJECT, None));
                    expect = true;
                }
            }
            CLOSE_OBJECT | CLOSE_ARRAY => {
                // An empty value has no member; what follows is not one.
                expect = false;
                if depth == 0 {
                    return None;
                }
                if depth <= 2 {
                    let (in_object, member) = open.pop()?;
                    if !record(close(member, i), depth, in_object, &mut top, &mut inner) {
                        return None;
                    }
                }
                depth -= 1;
                if depth == 0 {
                    return Some((top, inner, i));
                }
            }
            COLON if (1..=2).contains(&depth) => {
                if let Some((true, Some((_, value)))) = open.get_mut(depth - 1) {
                    let v = line[i + 1..].iter().position(|&u| !is_space(u)).map_or(line.len(), |p| i + 1 + p);
                    *value = v;
                }
            }
            COMMA if (1..=2).contains(&depth) => {
                let in_object = open[depth - 1].0;
                if !record(close(open[depth - 1].1.take(), i), depth, in_object, &mut top, &mut inner) {
                    return None;
                }
                expect = true;
            }
            _ => {}
        }
        i += 1;
    }
    // Not closed: not one value.
    None
}

/// The member being read, ending at `end`, if its value was found.
fn close(member: Option<(usize, usize)>, end: usize) -> Option<Member> {
    let (start, value) = member?;
    (value != usize::MAX).then(|| Member { start, value: value.min(end), end })
}

/// Files a member closed at `depth` (1: top level) of a value that is an
/// object or not; one level in, it is held by the top-level member being read.
/// Returns `false` once more than [`MAX_MEMBERS`] are filed.
fn record(
    closed: Option<Member>,
    depth: usize,
    in_object: bool,
    top: &mut Vec<Member>,
    inner: &mut Vec<Inner>,
) -> bool {
    let Some(member) = closed else { return true };
    if depth == 1 {
        top.push(member);
    } else {
        inner.push(Inner { holder: top.len(), in_object, member });
    }
    top.len() + inner.len() <= MAX_MEMBERS
}

/// The members one level in (each with the top-level member holding it
/// and whether that value is an object), taken holder by holder in turn
/// ([`outline::round_robin`]): every holder's first, then every object's
/// second, and so on (an array's first element only: the others are more
/// of the same).
fn round_robin(inner: &[Inner]) -> Vec<Member> {
    let mut groups: Vec<Vec<u32>> = Vec::new();
    let mut holder = None;
    for (i, m) in inner.iter().enumerate() {
        if holder != Some(m.holder) {
            groups.push(Vec::new());
            holder = Some(m.holder);
        }
        let group = groups.last_mut().expect("pushed");
        if m.in_object || group.is_empty() {
            group.push(i as u32);
        }
    }
    outline::round_robin(&groups, 0).into_iter().map(|i| inner[i as usize].member).collect()
}

/// Where the kept span of `m` ends: its whole self when it fits in `span`
/// code units, else after the last whole token of its value within them
/// (a string longer than that is cut inside, not splitting a pair).
fn span_end(line: &[u16], m: Member, span: usize) -> usize {
    let limit = m.start.saturating_add(span);
    if m.end <= limit {
        return m.end;
    }
    let mut i = m.value;
    let mut boundary = None;
    while i < m.end && i < limit {
        let next = token_end(line, i);
        if next > limit {
            break;
        }
        i = next;
        boundary = Some(i);
    }
    boundary.unwrap_or_else(|| {
        // The value's first token crosses the limit: whole when it ends
        // within twice the span, else (a long string) cut at a code point.
        let first = token_end(line, m.value);
        if first <= m.start.saturating_add(2 * span) {
            return first.min(m.end);
        }
        let cut = limit.min(m.end).max(m.value + 1);
        if (0xDC00..0xE000).contains(&line[cut.min(line.len() - 1)]) { cut - 1 } else { cut }
    })
}

/// The offset after the token at `i`: a string, a number, a literal or one bracket or separator.
fn token_end(line: &[u16], i: usize) -> usize {
    let u = line[i];
    match u {
        QUOTE => string_end(line, i),
        _ if is_number_start(u) => i + line[i..].iter().take_while(|&&u| is_number_part(u)).count(),
        _ if is_letter(u) => i + line[i..].iter().take_while(|&&u| is_letter(u)).count(),
        _ => i + 1,
    }
}

/// The offset after the string that opens at `i` (its closing quote), or
/// the line's end when it is not closed.
fn string_end(line: &[u16], i: usize) -> usize {
    let mut j = i + 1;
    while j < line.len() {
        match line[j] {
            BACKSLASH => j += 2,
            QUOTE => return j + 1,
            _ => j += 1,
        }
    }
    line.len()
}

const QUOTE: u16 = b'"' as u16;
const BACKSLASH: u16 = b'\\' as u16;
const OPEN_OBJECT: u16 = b'{' as u16;
const CLOSE_OBJECT: u16 = b'}' as u16;
const OPEN_ARRAY: u16 = b'[' as u16;
const CLOSE_ARRAY: u16 = b']' as u16;
const COLON: u16 = b':' as u16;
const COMMA: u16 = b',' as u16;

fn is_space(u: u16) -> bool {
    matches!(u, 0x20 | 0x09 | 0x0A | 0x0D)
}

fn is_number_start(u: u16) -> bool {
    u == u16::from(b'-') || (u16::from(b'0')..=u16::from(b'9')).contains(&u)
}

fn is_number_part(u: u16) -> bool {
    is_number_start(u) || matches!(u, 0x2B | 0x2E | 0x45 | 0x65)
}

fn is_letter(u: u16) -> bool {
    (u16::from(b'a')..=u16::from(b'z')).contains(&u)
}

/// Kept ranges of a line of `len` code units, ascending and disjoint, and
/// the size they render to, kept up to date (counted in code units, which
/// is never less than in code points, so it never undercounts).
struct Spans {
    len: usize,
    ranges: Vec<(usize, usize)>,
    cost: usize,
}

/// A dropped stretch of `n` code units: its marker, or itself when not longer.
fn gap_cost(n: usize) -> usize {
    n.min(marker_len(n as u64, Unit::Chars))
}

impl Spans {
    fn new(len: usize) -> Self {
        Spans { len, ranges: Vec::new(), cost: gap_cost(len) }
    }

    /// Keeps `from..to` too, merging what it touches.
    #[cfg(test)]
    fn insert(&mut self, from: usize, to: usize) {
        self.try_insert(from, to, usize::MAX);
    }

    /// The ranges `at..end` that `from..to` touches, the range they merge
    /// into, and the cost with it kept; the cost changes only between the
    /// kept ranges on either side. `None` when `from..to` is empty.
    fn merge(&self, from: usize, to: usize) -> Option<(usize, usize, (usize, usize), usize)> {
        let (mut from, mut to) = (from.min(self.len), to.min(self.len));
        if from >= to {
            return None;
        }
        let at = self.ranges.partition_point(|&(_, e)| e < from);
        let mut end = at;
        while end < self.ranges.len() && self.ranges[end].0 <= to {
            end += 1;
        }
        let left = if at == 0 { 0 } else { self.ranges[at - 1].1 };
        let right = self.ranges.get(end).map_or(self.len, |r| r.0);
        // What lies between `left` and `right` now: the ranges at..end and the gaps around them.
        let mut old = 0;
        let mut cursor = left;
        for &(s, e) in &self.ranges[at..end] {
            old += gap_cost(s - cursor) + (e - s);
            cursor = e;
        }
        old += gap_cost(right - cursor);
        if end > at {
            from = from.min(self.ranges[at].0);
            to = to.max(self.ranges[end - 1].1);
        }
        let new = gap_cost(from - left) + (to - from) + gap_cost(right - to);
        Some((at, end, (from, to), self.cost - old + new))
    }

    /// The cost with `from..to` kept too.
    fn cost_with(&self, from: usize, to: usize) -> usize {
        self.merge(from, to).map_or(self.cost, |(.., cost)| cost)
    }

    /// Keeps `from..to` too if the cost stays within `room`; whether it does.
    fn try_insert(&mut self, from: usize, to: usize, room: usize) -> bool {
        let Some((at, end, range, cost)) = self.merge(from, to) else { return self.cost <= room };
        if cost > room {
            return false;
        }
        self.ranges.splice(at..end, [range]);
        self.cost = cost;
        true
    }

    /// Whether `from..to` is kept whole already.
    fn covers(&self, from: usize, to: usize) -> bool {
        let at = self.ranges.partition_point(|&(_, e)| e < to);
        self.ranges.get(at).is_some_and(|&(s, e)| s <= from && to <= e)
    }

    /// The dropped ranges between the kept ones.
    fn gaps(&self) -> Vec<(u32, u32)> {
        let mut out = Vec::with_capacity(self.ranges.len() + 1);
        let mut at = 0;
        for &(s, e) in &self.ranges {
            if s > at {
                out.push((at as u32, s as u32));
            }
            at = e;
        }
        if at < self.len {
            out.push((at as u32, self.len as u32));
        }
        out
    }

    /// What the line renders to with these ranges kept.
    fn cost(&self) -> usize {
        self.cost
    }
}

#[cfg(test)]
mod tests;
