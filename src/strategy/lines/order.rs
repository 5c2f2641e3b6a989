//! Orders in which candidate lines are offered to the keep-set, so that a
//! budget too small for all of them still covers the whole output.

/// The items of `xs` from both ends inward: last, first, second to last,
/// second, and so on.
pub fn ends_inward<T>(xs: &[T]) -> Vec<&T> {
    let mut out = Vec::with_capacity(xs.len());
    let (mut i, mut j) = (0, xs.len());
    while i < j {
        j -= 1;
        out.push(&xs[j]);
        if i < j {
            out.push(&xs[i]);
            i += 1;
        }
    }
    out
}

/// The positions of `range` from both ends inward: first, last, second,
/// second to last, and so on, one at a time.
pub fn first_last_then_in(range: std::ops::Range<usize>) -> impl Iterator<Item = usize> {
    let (mut i, mut j) = (range.start, range.end);
    let mut front = true;
    std::iter::from_fn(move || {
        if i >= j {
            return None;
        }
        let at = if front {
            i += 1;
            i - 1
        } else {
            j -= 1;
            j
        };
        front = !front;
        Some(at)
    })
}

/// `xs` (ascending) reordered so any prefix is spread over the whole range:
/// the first and last, then the middle, then the quarters, and so on.
pub fn spread(xs: &[usize]) -> Vec<usize> {
    spread_positions(xs.len()).map(|i| xs[i]).collect()
}

/// The positions `0..len` with the first `head` in order, then the rest in
/// [`spread`]'s order: an outline tier as the plan offers it.
pub fn head_then_spread(len: usize, head: usize) -> impl Iterator<Item = usize> {
    let head = head.min(len);
    (0..head).chain(spread_positions(len - head).map(move |i| head + i))
}

/// The positions `0..len` in [`spread`]'s order, one at a time: the ends,
/// then the midpoint of every interval of the level before, left to right.
/// Each level is walked from the top again, so the state is one path down
/// the halving (a few dozen entries) and the whole walk is linear.
pub fn spread_positions(len: usize) -> impl Iterator<Item = usize> {
    let ends = match len {
        0 => vec![],
        1 => vec![0],
        _ => vec![0, len - 1],
    };
    let mut level = 0usize;
    // The intervals still to visit at depth `level`, as a stack of (a, b, depth).
    let mut stack: Vec<(usize, usize, usize)> = if len > 2 { vec![(0, len - 1, 0)] } else { vec![] };
    let mut found_at_level = false;
    ends.into_iter().chain(std::iter::from_fn(move || {
        loop {
            let Some((a, b, depth)) = stack.pop() else {
                if !found_at_level || len <= 2 {
                    return None;
                }
                // The next level, from the top.
                level += 1;
                found_at_level = false;
                stack.push((0, len - 1, 0));
                continue;
            };
            if b - a < 2 {
                continue;
            }
            let m = (a + b) / 2;
            if depth == level {
                found_at_level = true;
                return Some(m);
            }
            // Right pushed first, so the left is visited first.
            stack.push((m, b, depth + 1));
            stack.push((a, m, depth + 1));
        }
    }))
}

#[cfg(test)]
mod tests;
