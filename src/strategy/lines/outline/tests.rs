use super::super::readers::patterns::patterns;
use super::*;
use crate::text::utf16;

fn tiers_of(kind: Kind, text: &str) -> Vec<Vec<u32>> {
    let t = utf16(text);
    let starts: Vec<u32> = crate::text::split_lines(&t).iter().map(|r| r.start as u32).collect();
    tiers(kind, TextLines { text: &t, starts: &starts }).0
}

#[test]
fn listings_order_directories_shallowest_first() {
    // find: a directory is a path the next one extends; files are not.
    let find =
        ".\n./a\n./a/x.rs\n./a/deep\n./a/deep/y.rs\n./a/deep/deeper\n./a/deep/deeper/w.rs\n./b\n./b/z.rs\n./main.rs\n";
    let t = tiers_of(Kind::Listing, find);
    // After the top, its files, the first path under each top folder (./a,
    // ./b) and the first entry of each directory: ./a, ./b and ./a/deep
    // (down to one level below the shallowest), then ./a/deep/deeper; no
    // file is a directory.
    assert_eq!(t[3], vec![2, 8], "{t:?}");
    assert_eq!(t[5], vec![1, 3, 7], "{t:?}");
    assert_eq!(t[6], vec![5], "{t:?}");
    // ls -R: headers by depth, before the first entries.
    let ls = ".:\na\nb\n\n./a:\nx\nsub\n\n./a/sub:\ny\n\n./b:\nz\n";
    let t = tiers_of(Kind::Listing, ls);
    assert_eq!(t[2], vec![0, 4, 11], "{t:?}"); // .:, ./a:, ./b:
    assert_eq!(t[3], vec![8], "{t:?}"); // ./a/sub:
}

#[test]
fn a_find_of_files_reads_its_top_folders_before_its_first_folders_files() {
    // `find -type f`: no `.` line; a first folder of many files, then others.
    let mut find: String = (0..200).map(|i| format!("./modules/m{i}.js\n")).collect();
    for top in ["actual", "es", "stable"] {
        find.extend((0..30).map(|i| format!("./{top}/sub{}/f{i}.js\n", i % 3)));
    }
    find.push_str("./package.json\n");
    let t = tiers_of(Kind::Listing, &find);
    // The top is the first paths, not all of the first folder's files.
    assert_eq!(t[0], (0..10).collect::<Vec<u32>>(), "{t:?}");
    assert_eq!(t[2], vec![290], "{t:?}");
    // The first path under each top folder, in order.
    assert_eq!(t[3], vec![0, 200, 230, 260], "{t:?}");
    // A `find` of several roots: the roots are the top folders.
    let roots = "a\na/x\na/x/f.go\nb\nb/y\nb/y/g.go\n";
    assert_eq!(tiers_of(Kind::Listing, roots)[3], vec![1, 4]);
}

#[test]
fn a_finds_first_paths_and_top_files_come_first() {
    // A package: its first paths, a deep test tree, then its top files.
    let mut find = String::from("pkg\npkg/.gitattributes\npkg/src\n");
    find.extend((0..6).map(|i| format!("pkg/src/mod_{i}.py\n")));
    for d in 0..20 {
        find.push_str(&format!("pkg/tests/cases/case_{d}\npkg/tests/cases/case_{d}/input.txt\n"));
    }
    find.push_str("pkg/README.md\npkg/pyproject.toml\n");
    let t = tiers_of(Kind::Listing, &find);
    // The first ten lines in order, then the top files not among them.
    assert_eq!(t[0], (0..10).collect::<Vec<u32>>(), "{t:?}");
    let n = find.lines().count() as u32;
    assert_eq!(t[2], vec![1, n - 2, n - 1], "{t:?}");
    // A top of many files is no tier of its own: the folders under it say more.
    let many: String =
        (0..40).map(|i| format!("top/file_{i}.go\n")).chain(["top/sub\ntop/sub/x.go\n".into()]).collect();
    assert!(tiers_of(Kind::Listing, &many)[2].is_empty());
}

