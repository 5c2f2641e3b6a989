//! Listings' tiers: `ls -R` by its headers, `find` by its paths, `tree` by depth, files by size.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::super::readers::rows;
use super::super::readers::trees::tree_depth;
use super::{Groups, round_robin};
use crate::signals::view;
use crate::text::TextLines;

/// The files at the top of a `find` (the entries of its shallowest
/// directories that are not directories themselves), when they are few: a
/// tree's top-level files (its read-me, its build file) say what it is;
/// a top of hundreds of files says less than the folders under it.
/// `dirs` are the directories found, `lists` each directory's entries,
/// `depths` its depth.
fn top_files(dirs: &[(u32, Option<usize>)], lists: &[Vec<u32>], depths: &[usize]) -> Vec<u32> {
    let top = depths.iter().copied().min().unwrap_or(0);
    let mut folders: Vec<u32> = dirs.iter().map(|&(k, _)| k).collect();
    folders.sort_unstable();
    let mut files: Vec<u32> = lists
        .iter()
        .zip(depths)
        .filter(|&(_, &d)| d == top)
        .flat_map(|(l, _)| l.iter().copied())
        .filter(|k| folders.binary_search(k).is_err())
        .collect();
    files.sort_unstable();
    if files.len() > FEW_AT_TOP {
        files.clear();
    }
    files
}

/// The first path under each folder at the top of a `find`, in order,
/// when they are few: what the tree is made of, before the first entry of
/// every deeper directory. The top folders are the shallowest directory's
/// children, or the shallowest directories themselves where there are
/// several (a `find` of a few roots). `index` maps each directory found to
/// its list in `lists`, `depths` each list's depth.
fn top_folders(index: &std::collections::HashMap<Vec<u8>, usize>, lists: &[Vec<u32>], depths: &[usize]) -> Vec<u32> {
    let top = depths.iter().copied().min().unwrap_or(0);
    let roots = depths.iter().filter(|&&d| d == top).count();
    let level = if roots > 1 { top.saturating_sub(1) } else { top };
    let mut first_under: std::collections::HashMap<&[u8], u32> = std::collections::HashMap::new();
    for (dir, &i) in index {
        let Some(folder) = dir.split(|&b| b == b'/').filter(|c| !c.is_empty() && *c != b".").nth(level) else {
            continue;
        };
        let first = lists[i][0];
        let at = first_under.entry(folder).or_insert(first);
        *at = (*at).min(first);
    }
    let mut firsts: Vec<u32> = first_under.into_values().collect();
    firsts.sort_unstable();
    if firsts.len() > FEW_AT_TOP {
        firsts.clear();
    }
    firsts
}

/// The lines at the start of a `find` that are its top tier.
const FIND_HEAD: usize = 10;

/// At most this many files, or folders, at the top of a `find` make a tier of their own.
const FEW_AT_TOP: usize = 32;

