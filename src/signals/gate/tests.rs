use super::*;

#[test]
fn the_gate_opens_only_for_lines_with_an_anchor() {
    let narrowed = |s: &str| narrowed_anchor(s);
    assert_eq!(gate(&narrowed("FAILED tests/test_mod.py::test_case_1 - AssertionError: assert 1 == 2\n")), 0);
    assert_ne!(gate(&narrowed("test result: FAILED. 1 passed; 2 failed\n")) & GATE_SUMMARY, 0);
    assert_ne!(gate(&narrowed("  \u{2713} renders (3 ms)\n")) & GATE_PASS, 0);
    assert_ne!(gate(&narrowed("test x ... ok\n")) & GATE_PASS, 0);
}
