//! `TextPage`: one page of a retrieved text (`retrievePage`).

use napi::bindgen_prelude::Utf16String;
use napi_derive::napi;

use crate::pages::Retrieved;

/// One page of a retrieved text (see `src/pages/`).
#[napi(object, object_from_js = false)]
pub struct TextPage {
    /// The page's first line, ending in a line feed: which lines, which
    /// page, how to go on. The tool's result is `header + text`.
    pub header: Utf16String,
    /// The page: whole lines of the text, byte for byte.
    pub text: Utf16String,
    /// First line on the page, from 1.
    pub first_line: f64,
    /// Last line on the page.
    pub last_line: f64,
    /// Lines in the whole text.
    pub total_lines: f64,
    /// This page's number, from 1.
    pub page: f64,
    /// Pages the selection takes.
    pub pages: f64,
    /// Lines that matched `search` (0 without one).
    pub matches: f64,
}

impl From<Retrieved> for TextPage {
    fn from(Retrieved { header, page }: Retrieved) -> Self {
        TextPage {
            header: Utf16String::from(header),
            text: Utf16String::from(page.text),
            first_line: page.first as f64,
            last_line: page.last as f64,
            total_lines: page.total_lines as f64,
            page: page.page as f64,
            pages: page.pages as f64,
            matches: page.matches as f64,
        }
    }
}
