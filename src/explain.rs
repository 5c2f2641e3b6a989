//! What `--explain` says of each line of a text: the class that wins when
//! a line carries several signals, and why the plan kept it or could not
//! ([`class_of`], [`why`]); and the rows the command line prints, one a
//! line, written as they are made, in chunks of at most about
//! [`CHUNK_UNITS`] code units, so the memory is the plan's, not a row or an
//! object per line ([`rows`]).
//!
//! The reading of each line is [`lines::explain`]'s; its fate is the
//! pruner's own strategy's ([`Explaining`]: lines mode's plan, or what
//! head/tail keeps). This module names them, so the command line and the
//! binding say them the same way.

use crate::command_kind::CallKind;
use crate::config::Budgets;
use crate::signals::{Failure, Frame};
use crate::strategy::lines::Fate;
use crate::strategy::lines::{self, Explained, Kind, LineOptions, Reason, Task};
use crate::strategy::{Pruner, Strategy};
use crate::text::{code_point_len, count_newlines, is_high_surrogate, is_low_surrogate, offset_after, utf16};
use crate::text_plan::hinted;
use crate::words::word_enum;

/// Code units a chunk of rows reaches before it is written.
pub const CHUNK_UNITS: usize = 1 << 16;

/// Code units of a line a row shows whole; a longer line is cut (at a code
/// point) to three fewer, then `...`.
pub const ROW_LINE_UNITS: usize = 160;