#[test]
fn a_listing_with_sizes_reads_its_largest_files_second() {
    // `du -a` in tree order: files and the folders that hold them.
    let du = "4.0K\t./a/x.js\n12K\t./a/z.js\n16K\t./a\n8.0K\t./b/y.js\n8.0K\t./b\n64K\t./c.js\n96K\t.\n";
    let t = tiers_of(Kind::Listing, du);
    // The files, largest first (of one size, the first listed first); a
    // folder's total is no file.
    assert_eq!(t[1], vec![5, 1, 3, 0], "{t:?}");
    // Sorted by size (`du -a | sort -h`), the rows are ranked by their
    // order alone: every row from the large end, folders too.
    let sorted = "4.0K\t./a/x.js\n8.0K\t./b/y.js\n12K\t./a\n12K\t./a/z.js\n20K\t./b\n64K\t./c.js\n96K\t.\n";
    assert_eq!(tiers_of(Kind::Listing, sorted), vec![vec![], vec![6, 5, 4, 3, 2, 1, 0]]);
    // `ls -lS`: the large end is the start.
    let ls_s = "-rw-r--r-- 1 u g 900 Dec  7 02:53 b.txt\n-rw-r--r-- 1 u g 90 Dec  7 02:53 a.txt\n-rw-r--r-- 1 u g 9 Dec  7 02:53 c.txt\n";
    assert_eq!(tiers_of(Kind::Listing, ls_s), vec![vec![], vec![0, 1, 2]]);
    // Rows of one size are in name order, not sorted by size.
    let dirs = "drwxr-xr-x 2 u g 4096 Dec  7 02:53 a\ndrwxr-xr-x 2 u g 4096 Dec  7 02:53 b\n";
    assert_ne!(tiers_of(Kind::Listing, dirs)[1], vec![1, 0]);
    // `find -ls` rows are grouped as `find` paths are: the first path under
    // each top folder, then the directories (a row the next one extends).
    let find_ls = "  11  4 drwxr-xr-x  2 root root  4096 Dec  7 02:53 ./a\n  12  4 -rw-r--r--  1 root root 900 Dec  7 02:53 ./a/x.py\n  13  4 drwxr-xr-x  2 root root  4096 Dec  7 02:53 ./b\n  14  4 -rw-r--r--  1 root root 90000 Dec  7 02:53 ./b/y.py\n";
    let t = tiers_of(Kind::Listing, find_ls);
    assert_eq!(t[1], vec![3, 1], "{t:?}"); // y.py, x.py; no directory
    assert_eq!(t[3], vec![1, 3], "{t:?}"); // the first path under ./a and ./b
    assert_eq!(t[5], vec![0, 2], "{t:?}"); // ./a and ./b
    // Of more files than the tier holds, the largest ones.
    let many: String = (0..40).map(|i| format!("-rw-r--r-- 1 u g {} Dec  7 02:53 f{i}.txt\n", (i * 37) % 41)).collect();
    let t = tiers_of(Kind::Listing, &many);
    let sizes: Vec<usize> = t[1].iter().map(|&k| (k as usize * 37) % 41).collect();
    assert_eq!(sizes, vec![40, 39, 38, 37, 36, 35, 34, 33], "{t:?}");
}

