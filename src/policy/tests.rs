use super::*;
use crate::config::Budgets;
use crate::content::Block;
use crate::session::memory::{MemBlock, MemEvent, MemoryLog, Rejected};
use crate::session::prune_session;
use crate::strategy::lines::LineOptions;
use crate::text::utf16;

const P: fn(u64, u64) -> Option<Pressure> =
    |total, threshold| Some(Pressure { total_tokens: total, threshold_tokens: threshold });

#[test]
fn without_a_window_or_a_reading_every_candidate_is_pruned() {
    let prices = [(100, 10), (200, 20), (300, 30)];
    assert_eq!(select(&prices, 0, &[], None, P(1000, 500)), [true; 3]);
    assert_eq!(select(&prices, 0, &[], Some(1000), None), [true; 3]);
    // Called under the threshold: the host has another reason (an overflow).
    assert_eq!(select(&prices, 0, &[], Some(1000), P(499, 500)), [true; 3]);
    assert_eq!(select(&[], 0, &[], Some(1000), P(1000, 500)), Vec::<bool>::new());
}

#[test]
fn the_newest_stay_whole_while_the_older_relieve_the_pressure() {
    let prices = [(100, 10), (200, 20), (300, 30)];
    // Pruning the oldest saves 90: 1000 - 90 < 950.
    assert_eq!(select(&prices, 0, &[], Some(500), P(1000, 950)), [true, false, false]);
    // The window holds the newest two (500), not three (600).
    assert_eq!(select(&prices, 0, &[], Some(599), P(1000, 999)), [true, false, false]);
    // A newest result larger than the window is not kept, nor anything older.
    assert_eq!(select(&prices, 0, &[], Some(299), P(1000, 999)), [true; 3]);
}

#[test]
fn when_the_older_do_not_suffice_the_recent_are_pruned_newest_last() {
    let prices = [(100, 10), (200, 20), (300, 30)];
    // 1000 - 90 = 910 is not under 900: the second is pruned too (910 - 180 = 730).
    assert_eq!(select(&prices, 0, &[], Some(500), P(1000, 900)), [true, true, false]);
    // 730 is not under 700 either: all three go (460 < 700).
    assert_eq!(select(&prices, 0, &[], Some(500), P(1000, 700)), [true; 3]);
    // Not even all of them bring it under (460 >= 460): the host summarises
    // whatever the pass does, so the recent ones stay whole.
    assert_eq!(select(&prices, 0, &[], Some(500), P(1000, 460)), [true, false, false]);
    assert_eq!(select(&prices, 0, &[], Some(500), P(1000, 100)), [true, false, false]);
    assert_eq!(select(&prices, 0, &[], Some(500), P(1000, 461)), [true; 3]);
    // Exactly at the threshold is still pressure (the host compacts at >=).
    assert_eq!(select(&prices, 0, &[], Some(500), P(1090, 1000)), [true, true, false]);
}

#[test]
fn a_result_the_model_has_read_is_not_kept_as_recent() {
    let prices = [(100, 10), (200, 20), (300, 30)];
    // All three unread and fitting: the oldest relieves the pressure.
    assert_eq!(select(&prices, 0, &[], Some(1000), P(1000, 950)), [true, false, false]);
    // The second was read: only the newest stays whole.
    assert_eq!(select(&prices, 2, &[], Some(1000), P(1000, 950)), [true, true, false]);
    // Every one read: pruned as upstream prunes them.
    assert_eq!(select(&prices, 3, &[], Some(1000), P(1000, 950)), [true; 3]);
}

#[test]
fn rules_by_tool_and_retrieval_never() {
    let lines = Pruner { budgets: Budgets::default(), strategy: Strategy::Lines(LineOptions::default()) };
    let policy = Policy {
        default: Pruner::default(),
        tools: vec![
            (utf16("read"), Rule::Keep),
            (utf16("bash"), Rule::Prune(lines)),
            (utf16(RETRIEVE_TOOL), Rule::Prune(lines)),
        ],
        recent_tokens: None,
        read_keep: None,
    };
    assert_eq!(policy.rule(Some(&utf16("read"))), Rule::Keep);
    assert_eq!(policy.rule(Some(&utf16("bash"))), Rule::Prune(lines));
    assert_eq!(policy.rule(Some(&utf16("grep"))), Rule::Prune(Pruner::default()));
    assert_eq!(policy.rule(None), Rule::Prune(Pruner::default()));
    // Not even a rule of its own prunes the retrieval tool's pages.
    assert_eq!(policy.rule(Some(&utf16(RETRIEVE_TOOL))), Rule::Keep);
}