/// Listings (a `tree` drawing by [`tree`]; rows sorted by size, `du |
/// sort -h`, `ls -lS`, by their order alone: an empty first tier, then
/// every sized row from the large end, as a blind cut of that end would
/// keep them): the first directory's entries
/// (the top of an `ls -R`); then the [`largest`] files where rows show
/// sizes (always the second tier, empty where none do); then the
/// directories shallowest first (down to one level below the
/// shallowest, then two, then the rest with the totals): an `ls -R`'s
/// headers, then the first entry of every other directory; a `find`'s
/// first [`FIND_HEAD`] paths, its [`top_files`] and [`top_folders`], the
/// first entry of every directory, then its directories (a path the next one extends) by depth;
/// then entries directory by directory in turn.
pub(super) fn listing(lines: TextLines<'_>) -> Vec<Vec<u32>> {
    if is_tree(lines) {
        return tree(lines);
    }
    let mut groups: Vec<Vec<u32>> = Vec::new(); // entries under each header
    // Headers, `find` directories and totals with their depth (path components; a total: none).
    let mut dirs: Vec<(u32, Option<usize>)> = Vec::new();
    let mut by_dir = Groups::default();
    // The depth of each of `by_dir`'s directories.
    let mut dir_depths: Vec<usize> = Vec::new();
    // The last `find` path, to tell whether the next one is inside it.
    let (mut last_path, mut last_at) = (String::new(), None);
    // Rows that show a size, not a directory's: the size, the line.
    let mut sized: Vec<(f64, u32)> = Vec::new();
    // Every row that shows a size, a directory's too, and their order.
    let (mut sized_rows, mut order) = (Vec::new(), rows::Order::default());
    let mut v = String::new();
    for k in 0..lines.len() {
        view(lines.line(k), &mut v);
        let t = v.trim();
        if t.is_empty() {
            continue;
        }
        let k = k as u32;
        let row = rows::row(t);
        if let Some(r) = row
            && let Some(size) = r.size
        {
            sized_rows.push(k);
            order.push(size);
            if !r.dir {
                sized.push((size, k));
            }
        }
        if (t.ends_with(':') && !v.starts_with([' ', '\t'])) || t.starts_with("total ") {
            dirs.push((k, t.strip_suffix(':').map(path_depth)));
            groups.push(Vec::new());
        } else if let Some(t) = row.map(|r| r.path).filter(|p| p.contains('/')) {
            // `find` output (or a table's rows that name paths: `find -ls`,
            // `du`, `tar -tv`, `unzip -l`), grouped by directory.
            if let Some(at) = last_at
                && t.len() > last_path.len()
                && t.starts_with(last_path.as_str())
                && t.as_bytes()[last_path.len()] == b'/'
            {
                dirs.push((at, Some(path_depth(&last_path))));
            }
            last_path.clear();
            last_path.push_str(t);
            last_at = Some(k);
            let dir = t.rsplit_once('/').map_or("", |(d, _)| d);
            let lists = by_dir.lists.len();
            by_dir.add(dir.as_bytes(), k);
            if by_dir.lists.len() > lists {
                dir_depths.push(path_depth(dir));
            }
        } else if let Some(entries) = groups.last_mut() {
            entries.push(k);
        } else {
            groups.push(vec![k]);
        }
    }
    // Rows sorted by size are ranked by their order: read from the large end.
    if let Some(largest_last) = order.largest_last() {
        if largest_last {
            sized_rows.reverse();
        }
        return vec![Vec::new(), sized_rows];
    }
    // A path that holds others (`du` lists a folder's total) is no file.
    let largest = largest(sized, |k| {
        view(lines.line(k as usize), &mut v);
        rows::row(&v).is_some_and(|r| !by_dir.index.contains_key(r.path.as_bytes()))
    });
    let found = !by_dir.lists.is_empty();
    let top_files = if found { top_files(&dirs, &by_dir.lists, &dir_depths) } else { Vec::new() };
    let top_folders = if found { top_folders(&by_dir.index, &by_dir.lists, &dir_depths) } else { Vec::new() };
    let headed = !groups.is_empty();
    let mut lists = groups;
    lists.extend(by_dir.lists);
    // The first directory listed (the top of an `ls -R`, a `find`'s `.`) is
    // read first; a `find` of files alone has no such line, and its first
    // directory's files are one directory among the others.
    let (top, others) = match lists.split_first() {
        Some((first, rest)) if headed || !found => (first.clone(), rest),
        _ => (Vec::new(), &lists[..]),
    };
    let firsts: Vec<u32> = others.iter().filter_map(|e| e.first().copied()).collect();
    // Levels below the shallowest directory: 0 and 1, then 2, then the rest.
    let shallowest = dirs.iter().filter_map(|&(_, d)| d).min().unwrap_or(0);
    let level = |d: Option<usize>| d.map_or(usize::MAX, |d| (d - shallowest).max(1));
    let at = |keep: &dyn Fn(usize) -> bool| -> Vec<u32> {
        dirs.iter().filter(|&&(_, d)| keep(level(d))).map(|&(k, _)| k).collect()
    };
    let (first, second, rest) = (at(&|l| l == 1), at(&|l| l == 2), at(&|l| l > 2));
    let entries = round_robin(others, 1);
    // A `find` path names itself; an `ls -R` entry means little without its header.
    if found {
        // A `find`'s first paths are its top, read in order.
        let mut top = top;
        let first_paths = others.iter().flatten().copied().filter(|&k| (k as usize) < FIND_HEAD);
        top.extend(first_paths);
        top.sort_unstable();
        top.dedup();
        vec![top, largest, top_files, top_folders, firsts, first, second, rest, entries]
    } else {
        // The first entry under each header one level down (what each of
        // the top folders holds; the top's own entries lead) before the
        // deeper headers.
        let top_header = dirs.first().map(|&(k, _)| k);
        let mut under_first: Vec<u32> = first
            .iter()
            .filter(|&&h| Some(h) != top_header)
            .filter_map(|&h| firsts.get(firsts.partition_point(|&f| f <= h)).copied())
            .collect();
        under_first.dedup();
        vec![top, largest, first, second, under_first, rest, firsts, entries]
    }
}