#[test]
fn tiers_put_the_map_first() {
    let code = tiers_of(
        Kind::Code,
        "import os\n\n# Adds.\ndef add(a, b):\n    return a + b\n\nclass K:\n    def m(self):\n        pass\n",
    );
    assert_eq!(code[0], vec![3, 6]); // def add, class K
    assert_eq!(code[1], vec![0]); // import os, among the first imports
    assert_eq!(code[2], vec![7]); // def m
    assert_eq!(code[3], vec![2]); // the comment above def add
    // Values after declarations; a value bound in a body is no entry.
    let c = tiers_of(
        Kind::Code,
        "#define LIMIT 4\nstatic int counts[4] = {0};\nstatic int count(void);\nconst fn f() {}\nfn g() {\n    let x = 1;\n}\nexport const h = (a) => a;\n",
    );
    assert_eq!(c[0], vec![2, 3, 4, 7]); // count, f, g, h
    assert_eq!(c[1], vec![0]); // LIMIT, among the first values
    assert!(c.iter().all(|t| !t.contains(&5)), "let x in a body: {c:?}");
    let hits = tiers_of(Kind::Search, "a.py:1:x\na.py:2:y\nb.py:5:z\nc.py:7:w\n");
    assert_eq!(hits[0], vec![0, 2, 3]);
    assert_eq!(hits[1], vec![1]);
    let json = tiers_of(
        Kind::Json,
        "{\n  \"a\": {\n    \"b\": 1\n  },\n  \"list\": [\n    {\n      \"x\": 1\n    },\n    {\n      \"x\": 2\n    }\n  ]\n}\n",
    );
    // Top-level keys first (a small object whole with its key), then the second level.
    assert_eq!(json[0], vec![0, 1, 2, 3, 4, 12], "{json:?}");
    assert!(json[1].contains(&2), "{json:?}");
    // The second array element comes last.
    assert!(json[3].contains(&9), "{json:?}");
    // Brackets, commas and escaped quotes inside strings open and close nothing.
    let quoted =
        tiers_of(Kind::Json, "{\n  \"a\": \"{[\\\"]}, x\",\n  \"b\": \"\\\\\",\n  \"c\": {\n    \"d\": 1\n  }\n}\n");
    assert_eq!(quoted[0], vec![0, 1, 2, 3, 4, 5, 6], "{quoted:?}");
    assert_eq!(quoted[1], vec![4, 5], "{quoted:?}");
}

#[test]
fn a_jsons_second_level_comes_value_by_value_each_spread() {
    // A long map of release times, then a small object of peers.
    let times: String = (0..20).map(|i| format!("    \"1.{i}.0\": \"2026-01-{:02}\",\n", i + 1)).collect();
    let text = format!(
        "{{\n  \"time\": {{\n{times}    \"2.0.0\": \"2026-02-01\"\n  }},\n  \"peers\": {{\n    \"a\": \"1\",\n    \"b\": \"2\",\n    \"c\": \"3\"\n  }}\n}}\n"
    );
    let json = tiers_of(Kind::Json, &text);
    // The small object of peers comes whole after its key in the top level.
    assert_eq!(json[0], vec![0, 1, 24, 25, 26, 27, 28, 29], "{json:?}");
    // Each value's first key, then each one's last, then each middle.
    assert_eq!(json[1][..6], [2, 25, 22, 27, 12, 26], "{json:?}");
    // A value's closing bracket after its keys; the small object is whole early.
    assert_eq!(json[1][7], 28, "{json:?}");
    assert_eq!(json[1].len(), 21 + 1 + 3 + 1, "every second-level line once: {json:?}");
}

#[test]
fn a_jsons_small_objects_come_whole_with_their_keys_in_the_top_level() {
    let deps: String = (0..6).map(|i| format!("    \"d{i}\": \"^{i}\",\n")).collect();
    let text = format!(
        "{{\n  \"name\": \"x\",\n  \"a\": 1,\n  \"b\": 2,\n  \"deps\": {{\n{deps}    \"d6\": \"^6\"\n  }},\n  \"peers\": {{\n    \"p\": \">=1\",\n    \"q\": \">=2\"\n  }},\n  \"c\": 3\n}}\n"
    );
    let json = tiers_of(Kind::Json, &text);
    // The first four in order, then the rest spread (first, last, middle,
    // …): the seven deps stay a second-level value; the two peers and
    // their closing bracket follow their key.
    assert_eq!(json[0], vec![0, 1, 2, 3, 4, 18, 13, 14, 15, 16, 17], "{json:?}");
}

