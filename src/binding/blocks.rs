//! JS content-block arrays in and out.
//!
//! A block is a JS object; `{ type: 'text', text }` blocks are text, any
//! other object is opaque. Text crosses into Rust once, as UTF-16.

use std::ffi::CStr;

use napi::Result;

use super::js::{Js, Value};
use crate::head_tail::{Block, NewText, Piece, Pruned};

const TYPE: &CStr = c"type";
const TEXT: &CStr = c"text";
const LENGTH: &CStr = c"length";

/// A block array read for the core: every block's JS value and, for text
/// blocks, the JS text and its code units.
pub(crate) struct JsBlocks {
    values: Vec<Value>,
    texts: Vec<Option<(Value, Vec<u16>)>>,
}

impl JsBlocks {
    /// Reads `blocks`, naming it `what` in errors (`blocks`, or a path into a session).
    pub fn read(js: Js, blocks: Value, what: &str) -> Result<Self> {
        let len = array_len(js, blocks, what)?;
        let mut values = Vec::with_capacity(len as usize);
        let mut texts = Vec::with_capacity(len as usize);
        for i in 0..len {
            let block = js.get_index(blocks, i)?;
            let text = match text_of(js, block, what, i)? {
                Some(text) => {
                    let mut units = Vec::new();
                    js.read_utf16(text, &mut units)?;
                    Some((text, units))
                }
                None => None,
            };
            values.push(block);
            texts.push(text);
        }
        Ok(JsBlocks { values, texts })
    }

    /// The core's view: text blocks as code units, the rest opaque.
    pub fn core(&self) -> Vec<Block<'_>> {
        self.texts.iter().map(|t| t.as_ref().map_or(Block::Other, |(_, units)| Block::Text(units))).collect()
    }

    /// The pruned block array: kept blocks as they were, each text block a
    /// copy of the original (`{ ...block, text }`) with its new text.
    pub fn build(&self, js: Js, pruned: &Pruned) -> Result<Value> {
        let mut out = Vec::with_capacity(pruned.pieces.len());
        for piece in &pruned.pieces {
            out.push(match piece {
                Piece::Keep(i) => self.values[*i],
                Piece::Text { block, text } => {
                    let value = match text {
                        NewText::Unchanged => self.texts[*block].as_ref().map(|(v, _)| *v).expect("a text block"),
                        NewText::Replaced(units) => js.string_utf16(units)?,
                    };
                    js.spread_with(self.values[*block], TEXT, value)?
                }
            });
        }
        js.array_of(&out)
    }
}

/// Code points of the text blocks of `blocks`, reading one text at a time.
pub(crate) fn measure(js: Js, blocks: Value, what: &str) -> Result<u64> {
    let len = array_len(js, blocks, what)?;
    let mut scratch = Vec::new();
    let mut total = 0u64;
    for i in 0..len {
        let block = js.get_index(blocks, i)?;
        if let Some(text) = text_of(js, block, what, i)? {
            js.read_utf16(text, &mut scratch)?;
            total += crate::text::code_point_len(&scratch) as u64;
        }
    }
    Ok(total)
}

/// The JS `text` of a `{ type: 'text' }` block, `None` for any other block.
fn text_of(js: Js, block: Value, what: &str, i: u32) -> Result<Option<Value>> {
    if !js.is_object(block)? {
        return Err(js.type_error(&format!("{what}[{i}] must be a content block object")));
    }
    if !js.is_ascii_string(js.get(block, TYPE)?, "text")? {
        return Ok(None);
    }
    let text = js.get(block, TEXT)?;
    if !js.is_string(text)? {
        return Err(js.type_error(&format!("{what}[{i}].text must be a string")));
    }
    Ok(Some(text))
}

/// Length of an array (a Proxy of an array included: `Array.isArray` is
/// true for it); a `TypeError` naming `what` for anything else.
pub(crate) fn array_len(js: Js, value: Value, what: &str) -> Result<u32> {
    if js.is_array(value)? {
        return js.array_len(value);
    }
    if js.is_object(value)?
        && js.is_array_like_proxy(value)?
        && let Some(n) = js.as_number(js.get(value, LENGTH)?)?
        && n >= 0.0
        && n <= f64::from(u32::MAX)
        && n.fract() == 0.0
    {
        return Ok(n as u32);
    }
    Err(js.type_error(&format!("{what} must be an array")))
}