/// The [`LARGEST`] lines of `sized` (size, line) that are files, largest
/// first (of one size, the first listed first): what is asked of a listing
/// with sizes as often as where a file is, and what no blind cut finds
/// unless the listing is sorted by size. Linear: a heap of the rows, of
/// which at most [`LARGEST_LOOKED_AT`] are taken and asked `is_file`.
fn largest(sized: Vec<(f64, u32)>, mut is_file: impl FnMut(u32) -> bool) -> Vec<u32> {
    // Sizes are not negative: their bits order them.
    let mut heap: BinaryHeap<(u64, Reverse<u32>)> = sized.into_iter().map(|(s, k)| (s.to_bits(), Reverse(k))).collect();
    let mut files = Vec::with_capacity(LARGEST);
    for _ in 0..LARGEST_LOOKED_AT {
        let Some((_, Reverse(k))) = heap.pop() else { break };
        if is_file(k) {
            files.push(k);
            if files.len() == LARGEST {
                break;
            }
        }
    }
    files
}

/// Rows looked at for the largest files, folders among them: a `du`'s
/// largest rows are its folders' totals.
const LARGEST_LOOKED_AT: usize = 8 * LARGEST;

/// Files a listing with sizes shows by size, before its structure.
const LARGEST: usize = 8;

/// A `tree` drawing's tiers: its top-level entries, an empty tier (where
/// other listings have their largest files), then the entries one level
/// down, then two, then the rest, each in order (spread by the planner).
fn tree(lines: TextLines<'_>) -> Vec<Vec<u32>> {
    let mut by_depth: Vec<Vec<u32>> = vec![Vec::new(); 4];
    for k in 0..lines.len() {
        if let Some(depth) = tree_depth(lines.line(k)) {
            by_depth[depth.min(3)].push(k as u32);
        }
    }
    // A listing's second tier is its largest files; a drawing shows none.
    by_depth.insert(1, Vec::new());
    by_depth
}

/// Whether `lines` are a `tree` drawing: most of its first lines are its entries.
fn is_tree(lines: TextLines<'_>) -> bool {
    let first = lines.len().min(TREE_SAMPLE);
    let entries = (0..first).filter(|&k| tree_depth(lines.line(k)).is_some());
    entries.count() * 2 > first
}

/// Lines read to tell a `tree` drawing.
const TREE_SAMPLE: usize = 64;

/// Path components of a path (`.` and empty ones not counted).
fn path_depth(path: &str) -> usize {
    path.split('/').filter(|c| !c.is_empty() && *c != ".").count()
}
