//! YAML documents (a schema, a CI workflow, a manifest) read as their keys.
//!
//! A key line is indentation, an optional `- ` (a list item), then a plain
//! key (letters, digits, `_`, `-`, `.`, `$`) or a quoted one, and `:` at the
//! end or before a space (`title: command`, `  python_hook:`, `- name:
//! build`); a compiler's `src/x.ts(1,1): error` is none. A text is a
//! document when such lines, comments, list items and block text make
//! nearly all of it and its keys are many; its outline is its keys by
//! depth, the top-level ones first.

/// Key lines a text needs to read as a document.
const MIN_KEYS: usize = 4;

/// Depths of keys given a tier of their own; deeper ones share the last.
const DEPTHS: usize = 3;

/// What a line of YAML is, by its view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// A key, at this indentation (a list item's key counts its `- `).
    Key(usize),
    /// A comment, a list item, a block scalar's text or a document marker.
    Other,
    /// Not YAML's (a statement, prose with `:` inside a sentence is Other).
    Foreign,
}

/// Reads `v` (a line's view, blank lines excluded by the caller).
pub fn line(v: &str) -> Line {
    let t = v.trim_end();
    let body = t.trim_start();
    let mut indent = t.len() - body.len();
    if body.starts_with('#') || body == "---" || body == "..." {
        return Line::Other;
    }
    let mut item = body;
    while let Some(rest) = item.strip_prefix("- ") {
        indent += 2;
        item = rest.trim_start();
    }
    let key_end = if let Some(q) = item.strip_prefix(['"', '\'']) {
        let close = item.as_bytes()[0] as char;
        q.find(close).map(|e| e + 2)
    } else {
        Some(item.bytes().take_while(|&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'$')).count())
    };
    if let Some(e) = key_end
        && e > 0
        && item[e..].starts_with(':')
        && (item.len() == e + 1 || item[e + 1..].starts_with([' ', '\t']))
    {
        return Line::Key(indent);
    }
    if item.len() < body.len() || indent > 0 && !body.ends_with([';', '{', '}', ')']) {
        // A list item's value, or an indented value of a block above.
        return Line::Other;
    }
    Line::Foreign
}

/// A document's keys, read line by line.
#[derive(Default)]
pub struct Yaml {
    /// Each key line and its indentation.
    keys: Vec<(u32, usize)>,
    /// Non-blank lines read, and those YAML's.
    lines: usize,
    yaml: usize,
}

/// Lines after which a text whose lines are not nine in ten YAML's is read
/// no further (it is no document): source pays for a few lines only.
const GIVE_UP_AFTER: usize = 32;

impl Yaml {
    /// Reads line `k`, whose view is `v`.
    pub fn read(&mut self, k: u32, v: &str) {
        if self.lines >= GIVE_UP_AFTER && self.yaml * 10 < self.lines * 9 || v.trim().is_empty() {
            return;
        }
        self.lines += 1;
        match line(v) {
            Line::Key(indent) => {
                self.keys.push((k, indent));
                self.yaml += 1;
            }
            Line::Other => self.yaml += 1,
            Line::Foreign => {}
        }
    }

    /// Whether the text read is a YAML document rather than source with
    /// `declarations` top-level declarations: keys are many, more than
    /// those, and nine lines in ten are YAML's (from the first
    /// [`GIVE_UP_AFTER`] lines on).
    pub fn is_document(&self, declarations: usize) -> bool {
        self.keys.len() >= MIN_KEYS && self.keys.len() > declarations && self.yaml * 10 >= self.lines * 9
    }

    /// The keys by depth: the top-level ones, the next indentation's, the
    /// next, then the deeper ones in order.
    pub fn tiers(self) -> Vec<Vec<u32>> {
        let mut indents: Vec<usize> = self.keys.iter().map(|&(_, i)| i).collect();
        indents.sort_unstable();
        indents.dedup();
        let depth = |i: usize| indents.partition_point(|&d| d < i).min(DEPTHS);
        let mut tiers = vec![Vec::new(); DEPTHS + 1];
        for &(k, i) in &self.keys {
            tiers[depth(i)].push(k);
        }
        tiers
    }
}

#[cfg(test)]
mod tests;
