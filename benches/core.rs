//! Rust-side benchmarks of the core on the npm bench's text classes, so a
//! regression shows without Node: `cargo bench --no-default-features --bench core`.
//! Medians of repeated timings; the copy column is a plain `to_vec` of the
//! same text, the floor for anything that reads it.
use std::hint::black_box;
use std::time::Instant;

use tool_result_pruner::config::Budgets;
use tool_result_pruner::content::Block;
use tool_result_pruner::head_tail;
use tool_result_pruner::select::{self, LineOptions};

/// A tiny deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn ascii(points: usize) -> Vec<u16> {
    let mut r = Rng(1);
    let mut s = String::new();
    for i in 0.. {
        if s.len() >= points {
            break;
        }
        if r.below(100) == 0 {
            s.push_str(&format!("2026-11-30T04:12:40Z ERROR worker-{}: request {i} failed: connection reset\n", i % 7));
        } else {
            s.push_str(&format!(
                "2026-11-30T04:12:40Z INFO  worker-{}: test module_{} case {i} ... ok\n",
                i % 7,
                i % 97
            ));
        }
    }
    s.truncate(points);
    s.encode_utf16().collect()
}

fn cjk(points: usize) -> Vec<u16> {
    let chars: Vec<char> = "漢字仮名交じり文错误失败测试日本語한국어처리완료데이터베이스連線逾時".chars().collect();
    let mut r = Rng(2);
    let mut out = String::new();
    let mut n = 0;
    while n < points {
        let c = if r.below(40) == 0 { '\n' } else { chars[r.below(chars.len() as u64) as usize] };
        out.push(c);
        n += 1;
    }
    out.encode_utf16().collect()
}

fn emoji(points: usize) -> Vec<u16> {
    let astral = ['😀', '🚀', '🔥', '𝔘', '𠀋', '🧪', 'é', 'ñ'];
    let mut r = Rng(3);
    let mut out = String::new();
    let mut n = 0;
    while n < points {
        let c = match r.below(100) {
            0..=2 => '\n',
            3..=32 => astral[r.below(astral.len() as u64) as usize],
            _ => (b'a' + r.below(26) as u8) as char,
        };
        out.push(c);
        n += 1;
    }
    out.encode_utf16().collect()
}

fn median_ms(mut f: impl FnMut()) -> f64 {
    f();
    let mut times: Vec<f64> = (0..9)
        .map(|_| {
            let start = Instant::now();
            let mut runs = 0;
            while start.elapsed().as_millis() < 20 || runs == 0 {
                f();
                runs += 1;
            }
            start.elapsed().as_secs_f64() * 1e3 / runs as f64
        })
        .collect();
    times.sort_by(|a, b| a.total_cmp(b));
    times[times.len() / 2]
}

fn main() {
    let budgets = Budgets::default();
    let options = LineOptions::default();
    println!("{:<8} {:<6} {:>10} {:>10} {:>12} {:>12}", "size", "class", "copy ms", "measure", "head-tail", "lines");
    for (label, points) in [("64 KiB", 1 << 16), ("1 MiB", 1 << 20)] {
        for (class, text) in [("ascii", ascii(points)), ("cjk", cjk(points)), ("emoji", emoji(points))] {
            let blocks = [Block::Text(&text)];
            let copy = median_ms(|| {
                black_box(black_box(&text).to_vec());
            });
            let measure = median_ms(|| {
                black_box(head_tail::measure(black_box(&blocks)));
            });
            let head_tail = median_ms(|| {
                black_box(head_tail::prune(black_box(&blocks), &budgets));
            });
            let lines = median_ms(|| {
                black_box(select::prune(black_box(&blocks), &budgets, &options));
            });
            println!("{label:<8} {class:<6} {copy:>10.3} {measure:>10.3} {head_tail:>12.3} {lines:>12.3}");
        }
    }
}
