//! Markdown documents (a README, a changelog) read as their headings.
//!
//! A heading is one to six `#`, one space, then text that is not a C
//! preprocessor directive; a `# comment` reads the same, so a text is a
//! document only with three headings or more, one of them at least `##`.

/// Headings a text needs to read as a document.
const MIN_HEADINGS: usize = 3;

/// Whether `headings` headings, `sections` of them `##` or deeper, make a document.
pub fn is_document(headings: usize, sections: usize) -> bool {
    headings >= MIN_HEADINGS && sections > 0
}

/// The level of a Markdown heading (`## Install`: 2), if `t` is one.
pub fn heading_level(t: &str) -> Option<usize> {
    let hashes = t.bytes().take_while(|&b| b == b'#').count();
    if !(1..=6).contains(&hashes) {
        return None;
    }
    let text = t.get(hashes..)?.strip_prefix(' ')?;
    let word = text.split(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or("");
    const DIRECTIVES: [&str; 12] =
        ["define", "include", "if", "ifdef", "ifndef", "endif", "else", "elif", "pragma", "undef", "error", "line"];
    (!text.starts_with(' ') && !text.is_empty() && !DIRECTIVES.contains(&word)).then_some(hashes)
}

/// A document's outline, read line by line: headings outside fenced code
/// (``` or ~~~), the first line of text under each, and top-level list items.
#[derive(Default)]
pub struct Markdown {
    fenced: bool,
    /// `#` and `##` headings; deeper ones.
    major: Vec<u32>,
    minor: Vec<u32>,
    /// The first non-blank line after each heading.
    leads: Vec<u32>,
    items: Vec<u32>,
    after_heading: bool,
    /// Headings of level two or deeper.
    sections: usize,
}

impl Markdown {
    /// Reads line `k`, whose view is `v`.
    #[inline]
    pub fn read(&mut self, k: u32, v: &str) {
        // Most lines of source start with none of what matters here.
        let first = v.as_bytes().first().copied().unwrap_or(b' ');
        if !self.after_heading && !matches!(first, b'#' | b'`' | b'~' | b'-' | b'*' | b'+') {
            return;
        }
        let t = v.trim_end();
        if t.starts_with("```") || t.starts_with("~~~") {
            self.fenced = !self.fenced;
            return;
        }
        if self.fenced || t.is_empty() {
            return;
        }
        if let Some(level) = heading_level(t) {
            if level <= 2 {
                self.major.push(k)
            } else {
                self.minor.push(k)
            }
            self.sections += usize::from(level >= 2);
            self.after_heading = true;
            return;
        }
        if std::mem::take(&mut self.after_heading) {
            self.leads.push(k);
        } else if t.starts_with("- ") || t.starts_with("* ") || t.starts_with("+ ") {
            self.items.push(k);
        }
    }

    /// Whether the text read is a document rather than source with
    /// `declarations` top-level declarations: more headings than those.
    pub fn is_document(&self, declarations: usize) -> bool {
        let headings = self.major.len() + self.minor.len();
        is_document(headings, self.sections) && headings > declarations
    }

    /// Major headings, minor ones, the line under each, then list items.
    pub fn tiers(self) -> Vec<Vec<u32>> {
        vec![self.major, self.minor, self.leads, self.items]
    }
}
