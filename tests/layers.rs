//! The layering rules the source keeps, checked on the source itself: the
//! CPU kernels are the only place that knows the target architecture, and
//! they import nothing of the domain (the rest of the crate calls them,
//! never the reverse).

use std::fs;
use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn all_sources() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    files.sort();
    assert!(files.len() > 50, "found {} source files", files.len());
    files.into_iter().map(|p| (p.strip_prefix(&root).unwrap().to_path_buf(), fs::read_to_string(&p).unwrap())).collect()
}

fn in_kernels(path: &Path) -> bool {
    path.starts_with("kernels")
}

#[test]
fn only_the_kernels_know_the_target_architecture() {
    let offenders: Vec<String> = all_sources()
        .into_iter()
        .filter(|(path, text)| !in_kernels(path) && (text.contains("target_arch") || text.contains("std::arch")))
        .map(|(path, _)| path.display().to_string())
        .collect();
    assert!(offenders.is_empty(), "target_arch or std::arch outside src/kernels: {offenders:?}");
}

#[test]
fn the_kernels_import_nothing_of_the_domain() {
    let offenders: Vec<String> = all_sources()
        .into_iter()
        .filter(|(path, _)| in_kernels(path))
        .flat_map(|(path, text)| {
            text.lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .filter(|l| l.contains("crate::") && !l.contains("crate::kernels"))
                .map(|l| format!("{}: {}", path.display(), l.trim()))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(offenders.is_empty(), "the kernels reach into the domain: {offenders:#?}");
}

/// The module a source file is (`strategy::lines::keep` for
/// `strategy/lines/keep.rs`, `signals` for `signals/mod.rs`).
fn module_of(path: &Path) -> String {
    let mut parts: Vec<String> = path.with_extension("").iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts.join("::")
}

/// The module a `crate::`, `super::` or `self::` path written in module
/// `current` names: the longest prefix of it that is a module.
fn resolve(current: &str, path: &str, modules: &std::collections::BTreeSet<String>) -> Option<String> {
    let mut segments: Vec<&str> = path.split("::").collect();
    let mut base: Vec<&str> = if current.is_empty() { Vec::new() } else { current.split("::").collect() };
    match segments.first().copied() {
        Some("crate") => {
            base.clear();
            segments.remove(0);
        }
        Some("super") => {
            while segments.first() == Some(&"super") {
                base.pop();
                segments.remove(0);
            }
        }
        Some("self") => {
            segments.remove(0);
        }
        _ => return None,
    }
    let full: Vec<&str> = base.into_iter().chain(segments).collect();
    (1..=full.len()).rev().map(|n| full[..n].join("::")).find(|m| modules.contains(m))
}

/// Module imports among `src/` modules, test code and comments left out;
/// a module and the modules inside it are one place, not an edge.
fn imports() -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let sources = all_sources();
    let modules: std::collections::BTreeSet<String> = sources.iter().map(|(p, _)| module_of(p)).collect();
    let mut edges = std::collections::BTreeMap::<String, std::collections::BTreeSet<String>>::new();
    for (path, text) in &sources {
        let name = path.to_string_lossy();
        if name.ends_with("tests.rs") || name.contains("/tests/") {
            continue;
        }
        let current = module_of(path);
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or_default();
        for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
            for (at, _) in line.match_indices("::") {
                let start =
                    line[..at].rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).map_or(0, |i| i + 1);
                let end = line[at..]
                    .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .map_or(line.len(), |i| at + i);
                let path = &line[start..end];
                if !(path.starts_with("crate::") || path.starts_with("super::") || path.starts_with("self::")) {
                    continue;
                }
                if let Some(target) = resolve(&current, path, &modules) {
                    let nested = |a: &str, b: &str| {
                        a == b || a.starts_with(&format!("{b}::")) || b.starts_with(&format!("{a}::"))
                    };
                    if !nested(&current, &target) {
                        edges.entry(current.clone()).or_default().insert(target);
                    }
                }
            }
        }
    }
    edges
}

type Graph = std::collections::BTreeMap<String, std::collections::BTreeSet<String>>;

/// The modules of `edges` that reach themselves, each with the modules it
/// imports that lead back to it.
fn circles(edges: &Graph) -> Vec<String> {
    let reaches = |from: &str| {
        let mut seen = std::collections::BTreeSet::new();
        let mut stack: Vec<&str> = edges.get(from).into_iter().flatten().map(String::as_str).collect();
        while let Some(m) = stack.pop() {
            if seen.insert(m.to_string()) {
                stack.extend(edges.get(m).into_iter().flatten().map(String::as_str));
            }
        }
        seen
    };
    edges
        .keys()
        .filter(|m| reaches(m).contains(*m))
        .map(|m| {
            let back: Vec<&String> = edges[m].iter().filter(|t| reaches(t).contains(m)).collect();
            format!("{m} -> {back:?}")
        })
        .collect()
}

/// `edges` with every module taken as its ancestor `depth` segments deep
/// (`strategy::lines::keep` as `strategy` at depth 1), edges inside one
/// such module left out.
fn at_depth(edges: &Graph, depth: usize) -> Graph {
    let cut = |m: &str| m.split("::").take(depth).collect::<Vec<_>>().join("::");
    let mut out = Graph::new();
    for (from, targets) in edges {
        for to in targets {
            let (a, b) = (cut(from), cut(to));
            if a != b {
                out.entry(a).or_default().insert(b);
            }
        }
    }
    out
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let edges = imports();
    assert!(edges.len() > 30, "{} modules import others", edges.len());
    // At every depth: between top-level modules (config, strategy,
    // signals), between their children, and file by file.
    for depth in 1..=4 {
        let found = circles(&at_depth(&edges, depth));
        assert!(found.is_empty(), "modules in an import circle, {depth} segments deep:\n{}", found.join("\n"));
    }
}
