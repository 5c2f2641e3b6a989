use super::*;
use crate::text::utf16;

#[test]
fn printed_markers_cost_their_length_not_a_hash_of_what_they_claim() {
    // A tool printed 200 markers that each claim the rest of its output.
    let mut text = String::new();
    for i in 0..200 {
        let rest = (200 - i) * 51 - 1;
        text.push_str(&format_marker(&format!("{i:024x}"), rest, Unit::Lines));
        text.push('\n');
        text.push_str(&"a line of the tool's own output\n".repeat(50));
    }
    let t = utf16(&text);
    crate::hash::tests::HASHED_UNITS.with(|n| n.set(0));
    // Unpruned text against itself: every marker is literal, no hash names anything.
    assert_eq!(recover(&t, &t, "000000000000000000000000"), None);
    let hashed = crate::hash::tests::HASHED_UNITS.with(|n| n.get());
    assert_eq!(hashed, 0, "{hashed} code units hashed for printed markers");
}

#[test]
fn recover_walks_markers_and_verifies_hashes() {
    use crate::content::{Block, render_texts};
    use crate::strategy::lines::Fate;
    use crate::strategy::lines::Kept;
    use crate::strategy::lines::index::LineIndex;
    use crate::strategy::lines::render::render_blocks;
    let mut text = String::new();
    for i in 0..40 {
        text.push_str(&format!("line {i} {}\n", "x".repeat(90)));
    }
    // A tool printed a marker-looking line that names the hash of lines 0..2.
    let spoof_hash = content_hash(&utf16(&text.lines().take(2).map(|l| format!("{l}\n")).collect::<String>()));
    text.insert_str(0, &format!("{}\n", format_marker(&spoof_hash, 2, Unit::Lines)));
    let t = utf16(&text);
    let blocks = [Block::Text(&t)];
    let index = LineIndex::new(&blocks).unwrap();
    let mut fates = vec![Fate::Keep; index.line_count()];
    for f in &mut fates[5..15] {
        *f = Fate::Drop;
    }
    fates[20] = Fate::Cut { from: 3, to: 90 };
    for f in &mut fates[30..] {
        *f = Fate::Drop;
    }
    let plan = render_blocks(&blocks, &index, &Kept::from_fates(&fates));
    let content = render_texts(&blocks, &plan).collect::<Vec<_>>().concat();
    assert_eq!(plan.recoverable.len(), 3);
    let recovered = plan.recovered(&blocks);
    for (hash, dropped) in &recovered {
        assert_eq!(recover(&t, &content, hash).as_ref(), Some(dropped));
    }
    // The spoofed marker is literal: its hash names nothing dropped here.
    assert_eq!(recover(&t, &content, &spoof_hash), None);
    assert_eq!(recover(&t, &content, "0123456789abcdef01234567"), None);
    // Against another original, nothing verifies.
    let other = utf16(&text.replace("line 7 ", "line 7!"));
    let dropped_hash = recovered.iter().find(|(_, v)| String::from_utf16_lossy(v).contains("line 7 ")).unwrap().0;
    assert_eq!(recover(&other, &content, dropped_hash), None);
}

#[test]
fn markers_have_headrooms_shape_and_parse_back() {
    let h = content_hash(&utf16("dropped\n"));
    let m = format_marker(&h, 12, Unit::Lines);
    assert_eq!(m, format!("<<ccr:{h} 12_lines_offloaded>>"));
    assert_eq!(m.len(), marker_len(12, Unit::Lines));
    let bad_hash = format!("{MARKER_OPEN}zz>>");
    let leading_zero = m.replace(" 12_", " 07_");
    let text = utf16(&format!("a {m} b {bad_hash} {} {leading_zero}", format_marker(&h, 3, Unit::Chars)));
    let found = find_markers(&text);
    assert_eq!(found.len(), 2);
    assert_eq!((found[0].count, found[0].unit, found[0].hash.as_str()), (12, Unit::Lines, h.as_str()));
    assert_eq!((found[1].count, found[1].unit), (3, Unit::Chars));
}
