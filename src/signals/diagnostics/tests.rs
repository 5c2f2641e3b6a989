//! Diagnostics read from each tool's shape, and the flood compare held to its reference.

use super::*;

fn rule_and_severity(view: &str) -> Option<(u64, Severity)> {
    read(view).map(|d| (d.rule, d.severity))
}

#[test]
fn each_tools_shape_is_read_with_its_rule() {
    let cases: &[(&str, &[u8], Severity)] = &[
        ("F821 Undefined name `term_lenght`", b"F821", Severity::Unstated),
        ("D212 [*] Multi-line docstring summary should start at the first line", b"D212", Severity::Unstated),
        ("src/app.py:3:1: F401 'os' imported but unused", b"F401", Severity::Unstated),
        ("  246:9  F524 `.format` call is missing argument(s)", b"F524", Severity::Unstated),
        (
            "pkg/iterutils.py:436:11: E1120: No value for argument 'size' in function call (no-value-for-parameter)",
            b"E1120",
            Severity::Error,
        ),
        (
            "toolz/__init__.py:11:0: W0622: Redefining built-in 'sorted' (redefined-builtin)",
            b"W0622",
            Severity::Warning,
        ),
        ("toolz/__init__.py:1:0: C0114: Missing module docstring (missing-module-docstring)", b"C0114", Severity::Note),
        // flake8's codes have three digits; its `E` is a style.
        ("src/app.py:3:80: E501 line too long (88 > 79 characters)", b"E501", Severity::Unstated),
        (
            "pkg/a.py:12: error: Unsupported operand types for + (\"str\" and \"bytes\")  [operator]",
            b"operator",
            Severity::Error,
        ),
        ("  463:11  error    'helpWith' is not defined  no-undef", b"no-undef", Severity::Error),
        ("  1:30  warning  Strings must use doublequote  quotes", b"quotes", Severity::Warning),
        ("src/x.ts(12,5): error TS2345: Argument of type 'string' is not assignable", b"TS2345", Severity::Error),
        ("error[E0308]: mismatched types", b"E0308", Severity::Error),
        ("src/m.c:12:5: warning: unused variable 'x' [-Wunused-variable]", b"-Wunused-variable", Severity::Warning),
        // pyright names its rule in camel case, in parentheses.
        (
            "  /src/pkg/__main__.py:107:37 - error: Argument missing for parameter \"Loader\" (reportCallIssue)",
            b"reportCallIssue",
            Severity::Error,
        ),
        (
            "  /src/pkg/core.py:443:46 - error: No parameter named \"errors\" (reportCallIssue)",
            b"reportCallIssue",
            Severity::Error,
        ),
    ];
    for &(view, rule, severity) in cases {
        assert_eq!(rule_and_severity(view), Some((hash(rule), severity)), "{view}");
        assert!(worth_reading(&crate::text::utf16(view)), "{view} skipped unread");
    }
    for snippet in
        ["   |", "12 |     let y = x;", "   |         ^^ help: prefix it: `_x`", "   = note: on by default", ""]
    {
        assert!(!worth_reading(&crate::text::utf16(snippet)), "{snippet} read");
    }
    // A warning without a code or rule name: its first words are its rule.
    let (a, b) = (read("warning: unused variable: `x`").unwrap(), read("warning: unused variable: `yy`").unwrap());
    assert_eq!((a.rule, a.severity), (b.rule, Severity::Warning));
    assert_ne!(a.rule, read("warning: unused import: `y`").unwrap().rule);
    // go vet: a message right after `path:L:C: `, no severity and no
    // rule name: its first words are its rule.
    let vet = |view: &str| read(view).map(|d| (d.rule, d.severity));
    let printf = vet("pkg/a.go:16:9: fmt.Sprintf format %d has arg it.Pull of wrong type string");
    assert_eq!(printf.map(|(_, s)| s), Some(Severity::Unstated));
    assert_eq!(printf, vet("pkg/b.go:21:9: fmt.Sprintf format %d has arg it.Pull of wrong type string"));
    assert_ne!(printf.map(|(r, _)| r), vet("pkg/a.go:467:2: unreachable code").map(|(r, _)| r));
    assert!(vet("pkg/a.go:467:2: unreachable code").is_some());
}