#[test]
fn round_robin_takes_each_group_in_turn() {
    let lists = vec![vec![1, 2, 3], vec![10], vec![20, 21]];
    assert_eq!(round_robin(&lists, 0), [1, 10, 20, 2, 21, 3]);
    assert_eq!(round_robin(&lists, 1), [2, 21, 3]);
}

#[test]
fn hit_paths_are_what_the_pattern_takes() {
    let p = patterns();
    for v in [
        "src/a.rs:12:fn x()",
        "a:1:",
        "a b:1:",
        ":1:",
        "a:x:",
        "a:1",
        &format!("{}:1:", "p".repeat(400)),
        &format!("{}:1:", "p".repeat(401)),
    ] {
        let want = p.search_hit.find(v.as_bytes()).map(|m| &v.as_bytes()[..v[..m.end() - 1].rfind(':').unwrap()]);
        assert_eq!(search_hit(v.as_bytes()).map(|(path, _)| path), want, "{v}");
    }
}

#[test]
fn a_searchs_file_is_led_by_its_first_hit_that_is_no_import() {
    let hits = tiers_of(
        Kind::Search,
        "a.py:1:from x.errors import Bad\na.py:9:    import x\na.py:50:        raise Bad(\na.py:60:    except Bad:\n\
         b.rs:3:use x::Bad;\nb.rs:4:use y::Bad;\nc.js:1:const Bad = require('x')\nc.js:8:throw new Bad()\n",
    );
    // a.py's raise, b.rs's first import (it has nothing else), c.js's throw.
    assert_eq!(hits[0], vec![2, 4, 7]);
    // Then each file's other hits in their order.
    assert_eq!(hits[1], vec![0, 5, 6, 1, 3]);
}

#[test]
fn a_searchs_file_is_led_by_its_definition_of_what_its_hits_name() {
    let hits = tiers_of(
        Kind::Search,
        "a.rs:20:/// the kind of a match\na.rs:62:pub enum MatchKind {\na.rs:90:    MatchKind::Standard\n\
         b.rs:3:// unsafe code\nb.rs:18:unsafe fn offset_from(a: usize) {\nb.rs:40:    unsafe { f() }\n",
    );
    // a.rs's hits name `MatchKind`, which it defines; b.rs's name no `offset_from`.
    assert_eq!(hits[0], vec![1, 3]);
    assert_eq!(hits[1], vec![0, 4, 2, 5]);
}

#[test]
fn a_commit_logs_newest_diffstat_comes_before_any_diff_line() {
    let commit = |n: u32| {
        format!(
            "commit {}\nAuthor: r <r@x>\nDate:   Mon Oct {n} 09:22:00 2025 +0000\n\n    Release {n}\n\n",
            format!("{n:x}").repeat(40)
        )
    };
    let log = format!(
        "{} src/a.py | 10 +++---\n src/b.py |  2 +-\n 2 files changed, 7 insertions(+), 5 deletions(-)\n\n{} src/c.py | 3 +++\n 1 file changed, 3 insertions(+)\n",
        commit(2),
        commit(1)
    );
    let t = tiers_of(Kind::Diff, &log);
    // Commits and subjects, summaries, then the first commit's header
    // fields and file lines; the older commit's stay context.
    assert_eq!(t[2], vec![1, 2, 6, 7], "{t:?}");
    assert_eq!(t[5], vec![11, 12], "{t:?}");
    assert!(t.last().unwrap().contains(&16), "{t:?}");
}

