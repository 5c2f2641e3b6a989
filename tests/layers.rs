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
