//! `ExplainedLine`: one line of an explained plan, as `--explain` prints
//! it, and the words for its class, fate and reason. The core decides them
//! and names them ([`Class`], [`Fate`], [`Why`]); these are the same names
//! as JS types.

use napi_derive::napi;

use super::text_kind::TextKind;
use crate::explain::{self, Class, Why};
use crate::strategy::lines::Fate;
use crate::strategy::lines::{Explained, Reason};

/// What a line carries: the strongest of its signals.
// The core's `Class` by its names (`__test__/words.test.js` checks them).
#[napi(string_enum = "lowercase")]
pub enum LineClass {
    /// [`Class::Pass`].
    Pass,
    /// [`Class::Failure`].
    Failure,
    /// [`Class::Weak`].
    Weak,
    /// [`Class::Cause`].
    Cause,
    /// [`Class::Summary`].
    Summary,
    /// [`Class::Frame`].
    Frame,
    /// [`Class::Flood`].
    Flood,
    /// [`Class::Plain`].
    #[napi(value = "")]
    Plain,
}

impl From<Class> for LineClass {
    fn from(class: Class) -> Self {
        match class {
            Class::Flood => LineClass::Flood,
            Class::Pass => LineClass::Pass,
            Class::Failure => LineClass::Failure,
            Class::Weak => LineClass::Weak,
            Class::Summary => LineClass::Summary,
            Class::Frame => LineClass::Frame,
            Class::Cause => LineClass::Cause,
            Class::Plain => LineClass::Plain,
        }
    }
}

/// What the plan does with a line.
// The core's `Fate` by its names (`__test__/words.test.js` checks them).
#[napi(string_enum = "lowercase")]
pub enum LineFate {
    /// [`Fate::Keep`].
    Keep,
    /// [`Fate::Cut`].
    Cut,
    /// [`Fate::Drop`].
    Drop,
}

impl From<Fate> for LineFate {
    fn from(fate: Fate) -> Self {
        match fate {
            Fate::Keep => LineFate::Keep,
            Fate::Cut { .. } => LineFate::Cut,
            Fate::Drop => LineFate::Drop,
        }
    }
}

/// Why a line was kept, or for a dropped line whether it had signal.
// The core's `Why` by its names (`__test__/words.test.js` checks them).
#[napi(string_enum = "lowercase")]
pub enum KeepReason {
    /// [`Reason::Span`].
    Span,
    /// [`Reason::Failure`].
    Failure,
    /// [`Reason::Cause`].
    Cause,
    /// [`Reason::Summary`].
    Summary,
    /// [`Reason::Frame`].
    Frame,
    /// [`Reason::Repeat`].
    Repeat,
    /// [`Reason::Weak`].
    Weak,
    /// [`Reason::Start`].
    Start,
    /// [`Reason::End`].
    End,
    /// [`Reason::Context`].
    Context,
    /// [`Reason::Fill`].
    Fill,
    /// [`Reason::Outline`].
    Outline,
    /// [`Reason::Task`].
    Task,
    /// [`Why::NoRoom`].
    #[napi(value = "no room")]
    NoRoom,
    /// [`Why::Nothing`].
    #[napi(value = "")]
    Nothing,
}

impl From<Why> for KeepReason {
    fn from(why: Why) -> Self {
        match why {
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
        }
    }
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
        ExplainedLine {
            class: explain::class_of(line).into(),
            fate: line.fate.into(),
            why: explain::why(line).into(),
            kind: line.kind.into(),
        }
    }
}
