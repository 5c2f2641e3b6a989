//! A listing's row: the path and size an `ls -l`, `find -ls`, `tar -tv`,
//! `du`, `find -printf '%s %p'` or `unzip -l` line shows, or a bare path.

/// What one listing line names.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row<'a> {
    /// The path, as printed (a symbolic link without its ` -> target`).
    pub path: &'a str,
    /// The size shown, in bytes (`du -h`'s units read as powers of 1,024).
    pub size: Option<f64>,
    /// Whether the row's mode says a directory (`drwx…`).
    pub dir: bool,
}

/// The row `line` (trimmed of its ends) is, if it is one: a bare path (no
/// space); a mode-led row (`ls -l`, `tar -tv`, or `find -ls` and `ls -s`
/// with their numbers before the mode), its size the number before its
/// date and its path what follows the time; a size-led row, the size then a
/// date and time (`unzip -l`) or then one path without spaces after a tab
/// or holding a `/` or `.` (`du`,
/// `find -printf '%s %p'`).
pub fn row(line: &str) -> Option<Row<'_>> {
    let t = line.trim_ascii();
    if t.is_empty() {
        return None;
    }
    if !t.bytes().any(|b| b.is_ascii_whitespace()) {
        return Some(Row { path: t, size: None, dir: false });
    }
    // A mode among the first fields, only numbers before it.
    let mut leading = fields(t);
    for _ in 0..=MODE_AT_MOST {
        let (_, f) = leading.next()?;
        if is_mode(f) {
            return mode_led(t, leading, f.as_bytes()[0]);
        }
        if !digits(f) {
            break;
        }
    }
    let (_, first) = fields(t).next()?;
    let size = size(first)?;
    let rest = t[first.len()..].trim_ascii_start();
    if let Some(path) = date_and_time(rest) {
        return (!path.is_empty()).then_some(Row { path, size: Some(size), dir: false });
    }
    // One path after the size: `du`'s tab, or a path that looks one (a
    // numbered line, `12 word`, is no row).
    let tab = t.as_bytes()[first.len()] == b'\t';
    let pathlike = rest.bytes().any(|b| b == b'/' || b == b'.');
    if rest.is_empty() || rest.bytes().any(|b| b.is_ascii_whitespace()) || !(tab || pathlike) {
        return None;
    }
    Some(Row { path: rest, size: Some(size), dir: false })
}

/// Share of the sized rows whose size keeps one order with the row before
/// (each at least, or each at most, the last) in rows sorted by size.
const SORTED_SHARE: f64 = 0.9;

/// The order of a listing's sizes, row after row: whether they are sorted.
#[derive(Debug, Default, Clone, Copy)]
pub struct Order {
    /// The rows taken.
    rows: usize,
    /// Rows larger than the row before.
    rises: usize,
    /// Rows smaller than the row before.
    falls: usize,
    /// The last row's size.
    last: Option<f64>,
}

impl Order {
    /// Takes the next row's size.
    pub fn push(&mut self, size: f64) {
        if let Some(last) = self.last {
            self.rises += usize::from(size > last);
            self.falls += usize::from(size < last);
        }
        self.last = Some(size);
        self.rows += 1;
    }

    /// The rows taken.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Rows at least as large as the row before, and rows at most as large.
    fn ascending_descending(&self) -> (usize, usize) {
        let steps = self.rows.saturating_sub(1);
        (steps - self.falls, steps - self.rises)
    }

    /// Whether the sizes are sorted (`du | sort -h`, `ls -S`): of two rows
    /// or more, [`SORTED_SHARE`] keep one order (rows of one size keep both).
    pub fn sorted(&self) -> bool {
        let (ascending, descending) = self.ascending_descending();
        let most = ascending.max(descending);
        self.rows > 1 && most as f64 >= (self.rows - 1) as f64 * SORTED_SHARE
    }

    /// Where sizes sorted without exception put the largest (`sort -h`,
    /// `ls -S`): `Some(true)` at the end, `Some(false)` at the start; `None`
    /// where a row breaks the order (a listing in name order whose sizes
    /// happen to grow) or all are one size (an `ls -l` of folders).
    pub fn largest_last(&self) -> Option<bool> {
        let (up, down) = self.ascending_descending();
        let ascending = up >= down;
        // Sorted without exception: no row against the order, and one with it.
        let (against, with) = if ascending { (self.falls, self.rises) } else { (self.rises, self.falls) };
        (self.rows > 1 && against == 0 && with > 0).then_some(ascending)
    }
}

/// At most this many numbers stand before a row's mode (`find -ls`: inode, blocks).
const MODE_AT_MOST: usize = 2;

