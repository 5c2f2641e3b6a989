use super::*;

#[test]
fn key_lines_are_told_from_values_and_statements() {
    assert_eq!(line("title: command"), Line::Key(0));
    assert_eq!(line("definitions:"), Line::Key(0));
    assert_eq!(line("  python_hook:"), Line::Key(2));
    assert_eq!(line("  - name: build"), Line::Key(4));
    assert_eq!(line("    \"on\": push"), Line::Key(4));
    assert_eq!(line("    # a comment: with a colon"), Line::Other);
    assert_eq!(line("  - ubuntu-latest"), Line::Other);
    assert_eq!(line("    value text of a block"), Line::Other);
    assert_eq!(line("https://example.com/x"), Line::Foreign);
    assert_eq!(line("error: Process completed with exit code 1."), Line::Key(0));
    assert_eq!(line("int main(void) {"), Line::Foreign);
    assert_eq!(line("src/x.ts(1,1): error TS2345: Argument of type"), Line::Foreign);
    assert_eq!(line("tests/test_a.py:12: AssertionError"), Line::Foreign);
    assert_eq!(line("    return x;"), Line::Foreign);
}

#[test]
fn a_documents_keys_come_by_depth() {
    let text = "# schema\ntitle: x\ndefinitions:\n  a:\n    type: string\n  b:\n    items:\n      - one\n      - deep: 1\nrequired: [a]\n";
    let mut y = Yaml::default();
    for (k, v) in text.lines().enumerate() {
        y.read(k as u32, v);
    }
    assert!(y.is_document(0));
    assert!(!y.is_document(9), "source with more declarations than keys");
    // Source is read for its first lines only.
    let mut c = Yaml::default();
    for k in 0..1000 {
        c.read(k, if k % 2 == 0 { "int f(void) {" } else { "  key: value" });
    }
    assert_eq!(c.lines, GIVE_UP_AFTER);
    assert_eq!(y.tiers(), vec![vec![1, 2, 9], vec![3, 5], vec![4, 6], vec![8]]);
}