word_enum! {
    /// What a line carries, as one word (`--explain` prints it): the
    /// strongest of its signals.
    pub enum Class {
        /// A failure or summary line whose template an earlier line already has.
        Flood => "flood",
        /// A pass verdict (never failure signal, whatever else it holds).
        Pass => "pass",
        /// A failure verdict or diagnostic.
        Failure => "failure",
        /// A failure word in prose.
        Weak => "weak",
        /// A test, build or lint summary.
        Summary => "summary",
        /// A stack frame.
        Frame => "frame",
        /// A line that explains a failure (the block under it, the lines above).
        Cause => "cause",
        /// Nothing of note.
        Plain => "",
    }
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

impl Why {
    /// Every answer: each [`Reason`] kept, then the two dropped ones.
    pub fn all() -> impl Iterator<Item = Why> {
        Reason::ALL.into_iter().map(Why::Kept).chain([Why::NoRoom, Why::Nothing])
    }

    /// The reason as `--explain` prints it: the [`Reason`]'s name, `no room`,
    /// or `""`.
    pub fn name(self) -> &'static str {
        match self {
            Why::Kept(reason) => reason.name(),
            Why::NoRoom => "no room",
            Why::Nothing => "",
        }
    }
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

/// The line options `pruner` plans with in lines mode (the defaults for a
/// head/tail pruner), of the kind `named` when a command names one.
pub fn line_options(pruner: &Pruner, named: Option<&CallKind>) -> LineOptions {
    match hinted(pruner.strategy, named) {
        Strategy::Lines(options) => options,
        Strategy::HeadTail => LineOptions::default(),
    }
}

/// How a pruner's plan is explained: lines mode's reading of each line,
/// and the fate the pruner's own strategy gives it.
#[derive(Clone, Debug)]
pub struct Explaining {
    /// The options lines mode reads the text with (see [`line_options`]).
    pub options: LineOptions,
    /// The task the text was asked for (empty: none).
    pub task: Task,
    /// Head/tail's head and tail in code points, when that is the strategy.
    head_tail: Option<(usize, usize)>,
}

impl Explaining {
    /// What `pruner` does, of the kind `named` when a command names one,
    /// for `task`.
    pub fn of(pruner: &Pruner, named: Option<&CallKind>, task: &Task) -> Self {
        let head_tail = matches!(pruner.strategy, Strategy::HeadTail)
            .then(|| (pruner.budgets.head() as usize, pruner.budgets.tail() as usize));
        Explaining { options: line_options(pruner, named), task: task.clone(), head_tail }
    }

    /// Lines mode's explanation of each line of `text`, handed to `each`,
    /// with head/tail's fates when that is the strategy: a line within the
    /// head or the tail is kept (`start`, `end`), one across either edge
    /// is cut, the rest dropped. `false` as [`lines::explain`].
    fn explain(&self, text: &[u16], budgets: &Budgets, mut each: impl FnMut(&[u16], Explained)) -> bool {
        let Some((head, tail)) = self.head_tail else {
            return lines::explain(text, budgets, &self.options, &self.task, each);
        };
        let tail_start = code_point_len(text).saturating_sub(tail);
        let mut at = 0;
        lines::explain(text, budgets, &self.options, &self.task, |line, mut e| {
            let end = at + code_point_len(line);
            (e.fate, e.reason) = if end <= head {
                (Fate::Keep, Some(Reason::Start))
            } else if at >= tail_start {
                (Fate::Keep, Some(Reason::End))
            } else if at < head || end > tail_start {
                let from = offset_after(line, head.saturating_sub(at));
                let to = offset_after(line, tail_start.saturating_sub(at)).max(from);
                (
                    Fate::Cut { from: from as u32, to: to as u32 },
                    Some(if at < head { Reason::Start } else { Reason::End }),
                )
            } else {
                (Fate::Drop, None)
            };
            at = end;
            each(line, e);
        })
    }
}

/// Each line of `text` as `pruner` would plan it (see [`Explaining`]);
/// `None` when the text is within the threshold or gets upstream's cut.
pub fn explain_text(pruner: &Pruner, text: &[u16], named: Option<&CallKind>, task: &Task) -> Option<Vec<Explained>> {
    let mut out = Vec::new();
    let planned = Explaining::of(pruner, named, task).explain(text, &pruner.budgets, |_, line| out.push(line));
    planned.then_some(out)
}

/// The words of one explained line: its class, its fate and why
/// ([`Class::name`], [`Fate::name`], [`Why::name`]).
pub fn words(line: &Explained) -> [&'static str; 3] {
    [class_of(line).name(), line.fate.name(), why(line).name()]
}

/// Writes the rows of `text` to `write`, chunk by chunk, and returns the
/// kind of the text; `Ok(None)` (nothing written) when lines mode would not
/// plan it. A row is the line's number (right-aligned to the widest), its
/// fate, why, class (`-` for none) and the line without its `\n`, two spaces
/// apart, ending in `\n`. The first error `write` returns stops the writing
/// and is returned.
pub fn rows<E>(
    text: &[u16],
    budgets: &Budgets,
    explaining: &Explaining,
    mut write: impl FnMut(&[u16]) -> Result<(), E>,
) -> Result<Option<Kind>, E> {
    let lines = count_newlines(text) + usize::from(text.last().is_some_and(|&u| u != u16::from(b'\n')));
    let width = lines.max(1).ilog10() as usize + 1;
    let mut chunk: Vec<u16> = Vec::with_capacity(CHUNK_UNITS + 512);
    let (mut number, mut kind, mut failed) = (0usize, None, None);
    let planned = explaining.explain(text, budgets, |line, explained| {
        if failed.is_some() {
            return;
        }
        number += 1;
        kind.get_or_insert(explained.kind);
        let [class, fate, why] = words(&explained);
        let or_dash = |w: &'static str| if w.is_empty() { "-" } else { w };
        let digits = number.ilog10() as usize + 1;
        chunk.resize(chunk.len() + width - digits, u16::from(b' '));
        let at = chunk.len();
        let mut n = number;
        chunk.resize(at + digits, 0);
        for slot in chunk[at..].iter_mut().rev() {
            *slot = u16::from(b'0') + (n % 10) as u16;
            n /= 10;
        }
        for (word, pad) in [(fate, 4usize), (or_dash(why), 8), (or_dash(class), 7)] {
            chunk.extend_from_slice(&[u16::from(b' '); 2]);
            chunk.extend(word.bytes().map(u16::from));
            chunk.resize(chunk.len() + pad.saturating_sub(word.len()), u16::from(b' '));
        }
        chunk.extend_from_slice(&[u16::from(b' '); 2]);
        // The task's words the line holds, when it holds any.
        if explained.task_words != 0 {
            chunk.extend(utf16("task:"));
            for (i, term) in explaining.task.terms().enumerate() {
                if explained.task_words & 1 << i != 0 {
                    chunk.push(u16::from(b' '));
                    chunk.extend(term.bytes().map(u16::from));
                }
            }
            chunk.extend_from_slice(&[u16::from(b' '); 2]);
        }
        let line = line.strip_suffix(&[u16::from(b'\n')]).unwrap_or(line);
        if line.len() > ROW_LINE_UNITS {
            let mut cut = ROW_LINE_UNITS - 3;
            if is_high_surrogate(line[cut - 1]) && is_low_surrogate(line[cut]) {
                cut -= 1;
            }
            chunk.extend_from_slice(&line[..cut]);
            chunk.extend(utf16("..."));
        } else {
            chunk.extend_from_slice(line);
        }
        chunk.push(u16::from(b'\n'));
        if chunk.len() >= CHUNK_UNITS {
            failed = write(&chunk).err();
            chunk.clear();
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    if !planned {
        return Ok(None);
    }
    if !chunk.is_empty() {
        write(&chunk)?;
    }
    Ok(Some(kind.unwrap_or(Kind::Log)))
}

#[cfg(test)]
mod tests;