/// A [`MemoryLog`] with the calls behind its results, priced as the meter prices text.
struct WithCalls {
    log: MemoryLog,
    calls: Vec<(String, Call)>,
}

fn price(blocks: &[Block<'_>]) -> u64 {
    blocks.iter().map(|b| if let Block::Text(t) = b { (t.len() as u64).div_ceil(4) + 4 } else { 4 }).sum::<u64>() + 8
}

impl PruneLog for WithCalls {
    type Content = Vec<MemBlock>;
    type Error = Rejected;
    fn surface(&mut self) -> Result<Vec<Seq>, Rejected> {
        PruneLog::surface(&mut self.log)
    }
    fn is_tool_result(&mut self, seq: Seq) -> Result<bool, Rejected> {
        self.log.is_tool_result(seq)
    }
    fn content(&mut self, seq: Seq) -> Result<Option<Vec<MemBlock>>, Rejected> {
        self.log.content(seq)
    }
    fn replace(&mut self, seq: Seq, content: &Vec<MemBlock>, pruned: &Pruned) -> Result<Seq, Rejected> {
        self.log.replace(seq, content, pruned)
    }
}

impl CallLog for WithCalls {
    fn call(&mut self, seq: Seq, _: &Vec<MemBlock>) -> Result<Option<Call>, Rejected> {
        let Some(MemEvent::ToolResult { call_id, .. }) = self.log.events.get(seq as usize) else { return Ok(None) };
        Ok(self.calls.iter().find(|(id, _)| id == call_id).map(|(_, c)| c.clone()))
    }
    fn is_reply(&mut self, seq: Seq) -> Result<bool, Rejected> {
        Ok(matches!(self.log.events.get(seq as usize), Some(MemEvent::Reply)))
    }
    fn price(&mut self, content: &Vec<MemBlock>, pruned: Option<&Pruned>) -> Result<u64, Rejected> {
        let blocks = content.blocks();
        Ok(match pruned {
            None => price(&blocks),
            Some(p) => {
                let texts: Vec<Vec<u16>> = crate::content::render_texts(&blocks, p).map(|t| t.to_vec()).collect();
                price(&texts.iter().map(|t| Block::Text(t)).collect::<Vec<_>>())
            }
        })
    }
}

fn session(outputs: &[(&str, &str, String)]) -> WithCalls {
    let mut log = MemoryLog::default();
    let mut calls = Vec::new();
    log.push(MemEvent::Message);
    for (i, (tool, args, output)) in outputs.iter().enumerate() {
        let id = format!("call-{i}");
        calls.push((id.clone(), Call { tool: utf16(tool), args: utf16(args) }));
        log.push(MemEvent::ToolResult { call_id: id, content: vec![MemBlock::Text(utf16(output))], replaces: None });
    }
    WithCalls { log, calls }
}

fn diff(files: usize) -> String {
    (0..files)
        .map(|f| {
            format!(
                "diff --git a/f{f}.rs b/f{f}.rs\n--- a/f{f}.rs\n+++ b/f{f}.rs\n@@ -1,40 +1,40 @@\n{}",
                (0..40).map(|l| format!("-old line {l} of file {f}\n+new line {l} of file {f}\n")).collect::<String>()
            )
        })
        .collect()
}

#[test]
fn a_pass_follows_the_rules_names_kinds_and_keeps_the_newest() {
    let log_text: String = (0..600).map(|i| format!("step {i}: compiling module number {i}\n")).collect();
    let outputs = [
        ("bash", r#"{"command":"cargo build"}"#, log_text.clone()),
        ("read", r#"{"file_path":"src/lib.rs"}"#, log_text.clone()),
        ("bash", r#"{"command":"git diff"}"#, diff(12)),
        (RETRIEVE_TOOL, r#"{"hash":"0123"}"#, log_text.clone()),
        ("bash", r#"{"command":"cargo test"}"#, log_text.clone()),
    ];
    let lines = Pruner { budgets: Budgets::default(), strategy: Strategy::Lines(LineOptions::default()) };
    let policy =
        Policy { default: lines, tools: vec![(utf16("read"), Rule::Keep)], recent_tokens: Some(7000), read_keep: None };
    let mut s = session(&outputs);
    // Under pressure that the older two bash results relieve.
    let report = prune_session_with_policy(&mut s, &policy, P(30_000, 29_000)).unwrap();
    let pruned: Vec<Seq> = report.pruned.iter().map(|e| e.original_seq).collect();
    assert_eq!(pruned, [1, 3], "read is never pruned, retrieval pages neither, the newest stays whole");
    assert_eq!(report.kept_recent, [5]);
    let diff_entry = &report.pruned[1];
    let (kinds, named) = diff_entry.kinds.clone().unwrap();
    assert_eq!(kinds, [Kind::Diff]);
    assert_eq!(named.unwrap().reason, "bash `git diff`");
    assert!(report.pruned[0].kinds.as_ref().unwrap().1.is_some(), "cargo build names a log");
    for e in &report.pruned {
        assert!(e.tokens_after < e.tokens_before);
        assert_eq!(e.tokens_before, (e.chars_before).div_ceil(4) + 12, "ASCII: code points are UTF-16 units");
    }
    // With no pressure reading the newest is pruned too, as upstream would.
    let mut s = session(&outputs);
    let report = prune_session_with_policy(&mut s, &policy, None).unwrap();
    assert_eq!(report.pruned.iter().map(|e| e.original_seq).collect::<Vec<_>>(), [1, 3, 5]);
}

#[test]
fn a_reply_of_the_model_marks_the_results_before_it_read() {
    let log_text: String = (0..600).map(|i| format!("step {i}: compiling module number {i}\n")).collect();
    let lines = Pruner { budgets: Budgets::default(), strategy: Strategy::Lines(LineOptions::default()) };
    let policy = Policy { default: lines, tools: Vec::new(), recent_tokens: Some(100_000), read_keep: None };
    // Three results; `replies_after` of them are followed by a reply.
    let build = |replies_after: usize| {
        let mut log = MemoryLog::default();
        let mut calls = Vec::new();
        log.push(MemEvent::Message);
        for i in 0..3 {
            let id = format!("call-{i}");
            calls.push((id.clone(), Call { tool: utf16("bash"), args: utf16(&format!(r#"{{"command":"run {i}"}}"#)) }));
            log.push(MemEvent::ToolResult {
                call_id: id,
                content: vec![MemBlock::Text(utf16(&log_text))],
                replaces: None,
            });
            if i + 1 == replies_after {
                log.push(MemEvent::Reply);
            }
        }
        WithCalls { log, calls }
    };
    let pruned = |replies_after: usize| {
        let report = prune_session_with_policy(&mut build(replies_after), &policy, P(30_000, 29_000)).unwrap();
        report.pruned.iter().map(|e| e.original_seq).collect::<Vec<_>>()
    };
    // Pruning the oldest relieves the pressure. All unread: only it goes.
    assert_eq!(pruned(0), [1]);
    // The first two read (a reply after the second): both go, as upstream's
    // pass would prune them; the unread newest stays whole.
    assert_eq!(pruned(2), [1, 2]);
    // All read: all go.
    assert_eq!(pruned(3), [1, 2, 3]);
}

#[test]
fn the_default_policy_prunes_what_upstream_prunes_with_the_same_events() {
    let long: String = (0..400).map(|i| format!("line {i} of output\n")).collect();
    let outputs = [("bash", "{}", long.clone()), ("read", "{}", "short".into()), ("bash", "{}", long)];
    let mut a = session(&outputs);
    let mut b = session(&outputs);
    let budgets = Budgets::new(1000, 400, 100).unwrap();
    let pruner = Pruner { budgets, strategy: Strategy::HeadTail };
    let plain = prune_session(&mut a.log, |blocks| pruner.prune(blocks)).unwrap();
    let policy = Policy { default: pruner, ..Policy::default() };
    let with = prune_session_with_policy(&mut b, &policy, P(10, 5)).unwrap();
    assert_eq!(a.log.events, b.log.events);
    assert_eq!(plain.chars_removed, with.chars_removed);
    assert_eq!(with.pruned.len(), 2);
}

#[test]
fn a_rejected_append_stops_a_policy_pass() {
    let long: String = (0..400).map(|i| format!("line {i} of output\n")).collect();
    let outputs = [("bash", "{}", long.clone()), ("bash", "{}", long)];
    let policy = Policy {
        default: Pruner { budgets: Budgets::new(1000, 400, 100).unwrap(), strategy: Strategy::HeadTail },
        ..Policy::default()
    };
    let mut s = session(&outputs);
    s.log.fail_at_append = Some(2);
    assert!(prune_session_with_policy(&mut s, &policy, None).is_err());
    assert_eq!(s.log.events.len(), 3 + 2, "the first pair landed and stays");
}

#[test]
fn an_unread_run_superseded_by_a_later_one_is_pruned_before_anything_else() {
    let prices = [(100, 10), (200, 20), (300, 30)];
    // All unread; the first two fit in the window with the newest, but the
    // second is an earlier run of the newest's call: it goes, and the oldest stays.
    assert_eq!(select(&prices, 0, &[false, true, false], Some(600), P(1000, 999)), [false, true, false]);
    // Without the mark, the oldest relieves the pressure, the second stays.
    assert_eq!(select(&prices, 0, &[false, false, false], Some(600), P(1000, 999)), [true, false, false]);
    // A superseded one takes no room in the window: the oldest is kept in its place.
    assert_eq!(select(&prices, 0, &[false, true, false], Some(400), P(1000, 999)), [false, true, false]);
    // Read ones are pruned whatever the mark.
    assert_eq!(select(&prices, 3, &[true, true, false], Some(600), P(1000, 999)), [true; 3]);
}

#[test]
fn a_pass_finds_the_superseded_runs_by_their_call() {
    let log_text: String = (0..600).map(|i| format!("step {i}: compiling module number {i}\n")).collect();
    let outputs = [
        ("bash", r#"{"command":"cargo build"}"#, log_text.clone()),
        ("bash", r#"{"command":"cargo test"}"#, log_text.clone()),
        ("bash", r#"{"command":"cargo test"}"#, "ok\n".to_string()),
        ("bash", r#"{"command":"make"}"#, log_text.clone()),
    ];
    let lines = Pruner { budgets: Budgets::default(), strategy: Strategy::Lines(LineOptions::default()) };
    let policy = Policy { default: lines, tools: Vec::new(), recent_tokens: Some(100_000), read_keep: None };
    // All unread; pruning one of the three large ones relieves the pressure:
    // the first `cargo test`, which the later (small) run of it supersedes,
    // not the oldest.
    let mut s = session(&outputs);
    let report = prune_session_with_policy(&mut s, &policy, P(20_000, 19_999)).unwrap();
    assert_eq!(report.pruned.iter().map(|e| e.original_seq).collect::<Vec<_>>(), [2]);
    assert_eq!(report.kept_recent, [1, 4]);
    // With the later run's arguments changed nothing supersedes: the oldest goes.
    let mut outputs = outputs;
    outputs[2].1 = r#"{"command":"cargo test --release"}"#;
    let mut s = session(&outputs);
    let report = prune_session_with_policy(&mut s, &policy, P(20_000, 19_999)).unwrap();
    assert_eq!(report.pruned.iter().map(|e| e.original_seq).collect::<Vec<_>>(), [1]);
    assert_eq!(report.kept_recent, [2, 4]);
}

/// A build log of 600 steps with a compiler error every 97 lines.
fn build_log_with_errors() -> String {
    (0..600)
        .map(|i| {
            if i % 97 == 50 {
                format!("error[E0{i}]: mismatched types at step {i}\n")
            } else {
                format!("step {i}: compiling module number {i}\n")
            }
        })
        .collect()
}

/// Two results of distinct calls printing `log_text`, and a reply after
/// the first: it was read, the second not.
fn read_then_unread(log_text: &str) -> WithCalls {
    let mut s = session(&[
        ("bash", r#"{"command":"cargo build"}"#, log_text.to_owned()),
        ("bash", r#"{"command":"cargo test"}"#, log_text.to_owned()),
    ]);
    s.log.events.insert(2, MemEvent::Reply);
    s.log.surface = (0..s.log.events.len() as Seq).collect();
    s
}

/// The text of the one-text result at `seq`.
fn text_of(s: &WithCalls, seq: Seq) -> String {
    match &s.log.events[seq as usize] {
        MemEvent::ToolResult { content, .. } => match &content[..] {
            [MemBlock::Text(t)] => String::from_utf16(t).unwrap(),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_read_result_keeps_the_head_the_cache_holds_and_an_unread_one_the_plain_plan() {
    let log_text = build_log_with_errors();
    let lines = Pruner { budgets: Budgets::default(), strategy: Strategy::Lines(LineOptions::default()) };
    let head = usize::try_from(lines.budgets.head_tail_within_keep().head()).unwrap();
    let build = || read_then_unread(&log_text);
    let mut s = build();
    let with = Policy { default: lines, tools: Vec::new(), recent_tokens: Some(0), read_keep: None };
    let report = prune_session_with_policy(&mut s, &with, P(100_000, 1)).unwrap();
    assert_eq!(report.pruned.iter().map(|e| e.original_seq).collect::<Vec<_>>(), [1, 3]);
    let (read, unread) = (text_of(&s, report.pruned[0].replacement_seq), text_of(&s, report.pruned[1].replacement_seq));
    // The read one starts as the original did, for most of the head (the
    // plan may give the last head lines' room to the failures and the tail).
    let shared = |a: &str| a.bytes().zip(log_text.bytes()).take_while(|(x, y)| x == y).count();
    assert!(shared(&read) >= head * 3 / 4, "{} of {head}", shared(&read));
    assert!(read.contains("error[E0535]"), "the plan still picks the failures after the head");
    // The unread one, never sent, is the plain plan: the same as without a window.
    let mut plain = build();
    let without = Policy { default: lines, tools: Vec::new(), recent_tokens: None, read_keep: None };
    let report = prune_session_with_policy(&mut plain, &without, None).unwrap();
    assert_eq!(unread, text_of(&plain, report.pruned[1].replacement_seq));
    let plain_read = text_of(&plain, report.pruned[0].replacement_seq);
    assert!(shared(&plain_read) * 2 < shared(&read), "the plain plan drops an early line: {}", shared(&plain_read));
}

#[test]
fn a_read_result_is_cut_to_the_read_budget_and_an_unread_one_to_its_rule() {
    let log_text = build_log_with_errors();
    let lines = Pruner { budgets: Budgets::default(), strategy: Strategy::Lines(LineOptions::default()) };
    let build = || read_then_unread(&log_text);
    let pass = |recent_tokens, read_keep| {
        let mut s = build();
        let policy = Policy { default: lines, tools: Vec::new(), recent_tokens, read_keep };
        let report = prune_session_with_policy(&mut s, &policy, P(100_000, 1)).unwrap();
        assert_eq!(report.pruned.iter().map(|e| e.original_seq).collect::<Vec<_>>(), [1, 3]);
        (report.pruned.iter().map(|e| e.chars_after).collect::<Vec<_>>(), s.log.events)
    };
    let rule = lines.budgets.keep();
    let (rules, rule_events) = pass(Some(0), None);
    let (short, short_events) = pass(Some(0), Some(1200));
    assert!(rules[0] > 1200 && rules[0] <= rule, "{rules:?}");
    assert!(short[0] <= 1200, "the read one within the read budget: {short:?}");
    assert_eq!(short[1], rules[1], "the unread one by its rule");
    assert!(short_events.last() == rule_events.last(), "the unread one's replacement is the same");
    // A read budget over the rule's is the rule's; without a recent window
    // nothing is known read, and the budget is never used.
    assert!(pass(Some(0), Some(u64::MAX)).1 == rule_events);
    assert!(pass(None, Some(1200)).1 == pass(None, None).1);
}
