use super::*;

/// The words of `view` by a plain split: the reference for [`ascii_words`].
fn plain_split(view: &str) -> Vec<Word> {
    view.split_ascii_whitespace()
        .take(MAX_WORDS)
        .map(|w| if w.bytes().any(is_variable) { ANY } else { hash_word(w.as_bytes(), 0, w.len()) })
        .collect()
}

#[test]
fn lines_of_one_template_share_it() {
    let mut t = Templates::new(1000, 0);
    let a = t.id("test parser::errors::unclosed_brace ... ok");
    assert_eq!(t.id("test parser::lexer::keywords ... ok"), a);
    let e = t.id("src/a.py:3: error: Function is missing a type annotation  [no-untyped-def]");
    assert_eq!(t.id("src/b/c.py:110: error: Function is missing a type annotation  [no-untyped-def]"), e);
    assert_ne!(t.id("src/b/c.py:110: error: Module has no attribute \"x\"  [attr-defined]"), e);
    assert_eq!(t.id("FAILED test_split[amount59-3]"), t.id("FAILED test_split[amount7-2]"));
    assert_ne!(t.id("error: could not compile `app` due to 2 previous errors"), a);
    // Wildcards (paths, codes, quoted names) alone do not make two messages one.
    let tsc = t.id("a.ts:1:1 - error TS2591: Cannot find name 'process'.");
    assert_eq!(t.id("b.ts:2:9 - error TS2304: Cannot find name 'x'."), tsc);
    assert_ne!(t.id("c.ts:3:3 - error TS7006: Parameter 'x' implicitly any."), tsc);
}

#[test]
fn ascii_words_agree_with_a_plain_split() {
    for view in [
        "",
        "   ",
        "one",
        "  a  b\tc ",
        "FAILED tests/test_mod.py::test_case_7 - AssertionError: assert 7 == 8",
        &"word ".repeat(40),
        &format!("{} tail", "x".repeat(70)),
        &format!("{}y z{}", " ".repeat(63), "q".repeat(65)),
    ] {
        let mut words = [ANY; MAX_WORDS];
        let len = ascii_words(view.as_bytes(), &mut words);
        let want = plain_split(view);
        assert_eq!(&words[..len], &want[..], "{view:?}");
    }
}

proptest::proptest! {
    #[test]
    fn words_are_those_of_a_plain_split(view in "[ a-z0-9/\t]{0,300}") {
        let mut words = [ANY; MAX_WORDS];
        let len = ascii_words(view.as_bytes(), &mut words);
        let want = plain_split(&view);
        proptest::prop_assert_eq!(&words[..len], &want[..]);
    }

    #[test]
    fn every_mask_path_agrees_with_the_reference(bytes in proptest::collection::vec(0u8..0x80, 0..200), at in 0usize..200) {
        let base = at.min(bytes.len().saturating_sub(1));
        if !bytes.is_empty() {
            let chunk = &bytes[base..(base + 64).min(bytes.len())];
            let want = crate::kernels::portable::masks_by_bytes(chunk);
            proptest::prop_assert_eq!(masks(&bytes, base), want);
            proptest::prop_assert_eq!(crate::kernels::portable::masks_swar(chunk), want);
        }
    }
}

#[test]
fn distinct_lines_cost_a_bounded_number_of_comparisons() {
    // Every line a new template of the same shape: each is compared
    // with at most WAYS of them, not with every one before it.
    let mut t = Templates::new(100_000, 0);
    let words = ["alpha", "beta", "gamma", "delta", "omega", "kappa", "sigma", "theta"];
    for i in 0..20_000usize {
        let (a, b, c) = (words[i % 8], words[i / 8 % 8], words[i / 64 % 8]);
        t.id(&format!("error: {a}{b}{c} {c}{a}{b} {b}{c}{a} {}", words[i / 512 % 8]));
    }
    assert!(t.comparisons <= 20_000 * WAYS, "{} comparisons", t.comparisons);
}
