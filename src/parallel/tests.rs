use super::*;

#[test]
fn items_are_consumed_in_order_whoever_makes_them() {
    for n in [0, 1, 2, 3, 17, 200] {
        let mut seen = Vec::new();
        let mut mine = 0usize;
        ordered(
            n,
            3,
            &mut mine,
            || Box::new(0usize),
            |count, k| {
                *count += 1;
                k * k
            },
            |k, item| {
                assert_eq!(item, k * k);
                seen.push(k);
            },
        );
        assert_eq!(seen, (0..n).collect::<Vec<_>>());
    }
}
