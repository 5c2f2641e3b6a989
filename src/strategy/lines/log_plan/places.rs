//! The places failure lines name (read by [`readers::places`](super::super::readers::places)).
//! Where a template's repeats name few places, each many times (a sanitizer
//! reporting one error at five source lines, again and again), a repeat at a
//! place no kept failure of it names is the same error somewhere else, and
//! says more than one more at a place already shown. A flood naming a new
//! place a line (a linter's, a type checker's) is no such template.
//! And the file a line opens with: a type checker's repeats come file by
//! file, and each file's first says where its run starts.

use std::collections::{HashMap, HashSet};

pub(super) use super::super::readers::places::{leading_file, leading_place};

/// The positions in `files` (each repeat's [`leading_file`], in the order
/// of the text) where a file's run of repeats opens: a type checker's
/// findings come file by file, and each file's first says where its run
/// starts. Empty unless runs are at least two repeats long on average: a
/// flood naming a new file a line has no runs.
pub(super) fn file_openings(files: &[Option<&[u16]>]) -> Vec<usize> {
    let openings: Vec<usize> =
        (0..files.len()).filter(|&i| files[i].is_some() && (i == 0 || files[i - 1] != files[i])).collect();
    let naming = files.iter().flatten().count();
    if openings.len() * 2 > naming {
        return Vec::new();
    }
    openings
}

/// The templates among `repeats` (each repeat's template and
/// [`leading_place`]) whose repeats naming a place name at most half as
/// many distinct places.
pub(super) fn recurring(repeats: impl Iterator<Item = (u32, Option<u64>)>) -> HashSet<u32> {
    let mut seen: HashMap<u32, (usize, HashSet<u64>)> = HashMap::new();
    for (template, place) in repeats {
        if let Some(place) = place {
            let (count, places) = seen.entry(template).or_default();
            *count += 1;
            places.insert(place);
        }
    }
    seen.into_iter().filter(|(_, (count, places))| places.len() * 2 <= *count).map(|(t, _)| t).collect()
}

/// Places of failures kept, by template.
#[derive(Default)]
pub(super) struct Places(HashSet<(u32, u64)>);

impl Places {
    /// Notes `place` (a failure line's [`leading_place`]) for `template`;
    /// true when it names one not noted for that template before.
    pub fn note(&mut self, template: u32, place: Option<u64>) -> bool {
        place.is_some_and(|place| self.0.insert((template, place)))
    }
}

#[cfg(test)]
mod tests;
