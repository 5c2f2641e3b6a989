use super::*;

#[test]
fn orders_cover_every_item_once() {
    let xs: Vec<usize> = (0..37).collect();
    for order in [spread(&xs), first_last_then_in(0..37).collect(), ends_inward(&xs).into_iter().copied().collect()] {
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, xs);
    }
    assert_eq!(&spread(&xs)[..3], [0, 36, 18]);
    assert_eq!(first_last_then_in(0..37).take(3).collect::<Vec<_>>(), [0, 36, 1]);
    assert_eq!(ends_inward(&xs)[..3], [&36, &0, &35]);
}

/// The reference: a breadth-first walk of the halving with a queue.
fn spread_by_queue(xs: &[usize]) -> Vec<usize> {
    if xs.len() <= 2 {
        return xs.to_vec();
    }
    let mut out = vec![xs[0], xs[xs.len() - 1]];
    let mut queue = std::collections::VecDeque::from([(0usize, xs.len() - 1)]);
    while let Some((a, b)) = queue.pop_front() {
        if b - a < 2 {
            continue;
        }
        let m = (a + b) / 2;
        out.push(xs[m]);
        queue.push_back((a, m));
        queue.push_back((m, b));
    }
    out
}

#[test]
fn spread_walks_levels_as_a_queue_would() {
    for len in 0..300 {
        let xs: Vec<usize> = (0..len).map(|i| i * 3).collect();
        assert_eq!(spread(&xs), spread_by_queue(&xs), "len {len}");
    }
}
