use super::*;

#[test]
fn the_list_is_the_cores() {
    let ours = STRATEGIES.map(|s| s as usize);
    let core = config::StrategyName::ALL.map(|s| StrategyName::from(s) as usize);
    assert_eq!(ours, core);
}
