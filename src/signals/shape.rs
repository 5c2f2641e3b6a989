//! Line templates: lines that say the same thing about different things
//! count as one, so a flood of one message does not crowd out the rest.
//!
//! In the manner of Drain (He et al., "Drain: An Online Log Parsing Approach
//! with Fixed Depth Tree", 2017): a line's words, with numbers, hex ids,
//! quoted strings and paths blanked, are compared with the templates seen so
//! far that have as many words and begin with the same word; a line joins a
//! template when at least half of its places agree, an equal literal word
//! counting whole and a template's wildcard half, and the words where they
//! differ become wildcards. So `test a::b ... ok` and
//! `test c::d ... ok`, or one mypy error about 279 different names, share a
//! template, while the few lines that differ in their message do not.

use std::collections::HashMap;

/// Words beyond this many are not compared (long lines are rare and costly).
const MAX_WORDS: usize = 24;

/// A word of a template: a literal, or a wildcard where lines differ.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Word {
    Literal(String),
    Any,
}

/// The templates of one text, built as its lines are read in order.
#[derive(Default)]
pub struct Templates {
    /// (word count, first word) → template ids.
    groups: HashMap<(usize, String), Vec<u32>>,
    words: Vec<Vec<Word>>,
}

impl Templates {
    /// The template of `view` (a line's view), joining or creating one; ids
    /// start at 1.
    pub fn id(&mut self, view: &str) -> u32 {
        let words: Vec<Word> = view.split_whitespace().take(MAX_WORDS).map(blank).collect();
        let first = match words.first() {
            Some(Word::Literal(w)) => w.clone(),
            _ => String::new(),
        };
        let key = (words.len(), first);
        let candidates = self.groups.entry(key).or_default();
        let mut best = None;
        for &id in candidates.iter() {
            let template = &self.words[id as usize - 1];
            // Twice the similarity: an equal literal word counts whole, a
            // wildcard half (it agrees with anything, so it is weaker
            // evidence of sameness; Drain counts it not at all).
            let same = 2 * template.iter().zip(&words).filter(|(t, w)| **t != Word::Any && t == w).count()
                + template.iter().filter(|t| **t == Word::Any).count();
            if same >= words.len() && best.is_none_or(|(_, s)| same > s) {
                best = Some((id, same));
            }
        }
        match best {
            Some((id, _)) => {
                for (t, w) in self.words[id as usize - 1].iter_mut().zip(&words) {
                    if *t != *w {
                        *t = Word::Any;
                    }
                }
                id
            }
            None => {
                self.words.push(words);
                let id = self.words.len() as u32;
                candidates.push(id);
                id
            }
        }
    }
}

/// A word as templates compare it: a wildcard when it holds a digit, a
/// path separator or a quotation, else the word itself.
fn blank(word: &str) -> Word {
    let variable = word.bytes().any(|b| b.is_ascii_digit() || matches!(b, b'/' | b'\\' | b'"' | b'\'' | b'`'));
    if variable { Word::Any } else { Word::Literal(word.to_owned()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_one_template_share_it() {
        let mut t = Templates::default();
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
}
