//! Keys of a pretty-printed JSON document that report a failure: an
//! `"error"` (or `"errors"`, `"exception"`, `"failureMessages"`, …) with a
//! value, or a state key (`"status"`, `"conclusion"`, `"result"`, …) whose
//! value says it failed, as `jest --json`, `gh api`, `kubectl -o json` and
//! `npm --json` print them. A JSON document's outline keeps them first.

/// Keys whose any value but an empty one reports a failure (lower-cased,
/// `_` and `-` left out): npm's `"problems"`, `"invalid"` and `"missing"`
/// among them.
const FAILURE_KEYS: &[&str] = &[
    "error",
    "errormessage",
    "errors",
    "exception",
    "exceptions",
    "failure",
    "failuremessage",
    "failuremessages",
    "failures",
    "fatal",
    "invalid",
    "missing",
    "problems",
    "stderr",
    "traceback",
];

/// Keys whose value names a state (lower-cased, `_` and `-` left out).
const STATE_KEYS: &[&str] = &["conclusion", "level", "outcome", "result", "severity", "state", "status"];

/// States that are a failure (lower-cased).
const FAILED: &[&str] = &["crashed", "error", "errored", "fail", "failed", "failure", "fatal", "timedout", "timed_out"];

/// Keys that name the object they are in (lower-cased, `_` and `-` left out).
const NAME_KEYS: &[&str] = &[
    "file", "filename", "filepath", "fullname", "id", "job", "message", "name", "package", "path", "step", "test",
    "testpath", "title",
];

/// A JSON line's key, lower-cased without `_` and `-` (at most 24
/// units), and where its value starts.
struct Key {
    folded: [u8; 24],
    len: usize,
    value_at: usize,
}

impl Key {
    /// Whether the key is one of `list`.
    fn is(&self, list: &[&str]) -> bool {
        list.iter().any(|k| k.as_bytes() == &self.folded[..self.len])
    }
}

/// The key of JSON `line` (UTF-16): `None` when the line opens with no
/// key of at most 24 ASCII units. Nothing is allocated.
fn key_of(line: &[u16]) -> Option<Key> {
    let start = line.iter().position(|&u| u != 0x20 && u != 0x09)?;
    if line[start] != 0x22 {
        return None;
    }
    let len = line[start + 1..].iter().take(25).position(|&u| u == 0x22 || u == 0x5C)?;
    let key = &line[start + 1..start + 1 + len];
    if key.len() > 24 || line.get(start + 1 + len) != Some(&0x22) || key.iter().any(|&u| u >= 0x80) {
        return None;
    }
    let mut at = start + len + 2;
    while line.get(at).is_some_and(|&u| u == 0x20) {
        at += 1;
    }
    if line.get(at) != Some(&0x3A) {
        return None;
    }
    let mut folded = [0u8; 24];
    let mut n = 0;
    for &u in key.iter().filter(|&&u| u != u16::from(b'_') && u != u16::from(b'-')) {
        folded[n] = (u as u8).to_ascii_lowercase();
        n += 1;
    }
    Some(Key { folded, len: n, value_at: at + 1 })
}

/// Whether JSON `line` is a key that names the object it is in (`"name"`,
/// `"fullName"`, `"title"`, `"path"`, a short `"message"`, …): what a
/// failure in the object is of.
pub fn names_object(line: &[u16]) -> bool {
    line.len() <= NAME_LINE && key_of(line).is_some_and(|key| key.is(NAME_KEYS))
}

/// Longest a line naming an object is, in code units: a longer `"message"`
/// is a report of its own, not a name.
const NAME_LINE: usize = 200;

/// [`reports_failure`]'s quick test: whether `line` opens with a key whose
/// first letter a failure or state key starts with.
#[inline]
fn may_report(line: &[u16]) -> bool {
    let start = line.iter().position(|&u| u != 0x20 && u != 0x09).unwrap_or(line.len());
    line.get(start) == Some(&0x22)
        && line.get(start + 1).is_some_and(|&u| {
            let lower = u | 0x20;
            (0x61..=0x7A).contains(&lower) && FIRST_LETTERS & 1 << (lower - 0x61) != 0
        })
}

