use super::*;

#[test]
fn windows_hold_whole_lines_up_to_the_window() {
    for text in
        [String::new(), "a\n".repeat(70_000), format!("x{}\nshort\n", "y".repeat(3 * SCAN_WINDOW)), "abc".to_owned()]
    {
        let t = crate::text::utf16(&text);
        let starts: Vec<u32> = crate::text::split_lines(&t).iter().map(|r| r.start as u32).collect();
        let lines = TextLines { text: &t, starts: &starts };
        let ws = windows(lines);
        assert_eq!(ws.iter().map(|w| w.len()).sum::<usize>(), lines.len());
        for w in &ws {
            let units = lines.range(w.end - 1).end - lines.range(w.start).start;
            assert!(w.len() == 1 || units <= SCAN_WINDOW, "{w:?}: {units} units");
            // Greedy: the next line would not have fit.
            if w.end < lines.len() {
                assert!(lines.range(w.end).end - lines.range(w.start).start > SCAN_WINDOW);
            }
        }
    }
}