#[test]
fn prose_paths_and_hits_are_not_diagnostics() {
    for view in [
        "Collecting requests==2.31.0",
        "v2 released to main",
        "src/app.py:12:    return x",
        // A search hit with its column quotes its (indented) line.
        "src/app.py:12:5:    return x",
        "src/app.py:12: return x",
        "Downloading https://example.com/a.tar.gz (12 kB)",
        "   Compiling serde v1.0.0",
        "2026-04-22T16:11:57Z starting job",
        "A1 sauce",
    ] {
        assert_eq!(read(view), None, "{view}");
    }
}

proptest::proptest! {
    /// Two lines `same_reading` calls alike read alike, by every test
    /// the scan asks of them: digits changed anywhere, the rule's own
    /// ones included (those must then not be called alike).
    #[test]
    fn lines_called_alike_read_alike(
        shape in 0usize..8,
        a in proptest::collection::vec(0u8..10, 8),
        b in proptest::collection::vec(0u8..10, 8),
    ) {
        let shapes = [
            "src/m#.py:#:#: E#0# line too long (#0 > 79 characters)",
            "F#2# Undefined name `x#`",
            "pkg/a.py:#: error: Argument # has incompatible type  [arg-type#]",
            "  #:#  error    'x#' is not defined  no-undef#",
            "src/x.ts(#,#): error TS#34#: Argument of type 'T#'",
            "warning: unused variable: `x#` [-Wunused#]",
            "  --> src/m#.rs:#:#",
            "src/m#.py",
        ];
        let fill = |d: &[u8]| {
            let mut it = d.iter().cycle();
            shapes[shape].chars().map(|c| if c == '#' { char::from(b'0' + *it.next().unwrap()) } else { c }).collect::<String>()
        };
        let (x, y) = (fill(&a), fill(&b));
        let (ux, uy) = (crate::text::utf16(&x), crate::text::utf16(&y));
        let rule = read_with_rule(&x).map_or(0..0, |(_, r)| r);
        if same_reading(&uy, &ux, rule) {
            proptest::prop_assert_eq!(read(&y), read(&x));
            proptest::prop_assert_eq!(worth_reading(&uy), worth_reading(&ux));
            proptest::prop_assert_eq!(is_file_header(&y), is_file_header(&x));
            proptest::prop_assert_eq!(is_location_line(&y), is_location_line(&x));
        } else {
            proptest::prop_assert!(x != y);
        }
    }

    /// The compare this CPU runs says what the portable loop says, on lines
    /// of every length around a vector's, with digits and their
    /// neighbours (`/`, `:`) changed anywhere.
    #[test]
    fn the_kernel_this_cpu_runs_agrees_with_the_portable_one(
        a in proptest::collection::vec(
            proptest::prop_oneof![4 => 0x2Fu16..0x3B, 1 => 0x20u16..0x7F, 1 => 0x80u16..=0xFFFF],
            0..72,
        ),
        flips in proptest::collection::vec((0usize..72, 0x2Fu16..0x3B), 0..3),
    ) {
        let mut b = a.clone();
        for (at, unit) in flips {
            if let Some(u) = b.get_mut(at) {
                *u = unit;
            }
        }
        let portable = crate::kernels::portable::same_but_digits(&a, &b);
        proptest::prop_assert_eq!(crate::kernels::same_but_digits(&a, &b), portable);
    }
}

#[test]
fn a_finding_quoting_its_source_in_a_gutter_is_a_list_of_findings() {
    // ruff's full format: a finding, its location line, sixteen lines of
    // quoted source and help in the gutter, a blank line.
    let mut lines = Vec::new();
    for i in 0..30 {
        lines.push(format!("UP031 Use format specifiers instead of percent format {i}"));
        lines.push(format!("  --> pkg/m{i}.py:{}:5", i + 3));
        lines.push("   |".to_owned());
        for j in 0..14 {
            lines.push(format!("{:>2} |     x = '%s' % value_{j}", i + j));
        }
        lines.push("   | ^^^^^^^^^^^^".to_owned());
        lines.push(String::new());
    }
    assert!(mostly_findings(lines.iter().cloned()));
    for quoted in ["   |", "12 |     let y = x;", "   | ^^^", " 4 | | import re"] {
        assert!(is_quoted_source_line(quoted), "{quoted}");
    }
    // A table's rows, a shell pipe, a YAML block scalar are no gutter.
    for other in ["| a | b |", "cat x | grep y", "script: |", "12|x", "   |x"] {
        assert!(!is_quoted_source_line(other), "{other}");
    }
    // The same findings quoting their source as plain text: too few.
    let plain = lines.iter().map(|l| if is_quoted_source_line(l) { format!("x{l}") } else { l.clone() });
    assert!(!mostly_findings(plain));
}
