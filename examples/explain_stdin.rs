//! Prints the lines of stdin that carry signal, with their class: a quick
//! way to see what the line plan ranks. `cargo run --release
//! --no-default-features --example explain_stdin < log`.
use std::io::Read;

use tool_result_pruner::lines::split_lines;
use tool_result_pruner::signals::{scan, view};

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).expect("stdin is UTF-8");
    let text: Vec<u16> = input.encode_utf16().collect();
    let lines = split_lines(&text);
    let mut buf = String::new();
    for (i, s) in scan(&text, &lines).iter().enumerate() {
        if s.failure > 0 || s.summary || s.frame {
            view(&text[lines[i].clone()], &mut buf);
            let class =
                format!("f{}{}{}", s.failure, if s.summary { " sum" } else { "" }, if s.frame { " frame" } else { "" });
            println!("{:>6} {:<12} {}", i + 1, class, buf.chars().take(140).collect::<String>());
        }
    }
}
