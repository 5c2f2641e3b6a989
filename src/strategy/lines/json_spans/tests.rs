use super::*;
use crate::text::utf16;

/// The line with each gap as `<N>`, and the size it renders to with real markers.
fn render(line: &str, room: usize) -> (String, usize) {
    let t = utf16(line);
    let (gaps, _) = plan(&t, room).unwrap();
    let (mut out, mut size) = (String::new(), 0);
    let mut at = 0;
    for (s, e) in gaps {
        out.push_str(&String::from_utf16(&t[at..s as usize]).unwrap());
        out.push_str(&format!("<{}>", e - s));
        size += s as usize - at + ((e - s) as usize).min(marker_len(u64::from(e - s), Unit::Chars));
        at = e as usize;
    }
    out.push_str(&String::from_utf16(&t[at..]).unwrap());
    (out, size + t.len() - at)
}

#[test]
fn the_cost_kept_up_to_date_is_the_cost_recomputed() {
    let mut spans = Spans::new(1000);
    for (a, b) in [(500, 520), (0, 1), (990, 1000), (510, 600), (100, 140), (141, 150), (95, 160), (300, 301)] {
        spans.insert(a, b);
        let kept: usize = spans.ranges.iter().map(|&(s, e)| e - s).sum();
        let gaps: usize = spans.gaps().iter().map(|&(s, e)| gap_cost((e - s) as usize)).sum();
        assert_eq!(spans.cost(), kept + gaps, "after {a}..{b}: {:?}", spans.ranges);
    }
}

#[test]
fn members_of_two_levels_are_found_in_one_scan() {
    let t = utf16(r#"{"a":1,"e":[],"b":{"x":"s,}","y":[1,2],"o":{}},"c":[{"z":0},3]}"#);
    let (top, inner, _) = members(&t).unwrap();
    let inner: Vec<Member> = inner.iter().map(|m| m.member).collect();
    let keys: Vec<String> = top.iter().map(|m| String::from_utf16(&t[m.start..m.start + 3]).unwrap()).collect();
    assert_eq!(keys, [r#""a""#, r#""e""#, r#""b""#, r#""c""#]);
    // b's two keys, then c's two elements.
    let inner: Vec<String> = inner.iter().map(|m| String::from_utf16(&t[m.start..m.end]).unwrap()).collect();
    assert_eq!(inner, [r#""x":"s,}""#, r#""y":[1,2]"#, r#""o":{}"#, r#"{"z":0}"#, "3"]);
    assert!(members(&utf16("not json")).is_none());
}

#[test]
fn every_top_level_key_comes_before_the_second_level() {
    let big = "x".repeat(5000);
    let line = format!(
        r#"{{"name":"express","readme":"{big}","versions":["4.0.0","4.1.0","5.0.0"],"dependencies":{{"body-parser":"2.0.0","cookie":"0.7.1","debug":"4.3.6"}},"dist":{{"integrity":"sha512-abc","tarball":"https://example.org/e.tgz"}}}}"#
    );
    let (small, size) = render(&line, 400);
    for key in ["\"name\":\"express\"", "\"readme\":\"xxx", "\"versions\":[", "\"dependencies\":{", "\"dist\":{"] {
        assert!(small.contains(key), "{key}: {small}");
    }
    assert!(size <= 400, "{size}: {small}");
    let (large, size) = render(&line, 900);
    assert!(size <= 900, "{size}");
    assert!(large.contains("\"body-parser\":\"2.0.0\"") && large.contains("\"integrity\""), "{large}");
    // A cut never splits a string that fits, nor a number.
    assert!(!large.contains("\"2.0<"), "{large}");
}
