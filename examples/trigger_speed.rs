//! Compares keyword-scan engines on one file (a profiling aid).
use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).expect("FILE");
    let text: Vec<u16> = std::fs::read_to_string(path).unwrap().encode_utf16().collect();
    let pats = [
        "error",
        "err!",
        "err_",
        "fail",
        "fatal",
        "panic",
        "exception",
        "traceback",
        "exit",
        "abort",
        "segmentation",
        "core dumped",
        "sigsegv",
        "sigabrt",
        "sigbus",
        "crash",
        "passed",
        "skipped",
        "pending",
        "warnings",
        "test result",
        "ran ",
        "found ",
        "total",
        "xfailed",
        "deselected",
        "expected",
        "received",
        "caused by",
        "not ok",
        "\x01",
        "\x02",
        "\x03",
    ];
    let t = Instant::now();
    let mut narrow = Vec::new();
    for _ in 0..20 {
        narrow =
            text.iter().map(|&u| if u < 0x80 { (u as u8).to_ascii_lowercase() } else { 0x80 }).collect::<Vec<u8>>();
    }
    println!("narrow {:.3} ms", t.elapsed().as_secs_f64() * 1e3 / 20.0);
    let ac =
        aho_corasick::AhoCorasick::builder().match_kind(aho_corasick::MatchKind::LeftmostFirst).build(pats).unwrap();
    let t = Instant::now();
    let mut n = 0;
    for _ in 0..20 {
        n += ac.find_iter(&narrow).count();
    }
    println!("ac auto {:.3} ms ({n})", t.elapsed().as_secs_f64() * 1e3 / 20.0);
    let mut counts = std::collections::BTreeMap::new();
    for m in ac.find_iter(&narrow) {
        *counts.entry(m.pattern().as_usize()).or_insert(0) += 1;
    }
    println!("{:?}", counts.iter().map(|(k, v)| (pats[*k], *v)).collect::<Vec<_>>());
    let dfa = aho_corasick::AhoCorasick::builder()
        .kind(Some(aho_corasick::AhoCorasickKind::DFA))
        .match_kind(aho_corasick::MatchKind::LeftmostFirst)
        .build(pats)
        .unwrap();
    let t = Instant::now();
    let mut n = 0;
    for _ in 0..20 {
        n += dfa.find_iter(&narrow).count();
    }
    println!("ac dfa {:.3} ms ({n})", t.elapsed().as_secs_f64() * 1e3 / 20.0);
    for (label, kind, mk) in [
        ("dfa std", aho_corasick::AhoCorasickKind::DFA, aho_corasick::MatchKind::Standard),
        ("nfa std", aho_corasick::AhoCorasickKind::ContiguousNFA, aho_corasick::MatchKind::Standard),
    ] {
        let a = aho_corasick::AhoCorasick::builder().kind(Some(kind)).match_kind(mk).build(pats).unwrap();
        let t = Instant::now();
        let mut n = 0;
        for _ in 0..20 {
            n += a.find_iter(&narrow).count();
        }
        println!("{label} {:.3} ms ({n})", t.elapsed().as_secs_f64() * 1e3 / 20.0);
        let a =
            aho_corasick::AhoCorasick::builder().kind(Some(kind)).match_kind(mk).prefilter(false).build(pats).unwrap();
        let t = Instant::now();
        let mut n = 0;
        for _ in 0..20 {
            n += a.find_iter(&narrow).count();
        }
        println!("{label} no prefilter {:.3} ms ({n})", t.elapsed().as_secs_f64() * 1e3 / 20.0);
    }
    let re = regex::bytes::Regex::new(&pats.iter().map(|p| regex::escape(p)).collect::<Vec<_>>().join("|")).unwrap();
    let t = Instant::now();
    let mut n = 0;
    for _ in 0..20 {
        n += re.find_iter(&narrow).count();
    }
    println!("regex {:.3} ms ({n})", t.elapsed().as_secs_f64() * 1e3 / 20.0);
    let t = Instant::now();
    let mut n = 0;
    for _ in 0..20 {
        n += narrow.split(|&b| b == b'\n').filter(|l| ac.is_match(*l)).count();
    }
    println!("ac per line is_match {:.3} ms ({n})", t.elapsed().as_secs_f64() * 1e3 / 20.0);
}
#[allow(dead_code)]
fn unused() {}
