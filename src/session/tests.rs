use super::memory::{MemBlock, MemEvent, MemoryLog, Rejected};
use super::*;
use crate::config::Budgets;
use crate::strategy::head_tail;
use crate::strategy::lines::{self, LineOptions};
use crate::text::utf16;

fn result(call: &str, text: &str) -> MemEvent {
    MemEvent::ToolResult { call_id: call.into(), content: vec![MemBlock::Text(utf16(text))], replaces: None }
}

fn sample() -> MemoryLog {
    let mut log = MemoryLog::default();
    log.push(MemEvent::Message);
    log.push(MemEvent::LogOnly);
    log.push(result("a", &"x".repeat(200)));
    log.push(result("b", "short"));
    log.push(result("c", &"y".repeat(300)));
    log
}

fn budgets() -> Budgets {
    Budgets::new(100, 20, 10).unwrap()
}

#[test]
fn replaces_each_over_budget_result_after_its_price_event() {
    let mut log = sample();
    let b = budgets();
    let report = prune_session(&mut log, |blocks| head_tail::prune(blocks, &b)).unwrap();
    let seqs: Vec<_> = report.pruned.iter().map(|e| (e.original_seq, e.replacement_seq)).collect();
    assert_eq!(seqs, [(2, 6), (4, 8)]);
    assert_eq!(report.chars_removed, (200 - 69) + (300 - 69));
    assert_eq!(log.events[5], MemEvent::Prune { shadowed: 2, price: 50 + 4 + 8 });
    assert!(matches!(log.events[6], MemEvent::ToolResult { replaces: Some(2), .. }));
    assert_eq!(log.surface, [0, 6, 3, 8]);
    // A second pass finds nothing.
    let again = prune_session(&mut log, |blocks| head_tail::prune(blocks, &b)).unwrap();
    assert!(again.pruned.is_empty());
    assert_eq!(log.events.len(), 9);
}

#[test]
fn a_result_with_a_text_that_is_not_a_string_is_left_and_the_rest_pruned() {
    let mut log = sample();
    let odd = vec![MemBlock::NotText, MemBlock::Text(utf16(&"z".repeat(500)))];
    log.events[2] = MemEvent::ToolResult { call_id: "a".into(), content: odd.clone(), replaces: None };
    let b = budgets();
    let report = prune_session(&mut log, |blocks| head_tail::prune(blocks, &b)).unwrap();
    let seqs: Vec<_> = report.pruned.iter().map(|e| (e.original_seq, e.replacement_seq)).collect();
    assert_eq!(seqs, [(4, 6)]);
    assert!(matches!(&log.events[2], MemEvent::ToolResult { content, .. } if *content == odd));
}

#[test]
fn a_rejected_append_stops_the_pass_and_keeps_earlier_appends() {
    for fail in 0..4 {
        let mut log = sample();
        log.fail_at_append = Some(fail);
        let b = budgets();
        let err = prune_session(&mut log, |blocks| head_tail::prune(blocks, &b)).unwrap_err();
        assert!(matches!(err, Rejected(_)));
        assert_eq!(log.events.len(), 5 + fail, "appends before the failure stay");
    }
}

#[test]
fn retrieve_finds_every_dropped_run_and_nothing_else() {
    let text: String = (0..400).map(|i| format!("step {i} of a long build\n")).collect();
    let mut log = MemoryLog::default();
    log.push(result("a", &text));
    let b = Budgets::new(2000, 0, 0).and_then(|b| b.with_keep(2000)).unwrap();
    let report = prune_session(&mut log, |blocks| lines::prune(blocks, &b, &LineOptions::default())).unwrap();
    let entry = &report.pruned[0];
    assert!(!entry.recoverable.is_empty());
    for (hash, dropped) in &entry.recoverable {
        assert_eq!(retrieve(&mut log, hash).unwrap().as_ref(), Some(dropped));
    }
    assert_eq!(retrieve(&mut log, "0123456789abcdef01234567").unwrap(), None);
}

#[test]
fn a_hash_is_found_bare_or_in_its_marker() {
    let hash = "3beed198ae3c33ef1574f2c4";
    assert_eq!(find_hash(&utf16(hash)).as_deref(), Some(hash));
    assert_eq!(find_hash(&utf16(&format_marker(hash, 55, Unit::Lines))).as_deref(), Some(hash));
    assert_eq!(find_hash(&utf16(&format!("{hash}ff"))).as_deref(), Some(hash), "the first 24 digits");
    assert_eq!(find_hash(&utf16(&hash.to_uppercase())), None);
    assert_eq!(find_hash(&utf16(&hash[1..])), None);
    let head = String::from_utf16_lossy(&marker_head(hash));
    assert!(head.ends_with(&format!("{hash} ")) && format_marker(hash, 7, Unit::Chars).starts_with(&head));
}

#[test]
fn retrieve_answers_only_for_its_own_replacements_still_on_the_surface() {
    let text: String = (0..400).map(|i| format!("step {i} of a long build\n")).collect();
    let b = Budgets::new(2000, 0, 0).and_then(|b| b.with_keep(2000)).unwrap();
    let prune = |blocks: &[Block<'_>]| lines::prune(blocks, &b, &LineOptions::default());
    let pruned_log = || {
        let mut log = MemoryLog::default();
        log.push(result("a", &text));
        let report = prune_session(&mut log, prune).unwrap();
        let (hash, dropped) = report.pruned[0].recoverable.iter().next().map(|(h, d)| (h.clone(), d.clone())).unwrap();
        (log, report.pruned[0].replacement_seq, hash, dropped)
    };
    // Ours, on the surface: answered.
    let (mut log, _, hash, dropped) = pruned_log();
    assert_eq!(retrieve(&mut log, &hash).unwrap(), Some(dropped));
    // The same replacement appended by someone else, with no prune event before it.
    let (mut log, replacement, hash, _) = pruned_log();
    let copy = log.events[replacement as usize].clone();
    log.events.truncate(replacement as usize - 1);
    log.surface = vec![log.push(copy)];
    assert_eq!(retrieve(&mut log, &hash).unwrap(), None);
    // A prune event that shadows another result.
    let (mut log, replacement, hash, _) = pruned_log();
    log.events[replacement as usize - 1] = MemEvent::Prune { shadowed: 7, price: 1 };
    assert_eq!(retrieve(&mut log, &hash).unwrap(), None);
    // A later rewrite (a redaction) replaced ours on the surface.
    let (mut log, replacement, hash, _) = pruned_log();
    let redacted = log.push(MemEvent::ToolResult { call_id: "a".into(), content: vec![], replaces: Some(replacement) });
    log.surface = vec![redacted];
    assert_eq!(retrieve(&mut log, &hash).unwrap(), None);
}
