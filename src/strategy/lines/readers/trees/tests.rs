use super::*;

use crate::text::utf16;

#[test]
fn a_tree_entrys_depth_is_its_indentation_steps() {
    let tree_depth = |s: &str| tree_depth(&utf16(s));
    assert_eq!(tree_depth("├── AUTHORS"), Some(0));
    assert_eq!(tree_depth("│\u{a0}\u{a0} ├── _images"), Some(1));
    assert_eq!(tree_depth("│   │   └── sqla_engine_arch.png"), Some(2));
    assert_eq!(tree_depth("    `-- lib.rs"), Some(1));
    assert_eq!(tree_depth("|-- src"), Some(0));
    for none in [".", "133 directories, 1180 files", "│   ", "├─ x", "    x"] {
        assert_eq!(tree_depth(none), None, "{none}");
    }
}
