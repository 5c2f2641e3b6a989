//! What `--explain` says of each line: the class that wins when a line
//! carries several signals, and why the plan kept it or could not.
//!
//! The plan itself is [`lines::explain`]'s; this module only names its
//! findings, one word each, so the command line and the binding print them
//! the same way.

use crate::command_kind::CallKind;
use crate::signals::{Failure, Frame};
use crate::strategy::lines::{self, Explained, LineOptions, Reason};
use crate::strategy::{Pruner, Strategy};
use crate::text_plan::hinted;

/// What a line carries, as one word: the strongest of its signals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A failure or summary line whose template an earlier line already has.
    Flood,
    /// A pass verdict (never failure signal, whatever else it holds).
    Pass,
    /// A failure verdict or diagnostic.
    Failure,
    /// A failure word in prose.
    Weak,
    /// A test, build or lint summary.
    Summary,
    /// A stack frame.
    Frame,
    /// A line that explains a failure (the block under it, the lines above).
    Cause,
    /// Nothing of note.
    Plain,
}

/// The class of `line`. A repeat of a template wins over everything (it is
/// a flood whatever it says); then a pass verdict, because a line reporting
/// a pass is never failure signal; then the failure strength; then a
/// summary, a frame and a cause, in that order.
pub fn class_of(line: &Explained) -> Class {
    let s = &line.signal;
    if line.flood {
        return Class::Flood;
    }
    if s.pass() {
        return Class::Pass;
    }
    match s.failure {
        Failure::Strong => Class::Failure,
        Failure::Weak => Class::Weak,
        Failure::None if s.summary() => Class::Summary,
        Failure::None if s.frame != Frame::None => Class::Frame,
        Failure::None if s.cause() => Class::Cause,
        Failure::None => Class::Plain,
    }
}

/// Why a line is in the output, or why not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// Kept, for this reason.
    Kept(Reason),
    /// Dropped although it carries signal: the budget had no room for it.
    NoRoom,
    /// Dropped, and it carried nothing to keep it for.
    Nothing,
}

/// Why `line` was kept, or for a dropped line whether the budget left out
/// a line with signal (any class but [`Class::Plain`] and [`Class::Pass`]).
pub fn why(line: &Explained) -> Why {
    match line.reason {
        Some(reason) => Why::Kept(reason),
        None if !matches!(class_of(line), Class::Plain | Class::Pass) => Why::NoRoom,
        None => Why::Nothing,
    }
}

/// Each line of `text` as `pruner` would plan it in lines mode (a head/tail
/// pruner explains with the default line options), of the kind `named`
/// when a command names one; `None` when the text is within the threshold
/// or gets upstream's cut.
pub fn explain_text(pruner: &Pruner, text: &[u16], named: Option<&CallKind>) -> Option<Vec<Explained>> {
    let options = match hinted(pruner.strategy, named) {
        Strategy::Lines(options) => options,
        Strategy::HeadTail => LineOptions::default(),
    };
    lines::explain(text, &pruner.budgets, &options)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Budgets;
    use crate::signals::LineSignal;
    use crate::strategy::lines::Kind;
    use crate::strategy::lines::render::Fate;
    use crate::text::utf16;

    fn line(signal: LineSignal, flood: bool, reason: Option<Reason>) -> Explained {
        Explained { signal, fate: Fate::Drop, reason, flood, kind: Kind::Log }
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
    fn head_tail_pruners_explain_with_the_default_line_options() {
        let text = utf16(&(0..400).map(|i| format!("step {i}\n")).collect::<String>());
        let budgets = Budgets::new(1000, 400, 100).unwrap();
        let head_tail = Pruner { budgets, strategy: Strategy::HeadTail };
        let lines = Pruner { budgets, strategy: Strategy::Lines(LineOptions::default()) };
        assert_eq!(explain_text(&head_tail, &text, None), explain_text(&lines, &text, None));
        assert!(explain_text(&head_tail, &text, None).is_some());
        assert_eq!(explain_text(&head_tail, &utf16("short\n"), None), None);
    }
}
