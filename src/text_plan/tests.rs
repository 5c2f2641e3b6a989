use super::*;
use crate::config::Budgets;
use crate::markers::expand;
use crate::strategy::lines::LineOptions;
use crate::text::utf16;

#[test]
fn a_plan_undoes_to_the_text_and_a_short_text_stays() {
    let text = utf16(&(0..400).map(|i| format!("step {i} of the build\n")).collect::<String>());
    let budgets = Budgets::new(2000, 500, 200).unwrap();
    let lines = Pruner { budgets, strategy: Strategy::Lines(LineOptions::default()) };
    let plan = plan_text(&lines, &text, &[], None, &Task::default());
    let content = plan.content.as_deref().expect("over the threshold");
    assert!(plan.dropped_lines > 0 && !plan.recoverable.is_empty());
    assert_eq!(expand(content, &plan.recoverable), text);
    assert_eq!(plan.kinds, [Kind::Log]);
    let short = plan_text(&lines, &utf16("short\n"), &[], None, &Task::default());
    assert_eq!(
        short,
        TextPlan {
            content: None,
            recoverable: BTreeMap::new(),
            dropped_lines: 0,
            kinds: vec![Kind::Log],
            kind_from: None
        }
    );
    let head_tail = plan_text(&Pruner { budgets, strategy: Strategy::HeadTail }, &text, &[], None, &Task::default());
    assert!(head_tail.recoverable.is_empty() && head_tail.content.is_some());
}
