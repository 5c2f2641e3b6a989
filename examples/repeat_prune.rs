//! Prunes one file many times in lines mode, for profiling the core
//! (`perf record`, `valgrind --tool=callgrind`).
//! `cargo run --release --no-default-features --example repeat_prune -- FILE [N] [THRESHOLD]`.
use tool_result_pruner::config::Budgets;
use tool_result_pruner::content::Block;
use tool_result_pruner::select::{self, LineOptions};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("FILE");
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
    let threshold: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(8192);
    let text: Vec<u16> = std::fs::read_to_string(path).expect("UTF-8 file").encode_utf16().collect();
    let budgets = Budgets::new(threshold, 4096.min(threshold - 39) / 2, 0).expect("budgets");
    let start = std::time::Instant::now();
    let mut out = 0;
    for _ in 0..n {
        out += select::prune(&[Block::Text(&text)], &budgets, &LineOptions::default()).map_or(0, |p| p.chars_after);
    }
    eprintln!(
        "{:.2} ms per prune ({} code points out)",
        start.elapsed().as_secs_f64() * 1e3 / n as f64,
        out / n as u64
    );
}
