//! Prunes stdin to stdout with the core alone (no Node): a quick way to try
//! rules against logs. `cargo run --release --no-default-features --example
//! prune_stdin -- THRESHOLD [lines|head-tail]`.
use std::io::{Read, Write};

use tool_result_pruner::config::Budgets;
use tool_result_pruner::content::{Block, render_texts};
use tool_result_pruner::{head_tail, select};

fn main() {
    let mut args = std::env::args().skip(1);
    let threshold: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(8192);
    let strategy = args.next().unwrap_or_else(|| "lines".into());
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).expect("stdin is UTF-8");
    let text: Vec<u16> = input.encode_utf16().collect();
    let head = threshold / 2;
    let tail = threshold / 8;
    let budgets =
        Budgets::new(threshold, head.min(threshold - 39), tail.min(threshold - 39 - head.min(threshold - 39)))
            .expect("budgets");
    let blocks = [Block::Text(&text)];
    let pruned = match strategy.as_str() {
        "head-tail" => head_tail::prune(&blocks, &budgets),
        _ => select::prune(&blocks, &budgets, &select::LineOptions::default()),
    };
    let out: Vec<u16> = match &pruned {
        Some(p) => render_texts(&blocks, p).flat_map(|t| t.to_vec()).collect(),
        None => text.clone(),
    };
    std::io::stdout().write_all(String::from_utf16_lossy(&out).as_bytes()).expect("stdout");
}
