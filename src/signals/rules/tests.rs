use super::*;

/// The rule a character at a time: the reference.
fn without_quoted_by_chars(view: &str) -> Option<String> {
    let mut out = String::new();
    let mut quote = None;
    let mut previous = ' ';
    for c in view.chars() {
        match quote {
            Some(q) if c == q => {
                quote = None;
                out.push(c);
            }
            Some(_) => {}
            None => {
                out.push(c);
                let opens = matches!(c, '"' | '`') || (c == '\'' && !previous.is_alphanumeric());
                if opens && view.len() > 1 {
                    quote = Some(c);
                }
            }
        }
        previous = c;
    }
    (quote.is_none() && out != view).then_some(out)
}

#[test]
fn source_in_a_gutter_is_told_from_tables_and_reports() {
    for quoted in ["2204 |           raise TypeError", "   |     ^^^^ error", "  > 7 |   throw new Error(x)", "    |"] {
        assert!(quotes_source(quoted), "{quoted}");
    }
    for report in
        ["| FAILED | test_a |", "error: could not compile", "web_1  | ERROR: boom", "  --> src/a.rs:3:1", "12|x"]
    {
        assert!(!quotes_source(report), "{report}");
    }
}

proptest::proptest! {
    #[test]
    fn quotes_come_out_as_the_character_rule_takes_them(view in "[a-zé1 '\"`x]{0,40}") {
        let mut out = String::new();
        let removed = without_quoted(&view, &mut out);
        proptest::prop_assert_eq!(removed.then_some(out), without_quoted_by_chars(&view));
    }
}
