//! Line shapes: a line with its variable parts blanked, so lines of one
//! template (the same words around other numbers, ids, paths or quoted
//! names) count once.

use std::hash::Hasher;

/// Hash of the line's shape: quoted strings, path-like tokens, numbers and
/// long hex ids blanked, whitespace runs folded.
pub fn shape_hash(view: &str) -> u32 {
    // The shape is spelled out, then hashed once.
    let mut shape = String::with_capacity(view.len());
    let mut token = String::new();
    let mut chars = view.trim().chars();
    while let Some(c) = chars.next() {
        match c {
            '"' | '\'' | '`' => {
                let quote = c;
                let rest = chars.as_str();
                match rest.find(quote) {
                    Some(end) => {
                        token.push('\u{1}');
                        chars = rest[end + quote.len_utf8()..].chars();
                    }
                    None => token.push(quote),
                }
            }
            c if c.is_whitespace() => push_token_shape(&mut token, &mut shape),
            c => token.push(c),
        }
    }
    push_token_shape(&mut token, &mut shape);
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    hasher.write(shape.as_bytes());
    let h = hasher.finish();
    (h ^ (h >> 32)) as u32
}

/// Appends one whitespace-delimited token's shape, then a space, to
/// `shape`, and clears the token.
fn push_token_shape(token: &mut String, shape: &mut String) {
    if token.is_empty() {
        return;
    }
    if token.contains(['/', '\\']) {
        shape.push('/');
    } else {
        let mut rest = token.as_str();
        while let Some(c) = rest.chars().next() {
            let run_len = rest.find(|d: char| !d.is_ascii_alphanumeric()).unwrap_or(rest.len());
            if run_len > 0 {
                let run = &rest[..run_len];
                let has_digit = run.bytes().any(|b| b.is_ascii_digit());
                if has_digit && run.len() >= 7 && run.bytes().all(|b| b.is_ascii_hexdigit()) {
                    shape.push('#');
                } else {
                    let mut last_digit = false;
                    for d in run.chars() {
                        let digit = d.is_ascii_digit();
                        if !(digit && last_digit) {
                            shape.push(if digit { '0' } else { d });
                        }
                        last_digit = digit;
                    }
                }
                rest = &rest[run_len..];
            } else {
                shape.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    shape.push(' ');
    token.clear();
}
