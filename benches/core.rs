//! Rust-side benchmarks of the core on the npm bench's text classes, so a
//! regression shows without Node: `npm run bench:rust`
//! (`cargo bench --no-default-features --bench core`). Medians of repeated
//! timings; the copy column is a plain `to_vec` of the same text, the floor
//! for anything that reads it. With a FILE argument
//! (`cargo bench --no-default-features --bench core -- FILE [PHASE]`) it
//! times the phases of lines mode on that file instead (or only the named
//! one, under a profiler).
use std::hint::black_box;
use std::time::Instant;

use tool_result_pruner::config::Budgets;
use tool_result_pruner::content::{Block, measure};
use tool_result_pruner::strategy::head_tail;
use tool_result_pruner::strategy::lines::{self, LineOptions};
use tool_result_pruner::{hash, signals, text};

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

/// Times each phase of lines mode on one file (only `only`, if given).
fn phases(path: &str, only: Option<&str>) {
    let t: Vec<u16> = std::fs::read_to_string(path).expect("a UTF-8 file").encode_utf16().collect();
    let starts: Vec<u32> = text::split_lines(&t).iter().map(|r| r.start as u32).collect();
    let lines_of = text::TextLines { text: &t, starts: &starts };
    let blocks = [Block::Text(&t)];
    let budgets = Budgets::default();
    let options = LineOptions::default();
    let phases: [(&str, &dyn Fn()); 5] = [
        ("code points", &|| {
            black_box(text::code_point_len(black_box(&t)));
        }),
        ("line walk", &|| {
            black_box(text::split_lines(black_box(&t)));
        }),
        ("signals", &|| {
            black_box(signals::Signals::of_text(black_box(lines_of)));
        }),
        ("hash all", &|| {
            black_box(hash::content_hash(black_box(&t)));
        }),
        ("lines prune", &|| {
            black_box(lines::prune(black_box(&blocks), &budgets, &options));
        }),
    ];
    for (label, f) in phases.into_iter().filter(|(label, _)| only.is_none_or(|o| o == *label)) {
        println!("{label:>12}: {:>8.3} ms", median_ms(f));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    if let Some(path) = args.first() {
        return phases(path, args.get(1).map(String::as_str));
    }
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
                black_box(measure(black_box(&blocks)));
            });
            let head_tail = median_ms(|| {
                black_box(head_tail::prune(black_box(&blocks), &budgets));
            });
            let lines = median_ms(|| {
                black_box(lines::prune(black_box(&blocks), &budgets, &options));
            });
            println!("{label:<8} {class:<6} {copy:>10.3} {measure:>10.3} {head_tail:>12.3} {lines:>12.3}");
        }
    }
}
