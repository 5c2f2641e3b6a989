use super::*;
use proptest::prelude::*;

/// The view a character at a time (the general path only): the reference.
fn view_by_chars(line: &[u16]) -> String {
    let mut out = String::new();
    let mut at = content_start(line);
    if let Some(frame) = crate::text::last_frame(&line[at..]) {
        at += frame.start;
        while let Some(len) = escape_len(&line[at..]) {
            at += len;
        }
    }
    let mut leading = true;
    while at < line.len() {
        if leading && (0x2500..=0x257F).contains(&line[at]) {
            out.push(' ');
            at += 1;
            continue;
        }
        let u = line[at];
        match u {
            0x1B => at += escape_len(&line[at..]).unwrap_or(1),
            0x5E if escape_len(&line[at..]).is_some() => at += escape_len(&line[at..]).unwrap_or(1),
            0x0D | 0x0A => at += 1,
            _ => {
                let width = crate::text::step_forward(line, at);
                let c = char::decode_utf16(line[at..at + width].iter().copied())
                    .next()
                    .map_or('\u{FFFD}', |c| c.unwrap_or('\u{FFFD}'));
                out.push(c);
                leading &= c == ' ' || c == '\t';
                at += width;
            }
        }
    }
    out
}

proptest! {
    #[test]
    fn every_view_path_agrees_with_the_reference(line in prop::collection::vec(prop_oneof![
        8 => 0x20u16..0x7F, 1 => Just(0x09u16), 1 => Just(0x0Du16), 1 => Just(0x1Bu16), 1 => Just(0x5Eu16),
        1 => Just(0x5Bu16), 1 => 0x2500u16..0x2580, 2 => 0x80u16..0x800, 2 => 0xD800u16..0xE000, 2 => 0xE000u16..=0xFFFF,
    ], 0..60)) {
        let mut out = String::new();
        view(&line, &mut out);
        prop_assert_eq!(&out, &view_by_chars(&line));
        // The plain copy (the kernel this CPU runs) says the same of
        // the line as the general path.
        let body = line.strip_suffix(&[u16::from(b'\n')]).unwrap_or(&line);
        let mut portable = Vec::new();
        let plain = crate::kernels::plain_bytes(body, &mut portable);
        if plain {
            prop_assert_eq!(portable, out.into_bytes());
        }
    }
}

#[test]
fn a_tools_line_prefix_is_read_past_and_nothing_like_it_is() {
    let read = |line: &str| {
        let mut out = String::new();
        view(&crate::text::utf16(line), &mut out);
        out
    };
    for (line, want) in [
        ("==14506== Invalid read of size 8", "Invalid read of size 8"),
        ("==14506==    at 0x1095EF: kv_del (kv.c:77)", "   at 0x1095EF: kv_del (kv.c:77)"),
        ("==14506== ", ""),
        ("==14506==", ""),
        ("--14506-- REDIR: 0x49b1910", "REDIR: 0x49b1910"),
        ("**14506** Valgrind's own warning", "Valgrind's own warning"),
        ("INTERNALERROR>   File \"tests/conftest.py\", line 20", "  File \"tests/conftest.py\", line 20"),
        ("***   File \"pkg/core.py\", line 228", "  File \"pkg/core.py\", line 228"),
        ("   258\t        const DEF_AWF = {};", "        const DEF_AWF = {};"),
        ("     1\u{2192}import os", "import os"),
        ("123456\t    x = 1", "    x = 1"),
        ("2026-04-22T16:11:57.0127816Z ==7== Invalid free()", "Invalid free()"),
    ] {
        assert_eq!(read(line), want, "{line:?}");
        let mut plain = String::new();
        assert!(!plain_view(&crate::text::utf16(line), &mut plain), "{line:?} has a prefix to read past");
    }
    // Lines that only look like one keep every character.
    for line in [
        "== heading ==",
        "==== 12 ====",
        "--- a/src/x.py",
        "-- 12 --",
        "**bold** text",
        "==12==x",
        "INTERNALERROR>x",
        "***",
        "***bold***",
        // du's rows, uniq -c's counts, wider numbers: no six-column field and a tab.
        "4\t./src/a.rs",
        "      12 lines",
        "1234567\tx",
        "  12  \tx",
        "      \tx",
    ] {
        assert_eq!(read(line), line, "{line:?}");
    }
}

#[test]
fn only_valgrinds_tag_marks_a_glued_line() {
    let glued = |line: &str| glued_start(&crate::text::utf16(line), 0);
    assert_eq!(glued("ok 1==6649== Invalid read of size 8"), Some(13));
    assert_eq!(glued("ok 1**6649** Valgrind's own warning"), Some(13));
    // compileall's mark opens a line; make's is inside one.
    assert_eq!(glued("make: *** [Makefile:13: build/pack] Error 1"), None);
    assert_eq!(glued("x ***   File \"pkg/core.py\", line 228"), None);
}