/// Bit `i`: a failure or state key starts with the `i`-th letter.
const FIRST_LETTERS: u32 = first_letters(FAILURE_KEYS) | first_letters(STATE_KEYS);

/// The letters `keys` (lower-case ASCII) start with, a bit each.
const fn first_letters(keys: &[&str]) -> u32 {
    let mut bits = 0;
    let mut i = 0;
    while i < keys.len() {
        bits |= 1 << (keys[i].as_bytes()[0] - b'a');
        i += 1;
    }
    bits
}

/// Whether `line` (UTF-16, one line of pretty-printed JSON) is a key that
/// reports a failure: a failure key with a value that is not empty
/// (`null`, `false`, `0`, `""`, `[]`, `{}`), or a state key whose string
/// value is a failed state.
pub fn reports_failure(line: &[u16]) -> bool {
    if !may_report(line) {
        return false;
    }
    // A line as the index holds it ends with its `\n`.
    let Some(key) = key_of(line) else { return false };
    let failure_key = key.is(FAILURE_KEYS);
    // ESLint's numeric severity: 2 is an error (1 a warning).
    let severity = key.is(&["severity"]);
    if !failure_key && !severity && !key.is(STATE_KEYS) {
        return false;
    }
    let value: Vec<u8> = line[key.value_at..]
        .iter()
        .map(|&u| if u < 0x80 { u as u8 } else { 0x80 })
        .skip_while(|&b| b == b' ')
        .collect();
    let value = value.trim_ascii_end();
    let value = value.strip_suffix(b",").unwrap_or(value).trim_ascii_end();
    if failure_key {
        return !matches!(value, b"" | b"null" | b"false" | b"0" | b"\"\"" | b"[]" | b"{}");
    }
    if severity && value == b"2" {
        return true;
    }
    let Some(inner) = value.strip_prefix(b"\"").and_then(|v| v.strip_suffix(b"\"")) else { return false };
    FAILED.iter().any(|f| f.as_bytes().eq_ignore_ascii_case(inner))
}

#[cfg(test)]
mod tests {
    use super::reports_failure;
    use crate::text::utf16;

    #[test]
    fn a_failure_key_with_a_value_or_a_failed_state_reports_and_nothing_else_does() {
        for line in [
            r#"  "error": "ETARGET: No matching version found for pkg@^9.0.0","#,
            r#"      "failureMessages": ["#,
            r#"  "status": "failed","#,
            r#"    "conclusion": "failure""#,
            r#"  "errors": [{"message": "Bad credentials"}],"#,
            r#"  "level": "ERROR","#,
            "                \"severity\": 2,\n",
            r#"            "missing": true,"#,
            r#"                    "invalid": "\"0.7.1\" from node_modules/express","#,
            r#"    "problems": ["#,
        ] {
            assert!(reports_failure(&utf16(line)), "{line}");
        }
        for line in [
            r#"  "error": null,"#,
            r#"  "errors": [],"#,
            "  \"failureMessages\": [],\n",
            r#"  "status": "passed","#,
            r#"  "conclusion": "success","#,
            r#"  "errorOnExist": false,"#,
            r#"  "description": "error: failed to compile","#,
            r#""error""#,
            "  error: failed",
            "                \"severity\": 1,\n",
            r#"            "missing": false,"#,
        ] {
            assert!(!reports_failure(&utf16(line)), "{line}");
        }
        assert!(super::names_object(&utf16("      \"fullName\": \"parser parses case 137\",\n")));
        assert!(!super::names_object(&utf16("      \"duration\": 3,\n")));
        assert!(super::names_object(&utf16("        \"filePath\": \"/app/src/response.js\",\n")));
        let long = format!("      \"message\": \"{}\",\n", "x".repeat(300));
        assert!(!super::names_object(&utf16(&long)), "a long message is no name");
    }
}
