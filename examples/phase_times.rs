//! Times the phases of the line plan on one file (a profiling aid).
use std::time::Instant;
use tool_result_pruner::config::Budgets;
use tool_result_pruner::content::Block;
use tool_result_pruner::{lines, markers, select, signals, text};

fn main() {
    let path = std::env::args().nth(1).expect("FILE");
    let t: Vec<u16> = std::fs::read_to_string(path).expect("UTF-8").encode_utf16().collect();
    let n = 20;
    let time = |label: &str, f: &dyn Fn() -> usize| {
        let start = Instant::now();
        let mut x = 0;
        for _ in 0..n {
            x += f();
        }
        println!("{label:>14}: {:>7.3} ms ({x})", start.elapsed().as_secs_f64() * 1e3 / n as f64);
    };
    time("code points", &|| text::code_point_len(&t));
    time("lines", &|| {
        let mut points = 0;
        lines::for_each_line(&t, |_, p| points += p);
        points
    });
    let ls = lines::split_lines(&t);
    time("scan", &|| signals::scan(&t, &ls).iter().filter(|s| s.failure > 0).count());
    time("hash all", &|| markers::content_hash(&t).len());
    let b = Budgets::new(8192, 2048, 0).unwrap();
    time("prune", &|| {
        select::prune(&[Block::Text(&t)], &b, &select::LineOptions::default()).map_or(0, |p| p.chars_after as usize)
    });
}
