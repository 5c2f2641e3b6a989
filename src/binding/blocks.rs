//! JS content-block arrays in and out.
//!
//! A block is a JS object; `{ type: 'text', text }` blocks are text, any
//! other object is a rich block. Text crosses into Rust once, as UTF-16.

use napi::bindgen_prelude::{JsObjectValue, Object, Unknown};
use napi::{Env, JsValue, Result};

use super::raw::is_str;
use super::values::{array_len, as_object, get, spread_with, string_units, type_error};
use crate::content::{Block, NewText, Piece, Pruned};
use crate::text::code_point_len;

/// A block array read for the core: every block's JS object and, for text
/// blocks, the JS text and its code units.
pub struct JsBlocks<'env> {
    values: Vec<Object<'env>>,
    texts: Vec<Option<(Unknown<'env>, Vec<u16>)>>,
}

impl<'env> JsBlocks<'env> {
    /// Reads `blocks`, naming it `what` in errors (`blocks`, or a path into a session).
    pub fn read(env: &Env, blocks: &Unknown<'env>, what: &str) -> Result<Self> {
        let (array, len) = array_len(env, blocks, what)?;
        let mut values = Vec::new();
        let mut texts = Vec::new();
        for i in 0..len {
            let block = block_at(env, &array, what, i)?;
            texts.push(text_of(env, &block, what, i)?);
            values.push(block);
        }
        Ok(JsBlocks { values, texts })
    }

    /// The core's view: text blocks as code units, the rest rich.
    pub fn core(&self) -> Vec<Block<'_>> {
        self.texts.iter().map(|t| t.as_ref().map_or(Block::Rich, |(_, units)| Block::Text(units))).collect()
    }

    /// The pruned blocks: rich blocks as they were (the same objects),
    /// each text block a copy of the original (`{ ...block, text }`) with
    /// its new text.
    pub fn build(&self, env: &'env Env, pruned: &Pruned) -> Result<Vec<Unknown<'env>>> {
        let mut out = Vec::with_capacity(pruned.pieces.len());
        for piece in &pruned.pieces {
            out.push(match piece {
                Piece::Rich(i) => self.values[*i].to_unknown(),
                Piece::Text { block, text } => {
                    let value = match text {
                        NewText::Unchanged => self.texts[*block].as_ref().map(|(v, _)| *v).expect("a text block"),
                        NewText::Replaced(units) => env.create_string_utf16(units)?.to_unknown(),
                    };
                    spread_with(env, &self.values[*block], "text", value)?.to_unknown()
                }
            });
        }
        Ok(out)
    }
}

/// Code points of the text blocks of `blocks`, reading one text at a time.
pub fn measure(env: &Env, blocks: &Unknown<'_>, what: &str) -> Result<u64> {
    let (array, len) = array_len(env, blocks, what)?;
    let mut total = 0u64;
    for i in 0..len {
        let block = block_at(env, &array, what, i)?;
        if let Some((_, units)) = text_of(env, &block, what, i)? {
            total += code_point_len(&units) as u64;
        }
    }
    Ok(total)
}

/// Element `i` of the block array; a `TypeError` unless it is an object.
fn block_at<'env>(env: &Env, array: &Object<'env>, what: &str, i: u32) -> Result<Object<'env>> {
    as_object(&array.get_element(i)?)?
        .ok_or_else(|| type_error(env, &format!("{what}[{i}] must be a content block object")))
}

/// The JS `text` of a `{ type: 'text' }` block and its code units, `None`
/// for any other block.
fn text_of<'env>(env: &Env, block: &Object<'env>, what: &str, i: u32) -> Result<Option<(Unknown<'env>, Vec<u16>)>> {
    if !is_str(&get(block, c"type")?, "text")? {
        return Ok(None);
    }
    let text = get(block, c"text")?;
    match string_units(&text)? {
        Some(units) => Ok(Some((text, units))),
        None => Err(type_error(env, &format!("{what}[{i}].text must be a string"))),
    }
}