#[test]
fn a_patch_logs_newest_changes_come_before_older_hunks_and_a_removal_brings_its_addition() {
    let commit = |n: u32, hunks: usize| {
        let mut c = format!(
            "commit {}\nAuthor: r <r@x>\nDate:   Mon Oct {n} 09:22:00 2025 +0000\n\n    Release {n}\n\n",
            format!("{n:x}").repeat(40)
        );
        c.push_str(
            "diff --git a/package.json b/package.json\nindex 1..2 100644\n--- a/package.json\n+++ b/package.json\n",
        );
        for h in 0..hunks {
            c.push_str(&format!(
                "@@ -{h},3 +{h},3 @@\n {{\n-  \"version\": \"{n}.{h}.0\",\n+  \"version\": \"{n}.{h}.1\",\n }}\n"
            ));
        }
        c
    };
    let log = format!("{}{}", commit(3, 2), commit(2, 3));
    let t = tiers_of(Kind::Diff, &log);
    let line = |s: &str| log.lines().position(|l| l == s).unwrap() as u32;
    // The newest commit's hunks, then its fields, then each of its hunks'
    // first removal with the addition that replaces it; the older hunks after.
    assert_eq!(t[1], vec![line("@@ -0,3 +0,3 @@"), line("@@ -1,3 +1,3 @@")], "{t:?}");
    let newest = [
        line("-  \"version\": \"3.0.0\","),
        line("+  \"version\": \"3.0.1\","),
        line("-  \"version\": \"3.1.0\","),
        line("+  \"version\": \"3.1.1\","),
    ];
    assert_eq!(t[3], newest, "{t:?}");
    assert_eq!(t[4].len(), 3, "{t:?}");
}

#[test]
fn a_yaml_documents_outline_is_its_keys_top_level_first() {
    let yaml = "# A workflow.\nname: ci\non:\n  push:\n    branches: [main]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm test\n";
    let t = tiers_of(Kind::Code, yaml);
    assert_eq!(t[0], vec![1, 2, 5], "{t:?}");
    assert_eq!(t[1], vec![3, 6], "{t:?}");
    assert_eq!(t[2], vec![4, 7, 8], "{t:?}");
}

#[test]
fn prose_in_block_comments_is_no_declaration_and_a_split_prototype_is_one() {
    let header = "/* Parses a document.\n   a name has a prefix (i.e. an explicit namespace qualifier) then\n   Returns the status (XML_STATUS_OK) of the parse\n*/\nXMLPARSEAPI(XML_Parser)\nXML_ParserCreate(const XML_Char *encoding);\n\nstatic int\nparse_name (const char *s)\n{\n  return 0;\n}\n";
    let t = tiers_of(Kind::Code, header);
    let listed: Vec<u32> = t.iter().flatten().copied().collect();
    for prose in [1, 2] {
        assert!(!listed.contains(&prose), "prose line {prose} listed: {t:?}");
    }
    // The names under their return types are the file's declarations.
    assert!(t[0].contains(&5) && t[0].contains(&8), "{t:?}");
    // A triple-quoted string's lines are its text, and what follows it is code again.
    let py = "HELP = \"\"\"\nusage: tool (the files) [options]\n\"\"\"\n\ndef main(argv):\n    return 0\n";
    let t = tiers_of(Kind::Code, py);
    assert!(t[0].contains(&4) && !t.iter().flatten().any(|&k| k == 1), "{t:?}");
}

#[test]
fn top_level_bindings_are_values_and_statements_are_not() {
    for bound in ["__version__ = \"1.16.0\"", "CC = gcc", "moves = _MovedItems(__name__)"] {
        assert!(code::is_top_level_binding(bound), "{bound}");
    }
    for other in ["x == 1", "a.b = 2", "x += 1", "1x = 2", "f(x = 1)", "= 3", "x=1"] {
        assert!(!code::is_top_level_binding(other), "{other}");
    }
}

#[test]
fn an_ls_r_reads_what_each_top_folder_holds_before_deeper_headers() {
    // .: a, b; ./a: x, sub; ./a/sub: y; ./b: z (`ls -lR`'s `total` lines too).
    let ls = ".:\na\nb\n\n./a:\ntotal 8\nx\nsub\n\n./a/sub:\ny\n\n./b:\nz\n";
    let t = tiers_of(Kind::Listing, ls);
    assert_eq!(t[2], vec![0, 4, 12], "{t:?}"); // .:, ./a:, ./b:
    assert_eq!(t[3], vec![9], "{t:?}"); // ./a/sub:
    // The first entry under ./a: (past its total line) and ./b:.
    assert_eq!(t[4], vec![6, 13], "{t:?}");
}
