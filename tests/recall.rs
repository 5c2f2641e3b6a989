//! Lines mode's critical recall on every labelled corpus of
//! `__test__/fixtures/manifest.json`, held to the floors the manifest gives,
//! computed by the core alone (the JS recall test runs the same floors
//! through the addon, with `scripts/recall.js`'s scorer).
//!
//! The rule is the scorer's: lines mode at output budget B keeps at most B
//! code points, its head and tail in upstream's 4:1 ratio of `B - 39`; a
//! signal is kept when its value, an alias or its file appears in the
//! output once ANSI escapes are stripped and `\r\n` and `\r` are folded to
//! `\n`; a corpus's recall is the mean over its cases of the share of
//! critical signals kept. A task corpus (`"task": true`) is planned with
//! each case's call and task (its `case.json`), as the command line plans
//! it given `--command` and `--task`.

use std::path::{Path, PathBuf};

use regex::Regex;
use serde_json::Value;
use tool_result_pruner::command_kind::kind_of_command;
use tool_result_pruner::config::Budgets;
use tool_result_pruner::content::{Block, render_texts};
use tool_result_pruner::strategy::lines::{LineOptions, Task};
use tool_result_pruner::strategy::{Pruner, Strategy};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("__test__").join("fixtures")
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One labelled case: its text and its critical signals' probes.
struct Case {
    text: Vec<u16>,
    critical: Vec<Vec<String>>,
    /// The call's command and the task, from `case.json`, when it gives them.
    asked: Option<(String, String)>,
}

fn cases(corpus: &str) -> Vec<Case> {
    let dir = fixtures().join(corpus);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("ground_truth.json").is_file() && e.path().join("raw.log").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let raw = std::fs::read(dir.join(&name).join("raw.log")).unwrap();
            let text = String::from_utf8_lossy(&raw).encode_utf16().collect();
            let truth = json(&dir.join(&name).join("ground_truth.json"));
            let critical = truth["required_signals"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default()
                .iter()
                .filter(|s| s["importance"] == "critical")
                .map(|s| {
                    let mut probes: Vec<String> = [&s["value"], &s["file"]]
                        .into_iter()
                        .chain(s["aliases"].as_array().into_iter().flatten())
                        .filter_map(|p| p.as_str())
                        .map(|p| p.trim().to_string())
                        .filter(|p| !p.is_empty())
                        .collect();
                    probes.dedup();
                    probes
                })
                .collect();
            let about = dir.join(&name).join("case.json");
            let asked = about
                .is_file()
                .then(|| json(&about))
                .and_then(|c| Some((c["command"].as_str()?.to_owned(), c["task"].as_str()?.to_owned())));
            Case { text, critical, asked }
        })
        .collect()
}

/// The output as the scorer reads it: no ANSI escapes, line endings folded.
fn normalize(output: &str) -> String {
    let ansi = Regex::new(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*(?:\x07|\x1b\\)").unwrap();
    ansi.replace_all(output, "").replace("\r\n", "\n").replace('\r', "\n")
}

/// Lines mode's output of `text` at output budget `budget`, as the scorer
/// configures it; with `asked`, for that command and task.
fn lines(text: &[u16], budget: u64, asked: Option<&(String, String)>) -> String {
    let room = budget - 39;
    let head = (room as f64 * 4096.0 / 5120.0).round() as u64;
    let budgets = Budgets::new(budget, head, room - head).and_then(|b| b.with_keep(budget)).unwrap();
    let blocks = [Block::Text(text)];
    let pruner = Pruner { budgets, strategy: Strategy::Lines(LineOptions::default()) };
    let pruned = match asked {
        Some((command, task)) => {
            let units = |s: &str| s.encode_utf16().collect::<Vec<u16>>();
            let task = Task::asked(&units(task), Some(&units(command)));
            pruner.prune_asked(&blocks, kind_of_command(command).map(|n| n.kind), &task)
        }
        None => pruner.prune(&blocks),
    };
    match pruned {
        Some(pruned) => render_texts(&blocks, &pruned).map(String::from_utf16_lossy).collect(),
        None => String::from_utf16_lossy(text),
    }
}

#[test]
fn every_corpus_keeps_its_floors() {
    let manifest = json(&fixtures().join("manifest.json"));
    let corpora = manifest["corpora"].as_array().expect("a list of corpora");
    assert!(corpora.len() >= 10, "{} corpora", corpora.len());
    let mut below = Vec::new();
    for corpus in corpora {
        let name = corpus["name"].as_str().unwrap();
        let task = corpus["task"].as_bool().unwrap_or(false);
        let cases = cases(name);
        assert_eq!(cases.len() as u64, corpus["count"].as_u64().unwrap(), "{name}: cases on disk");
        for (budget, floor) in corpus["floors"].as_object().unwrap() {
            let budget: u64 = budget.parse().unwrap();
            let recall = cases
                .iter()
                .map(|c| {
                    let out = normalize(&lines(&c.text, budget, c.asked.as_ref().filter(|_| task)));
                    let kept =
                        c.critical.iter().filter(|probes| probes.iter().any(|p| out.contains(p.as_str()))).count();
                    if c.critical.is_empty() { 1.0 } else { kept as f64 / c.critical.len() as f64 }
                })
                .sum::<f64>()
                / cases.len() as f64;
            let floor = floor.as_f64().unwrap();
            if recall < floor {
                below.push(format!("{name} @{budget}: {recall:.3} < {floor}"));
            }
        }
    }
    assert!(below.is_empty(), "corpora under their floors:\n{}", below.join("\n"));
}
