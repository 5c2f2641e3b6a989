use super::*;
use crate::markers::{Unit, marker_len};
use crate::text::utf16;

fn cut(s: &str) -> Option<(String, String)> {
    let line = utf16(s);
    overwritten(&line, |n| marker_len(n as u64, Unit::Chars))
        .map(|((from, to), _)| (String::from_utf16_lossy(&line[..from]), String::from_utf16_lossy(&line[to..])))
}

#[test]
fn a_progress_bar_shows_its_last_frame() {
    let frames: String = (0..200).map(|i| format!("Downloading x.whl {i}%\r")).collect();
    let (before, after) = cut(&format!("{frames}Downloading x.whl 100%\n")).unwrap();
    assert_eq!((before.as_str(), after.as_str()), ("", "Downloading x.whl 100%\n"));
    // A frame of another kind first (what was being done) stays.
    let (before, after) = cut(&format!("Collecting torch\r{frames}done\r\n")).unwrap();
    assert_eq!((before.as_str(), after.as_str()), ("Collecting torch\r", "done\r\n"));
    // The closing `\r` draws nothing: the frame before it is the last.
    let (_, after) = cut(&frames).unwrap();
    assert_eq!(after, "Downloading x.whl 199%\r");
}

#[test]
fn lines_without_redraws_or_with_short_ones_are_left_whole() {
    assert_eq!(cut("plain line\n"), None);
    assert_eq!(cut("windows line\r\n"), None);
    assert_eq!(cut("50%\r100%\n"), None);
    assert_eq!(cut(""), None);
    assert_eq!(cut("\r"), None);
}