/// A mode-led row from the field after its mode (`after`; `kind` the
/// mode's first byte) on: the size is the last number before the date; the
/// path follows the date's time (or year).
fn mode_led<'a>(t: &'a str, after: impl Iterator<Item = (usize, &'a str)>, kind: u8) -> Option<Row<'a>> {
    let mut last_number = None;
    for (at, f) in after {
        if opens_date(f)
            && let Some(path) = date_and_time(&t[at..])
        {
            // Only a link's row shows a target.
            let path = if kind == b'l' { unlinked(path) } else { path };
            let size = last_number.and_then(|n: &str| n.parse().ok());
            return (!path.is_empty()).then_some(Row { path, size, dir: kind == b'd' });
        }
        last_number = digits(f).then_some(f);
    }
    None
}

/// Whether `f` is a file mode (`-rw-r--r--`, `drwxr-xr-x.`, `lrwxrwxrwx@`).
fn is_mode(f: &str) -> bool {
    let b = f.as_bytes();
    (b.len() == 10 || (b.len() == 11 && matches!(b[10], b'.' | b'+' | b'@')))
        && matches!(b[0], b'-' | b'd' | b'l' | b'c' | b'b' | b'p' | b's')
        && b[1..10].iter().all(|c| matches!(c, b'r' | b'w' | b'x' | b's' | b'S' | b't' | b'T' | b'-'))
}

/// Whether `f` may open a date: a month's name, or three numbers joined by `-`.
fn opens_date(f: &str) -> bool {
    (f.len() == 3 && MONTHS.contains(&f)) || numeric_date(f)
}

/// Whether `f` is three numbers joined by `-` (`2024-09-11`, `09-11-2024`).
fn numeric_date(f: &str) -> bool {
    let (mut dashes, mut run) = (0, 0);
    for b in f.bytes() {
        match b {
            b'0'..=b'9' => run += 1,
            b'-' if run > 0 => (dashes, run) = (dashes + 1, 0),
            _ => return false,
        }
    }
    dashes == 2 && run > 0
}

/// When `s` opens with a date and a time (`Dec  7 02:53`, `Oct 26  1985`,
/// `2024-09-11 02:24`, `09-11-2024 02:24`), the rest after them, trimmed.
fn date_and_time(s: &str) -> Option<&str> {
    let mut f = fields(s);
    let (_, date) = f.next()?;
    let clock = |x: &str| x.bytes().position(|b| b == b':').is_some_and(|c| digits(&x[..c]) && digits(&x[c + 1..]));
    let end = if numeric_date(date) {
        let (at, time) = f.next()?;
        clock(time).then_some(at + time.len())?
    } else if MONTHS.contains(&date) {
        let (_, day) = f.next()?;
        let (at, when) = f.next()?;
        (digits(day) && (clock(when) || (when.len() == 4 && digits(when)))).then_some(at + when.len())?
    } else {
        return None;
    };
    Some(s[end..].trim_ascii_start())
}

/// Whether `f` is one or more ASCII digits.
fn digits(f: &str) -> bool {
    !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit())
}

/// Month names as `ls` prints them in the C locale.
const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// A size as listings print it: digits (`1007094`), or `du -h`'s number
/// with a unit (`4.0K`, `1.5M`).
fn size(f: &str) -> Option<f64> {
    let (number, unit) = match f.as_bytes().last()? {
        b'K' => (&f[..f.len() - 1], 1024f64),
        b'M' => (&f[..f.len() - 1], 1024f64.powi(2)),
        b'G' => (&f[..f.len() - 1], 1024f64.powi(3)),
        b'T' => (&f[..f.len() - 1], 1024f64.powi(4)),
        _ => (f, 1.0),
    };
    let plain = !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    let value: f64 = number.parse().ok().filter(|_| plain)?;
    Some(value * unit)
}

/// A path without a symbolic link's ` -> target`.
fn unlinked(path: &str) -> &str {
    path.split_once(" -> ").map_or(path, |(p, _)| p)
}

/// The fields of `s` between ASCII whitespace, each with its byte offset.
fn fields(s: &str) -> impl Iterator<Item = (usize, &str)> {
    s.split_ascii_whitespace().map(move |f| (f.as_ptr() as usize - s.as_ptr() as usize, f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_rows_listing_tools_print() {
        let r = |s| row(s).map(|r| (r.path, r.size, r.dir));
        assert_eq!(r("./src/a.rs"), Some(("./src/a.rs", None, false)));
        assert_eq!(
            r("-rw-r--r-- 1 root root  56239 Dec  6 06:20 __init__.py"),
            Some(("__init__.py", Some(56239.0), false))
        );
        assert_eq!(r("drwxr-xr-x 7 root root  4096 Oct 26  1985 .."), Some(("..", Some(4096.0), true)));
        assert_eq!(
            r("  5523159      4 drwxr-xr-x   2 root     root         4096 Dec  7 02:53 ./types/contrib"),
            Some(("./types/contrib", Some(4096.0), true))
        );
        assert_eq!(
            r("-rw-r--r-- runner/runner   124 2026-10-29 09:05 pytz-2026.6/MANIFEST.in"),
            Some(("pytz-2026.6/MANIFEST.in", Some(124.0), false))
        );
        assert_eq!(r("lrwxrwxrwx 1 root root 7 Dec  1 09:34 lib -> usr/lib"), Some(("lib", Some(7.0), false)));
        assert_eq!(
            r("    35081  2024-09-11 02:24   pytz/__init__.py"),
            Some(("pytz/__init__.py", Some(35081.0), false))
        );
        assert_eq!(r("4.3M\t."), Some((".", Some(4.3 * 1024.0 * 1024.0), false)));
        assert_eq!(r("87 ./value/package.json"), Some(("./value/package.json", Some(87.0), false)));
    }

    #[test]
    fn leaves_what_is_no_row() {
        for line in [
            "",
            "12 passed, 3 failed",
            "0 败误국스리語",
            "12 items",
            "ok 1 - adds two numbers",
            "  Length      Date    Time    Name",
            "x -rw-r--r-- 1 a b 1 Dec 1 09:34 f",
        ] {
            assert_eq!(row(line), None, "{line:?}");
        }
    }
}
