//! `ExplainedLine`: one line of an explained plan, as `--explain` prints
//! it, and the words for its class, fate and reason. The core decides them
//! ([`crate::explain`]); these are their JS spellings.

use napi_derive::napi;

use super::text_kind::TextKind;
use crate::explain::{self, Class, Why};
use crate::strategy::lines::Fate;
use crate::strategy::lines::{Explained, Reason};

/// What a line carries: the strongest of its signals.
#[napi(string_enum = "lowercase")]
pub enum LineClass {
    /// A pass verdict (never failure signal, whatever else it holds).
    Pass,
    /// A failure verdict or diagnostic.
    Failure,
    /// A failure word in prose.
    Weak,
    /// A line that explains a failure.
    Cause,
    /// A test, build or lint summary.
    Summary,
    /// A stack frame.
    Frame,
    /// A failure or summary line repeating a template.
    Flood,
    /// Nothing of note.
    #[napi(value = "")]
    Plain,
}

/// What the plan does with a line.
#[napi(string_enum = "lowercase")]
pub enum LineFate {
    /// Copied as it is.
    Keep,
    /// Kept but for a middle replaced by an inline marker.
    Cut,
    /// Part of a dropped run, behind a marker line.
    Drop,
}

/// Why a line was kept, or for a dropped line whether it had signal.
#[napi(string_enum = "lowercase")]
pub enum KeepReason {
    /// A caller's span touches it.
    Span,
    /// A failure line.
    Failure,
    /// It explains a failure line (the block under it, the lines above).
    Cause,
    /// A summary line.
    Summary,
    /// A stack frame kept for its meaning.
    Frame,
    /// A failure line repeating a template already kept.
    Repeat,
    /// A weak failure word.
    Weak,
    /// Among the first lines.
    Start,
    /// Among the last lines.
    End,
    /// A neighbour of a kept failure, summary, diagnostic or span line.
    Context,
    /// Budget was left.
    Fill,
    /// Part of the outline of a text that is not a log (a definition, a
    /// diff header, a file's first search hit, a shallow JSON key).
    Outline,
    /// It holds the task's rare words, or places or opens a line that does.
    Task,
    /// Dropped although it carries signal: no room in the budget.
    #[napi(value = "no room")]
    NoRoom,
    /// Dropped, with nothing to keep it for.
    #[napi(value = "")]
    Nothing,
}

/// One line of an explained plan.
#[napi(object, object_from_js = false)]
pub struct ExplainedLine {
    /// What the line carries.
    pub class: LineClass,
    /// What the plan does with it.
    pub fate: LineFate,
    /// Why it was kept, or for a dropped line `'no room'` when it carries
    /// signal, else `''`.
    pub why: KeepReason,
    /// The kind of the text the line is in.
    pub kind: TextKind,
}

impl From<&Explained> for ExplainedLine {
    fn from(line: &Explained) -> Self {
        let class = match explain::class_of(line) {
            Class::Flood => LineClass::Flood,
            Class::Pass => LineClass::Pass,
            Class::Failure => LineClass::Failure,
            Class::Weak => LineClass::Weak,
            Class::Summary => LineClass::Summary,
            Class::Frame => LineClass::Frame,
            Class::Cause => LineClass::Cause,
            Class::Plain => LineClass::Plain,
        };
        let fate = match line.fate {
            Fate::Keep => LineFate::Keep,
            Fate::Cut { .. } => LineFate::Cut,
            Fate::Drop => LineFate::Drop,
        };
        let why = match explain::why(line) {
            Why::Kept(reason) => match reason {
                Reason::Span => KeepReason::Span,
                Reason::Failure => KeepReason::Failure,
                Reason::Cause => KeepReason::Cause,
                Reason::Summary => KeepReason::Summary,
                Reason::Frame => KeepReason::Frame,
                Reason::Repeat => KeepReason::Repeat,
                Reason::Weak => KeepReason::Weak,
                Reason::Start => KeepReason::Start,
                Reason::End => KeepReason::End,
                Reason::Context => KeepReason::Context,
                Reason::Fill => KeepReason::Fill,
                Reason::Outline => KeepReason::Outline,
                Reason::Task => KeepReason::Task,
            },
            Why::NoRoom => KeepReason::NoRoom,
            Why::Nothing => KeepReason::Nothing,
        };
        ExplainedLine { class, fate, why, kind: line.kind.into() }
    }
}
