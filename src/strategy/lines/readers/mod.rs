//! Shared line readers: what a line is, as the kind sampler and several
//! outline planners read it (patterns of code and logs, commit lines, tree
//! entries, Markdown headings, YAML keys, JSON keys that report a failure, the place a finding opens with, a listing's rows). Readers import nothing of the
//! planners; the planners and the sampler import them.

pub mod commits;
pub mod json_keys;
pub mod markdown;
pub mod patterns;
pub mod places;
pub mod rows;
pub mod trees;
pub mod yaml;
