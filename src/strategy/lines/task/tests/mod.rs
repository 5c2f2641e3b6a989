//! The task's tests: how a request and a call are read into terms
//! ([`reading`]), and where those terms are found in an output and what
//! they weigh there ([`finding`]).

use super::*;
use crate::content::Block;
use crate::strategy::lines::index::LineIndex;
use crate::text::utf16;

fn task(text: &str) -> Task {
    Task::new(&[&utf16(text)])
}

fn terms(text: &str) -> Vec<String> {
    task(text).terms().map(str::to_owned).collect()
}

/// The text of `n` lines, line `i` written by `line` (which ends it).
fn lines_of(n: usize, line: impl Fn(usize) -> String) -> String {
    (0..n).map(line).collect()
}

/// Each line's score and the lines ranked, when any term of weight is found.
type Found = Option<(Vec<f64>, Vec<usize>)>;

fn matches(text: &str, task_text: &str) -> (Vec<u16>, Found) {
    let units = utf16(text);
    let lines = text.lines().count();
    let found = find(text, task_text)
        .map(|m| ((0..lines).map(|k| m.score(k)).collect(), m.ranked(|_| 0, |_, score| score).collect()));
    (units, found)
}

/// Where `task_text`'s words are in `text`, one block.
fn find(text: &str, task_text: &str) -> Option<Matches> {
    let units = utf16(text);
    let blocks = [Block::Text(&units)];
    Matches::find(&LineIndex::new(&blocks).unwrap(), &task(task_text))
}

mod finding;
mod reading;
