//! A JSON report's keys that say what failed (see
//! [`readers::json_keys`](super::readers::json_keys)), kept as evidence:
//! each key with the first lines of its value and the keys that name the
//! object it is in, in a JSON document before its outline, in a log (a
//! runner's report printed after its own output) with its failures.
//!
//! Work: the lines read for the keys once, then a bounded walk around
//! each key kept ([`VALUE_LINES`] down, [`SIBLING_REACH`] each way).

use super::Reason;
use super::index::LineIndex;
use super::keep::KeepSet;
use super::readers::json_keys::{names_object, reports_failure};
use crate::text::{TextLines, leading_blanks};

/// Lines of such a key's value kept with it.
const VALUE_LINES: usize = 8;

/// Lines read up and down from such a key for the keys that name its object.
const SIBLING_REACH: usize = 32;

/// Keys naming the objects around such a key kept with it, the nearest first.
const ANCESTORS: usize = 2;

/// The lines of `lines` that are JSON keys reporting a failure, ascending.
pub(super) fn find_reports(lines: TextLines<'_>) -> Vec<u32> {
    (0..lines.len()).filter(|&k| reports_failure(lines.line(k))).map(|k| k as u32).collect()
}

/// Keeps text `t`'s report keys `found` (its line numbers, ascending) into
/// `keep` while there is room, each with the first [`VALUE_LINES`] of the
/// object or array it opens and the keys that name its object; returns
/// the lines read.
pub(super) fn keep_reports<'a>(
    keep: &mut KeepSet<'_, 'a>,
    index: &LineIndex<'a>,
    t: usize,
    found: &[u32],
    cap: usize,
) -> usize {
    if found.is_empty() {
        return 0;
    }
    let bounds = index.bounds[t].clone();
    let mut steps = 0;
    let ancestors = ancestor_names(index, t, found, &mut steps);
    for (i, &local) in found.iter().enumerate() {
        let k = bounds.start + local as usize;
        if keep.full() {
            break;
        }
        if !keep.add(k, cap, Reason::Failure) {
            continue;
        }
        for &a in &ancestors[i] {
            keep.add(a, cap, Reason::Cause);
        }
        let indent = leading_blanks(index.line(k));
        if opens_value(index.line(k)) {
            for j in (k + 1..bounds.end).take(VALUE_LINES) {
                steps += 1;
                if leading_blanks(index.line(j)) <= indent {
                    break;
                }
                keep.add(j, cap, Reason::Cause);
            }
        }
        // What the object that failed is: its name, title or path, among
        // its keys (a value's lines between are stepped over).
        let up = (bounds.start..k).rev().take(SIBLING_REACH);
        let down = (k + 1..bounds.end).take(SIBLING_REACH);
        for j in up
            .take_while(|&j| leading_blanks(index.line(j)) >= indent)
            .chain(down.take_while(|&j| leading_blanks(index.line(j)) >= indent))
        {
            steps += 1;
            let line = index.line(j);
            if leading_blanks(line) == indent && names_object(line) {
                keep.add(j, cap, Reason::Cause);
            }
        }
    }
    steps
}

/// For each report key of `found` (text `t`'s line numbers, ascending),
/// the keys above it that name the objects it is in (a file's
/// `"filePath"` over its messages), nearest first, at most
/// [`ANCESTORS`]: one pass over the text up to the last key, a line at an
/// indentation closing the names recorded deeper, a name replacing the
/// one recorded at its own.
fn ancestor_names(index: &LineIndex<'_>, t: usize, found: &[u32], steps: &mut usize) -> Vec<Vec<usize>> {
    let bounds = index.bounds[t].clone();
    let mut names: Vec<(usize, usize)> = Vec::new();
    let mut out = Vec::with_capacity(found.len());
    let mut next = 0;
    let Some(&last) = found.last() else { return out };
    for k in bounds.start..=bounds.start + last as usize {
        *steps += 1;
        let line = index.line(k);
        let indent = leading_blanks(line);
        // A line less indented than a name closes the name's object.
        while names.last().is_some_and(|&(i, _)| i > indent) {
            names.pop();
        }
        while next < found.len() && bounds.start + found[next] as usize == k {
            let above = names.iter().rev().filter(|&&(i, _)| i < indent);
            out.push(above.take(ANCESTORS).map(|&(_, j)| j).collect());
            next += 1;
        }
        if names_object(line) {
            match names.last_mut() {
                Some(last) if last.0 == indent => *last = (indent, k),
                _ => names.push((indent, k)),
            }
        }
    }
    out
}

/// Whether JSON `line` ends by opening an object or array: its value is on
/// the lines under it.
fn opens_value(line: &[u16]) -> bool {
    let end = line.iter().rposition(|&u| !matches!(u, 0x20 | 0x09 | 0x0A | 0x0D));
    end.is_some_and(|e| matches!(line[e], 0x5B | 0x7B))
}
