use super::*;

use crate::signals::LineSignal;

/// How a default lines-mode pruner is explained.
fn lines_mode() -> Explaining {
    Explaining::of(
        &Pruner { budgets: Budgets::default(), strategy: Strategy::Lines(LineOptions::default()) },
        None,
        &Task::default(),
    )
}

fn line(signal: LineSignal, flood: bool, reason: Option<Reason>) -> Explained {
    Explained { signal, fate: Fate::Drop, reason, flood, kind: Kind::Log, task_words: 0 }
}

/// A signal with `failure` and `frame` set and the flags `set` turns on.
fn signal(failure: Failure, frame: Frame, set: &[fn(&mut LineSignal, bool)]) -> LineSignal {
    let mut s = LineSignal::default();
    s.failure = failure;
    s.frame = frame;
    for f in set {
        f(&mut s, true);
    }
    s
}

#[test]
fn the_strongest_signal_names_the_line() {
    let all: &[fn(&mut LineSignal, bool)] = &[LineSignal::set_summary, LineSignal::set_cause];
    let s = signal(Failure::Strong, Frame::Project, all);
    assert_eq!(class_of(&line(s, true, None)), Class::Flood, "a repeat is a flood whatever it says");
    assert_eq!(class_of(&line(s, false, None)), Class::Failure);
    let mut pass = s;
    pass.set_pass(true);
    assert_eq!(class_of(&line(pass, false, None)), Class::Pass, "a pass verdict is never failure signal");
    assert_eq!(class_of(&line(signal(Failure::Weak, Frame::Project, all), false, None)), Class::Weak);
    assert_eq!(class_of(&line(signal(Failure::None, Frame::Project, all), false, None)), Class::Summary);
    let frame_and_cause = signal(Failure::None, Frame::Library, &[LineSignal::set_cause]);
    assert_eq!(class_of(&line(frame_and_cause, false, None)), Class::Frame);
    let cause = signal(Failure::None, Frame::None, &[LineSignal::set_cause]);
    assert_eq!(class_of(&line(cause, false, None)), Class::Cause);
    assert_eq!(class_of(&line(LineSignal::default(), false, None)), Class::Plain);
}

#[test]
fn a_dropped_line_with_signal_had_no_room() {
    let failure = signal(Failure::Strong, Frame::None, &[]);
    let pass = signal(Failure::None, Frame::None, &[LineSignal::set_pass]);
    assert_eq!(why(&line(failure, false, Some(Reason::Outline))), Why::Kept(Reason::Outline));
    assert_eq!(why(&line(failure, false, None)), Why::NoRoom);
    assert_eq!(why(&line(pass, false, None)), Why::Nothing);
    assert_eq!(why(&line(LineSignal::default(), false, None)), Why::Nothing);
}

#[test]
fn head_tail_pruners_explain_what_head_tail_keeps() {
    let text = utf16(&(0..400).map(|i| format!("step {i}\n")).collect::<String>());
    let budgets = Budgets::new(1000, 400, 100).unwrap();
    let head_tail = Pruner { budgets, strategy: Strategy::HeadTail };
    let lines = Pruner { budgets, strategy: Strategy::Lines(LineOptions::default()) };
    let (ht, ln) = (
        explain_text(&head_tail, &text, None, &Task::default()).unwrap(),
        explain_text(&lines, &text, None, &Task::default()).unwrap(),
    );
    // The same reading of each line, head/tail's fate: kept within the
    // first 400 or the last 100 code points, cut across an edge.
    let total = code_point_len(&text);
    let mut at = 0;
    for (k, (h, l)) in ht.iter().zip(&ln).enumerate() {
        assert_eq!((h.signal, h.kind), (l.signal, l.kind));
        let end = at + format!("step {k}\n").len();
        let expected = if end <= 400 || at >= total - 100 {
            "keep"
        } else if at < 400 || end > total - 100 {
            "cut"
        } else {
            "drop"
        };
        assert_eq!(words(h)[1], expected, "line {k}");
        at = end;
    }
    assert_ne!(ht, ln, "lines mode's own plan differs");
    assert_eq!(explain_text(&head_tail, &utf16("short\n"), None, &Task::default()), None);
}

#[test]
fn rows_number_each_line_and_come_in_bounded_chunks() {
    let mut text = utf16(&"a line of a log\n".repeat(20_000));
    text.extend(utf16("error: it failed\n"));
    text.extend(utf16(&format!("{}😀tail\n", "x".repeat(ROW_LINE_UNITS - 4))));
    let (mut out, mut chunks) = (Vec::new(), 0);
    let kind = rows(&text, &Budgets::default(), &lines_mode(), |c| {
        assert!(c.len() < CHUNK_UNITS + 512, "a chunk of {} units", c.len());
        chunks += 1;
        out.extend_from_slice(c);
        Ok::<(), ()>(())
    });
    assert_eq!(kind, Ok(Some(Kind::Log)));
    let out = String::from_utf16(&out).expect("no pair is cut");
    let printed: Vec<&str> = out.lines().collect();
    assert_eq!(printed.len(), 20_002);
    assert!(chunks > 1);
    assert!(printed[0].starts_with("    1  keep  start     -        a line of a log"), "{}", printed[0]);
    let failure = printed[20_000];
    assert!(failure.starts_with("20001  keep  ") && failure.ends_with("  failure  error: it failed"), "{failure}");
    // Cut before the pair it would split: 156 units, then `...`.
    let long = printed[20_001];
    assert!(long.ends_with(&format!("{}...", "x".repeat(ROW_LINE_UNITS - 4))), "{long}");
    let short = utf16("short\n");
    assert_eq!(rows(&short, &Budgets::default(), &lines_mode(), |_| Err(())), Ok(None));
}

#[test]
fn a_failing_write_stops_the_rows() {
    let text = utf16(&"a line\n".repeat(100_000));
    let mut calls = 0;
    let got = rows(&text, &Budgets::default(), &lines_mode(), |_| {
        calls += 1;
        Err("EPIPE")
    });
    assert_eq!((got, calls), (Err("EPIPE"), 1));
}
