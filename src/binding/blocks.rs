//! JS content-block arrays in and out.
//!
//! A block is a JS object; `{ type: 'text', text }` blocks are text, any
//! other object is a rich block. Text crosses into Rust once, as UTF-16.

use napi::bindgen_prelude::{JsObjectValue, Object, Unknown};
use napi::{Env, Error, JsValue, Result};

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
    /// Reads `blocks`, naming it `what` in errors (`blocks`, or a path into
    /// a session): a `TypeError` for a block that is not an object or a
    /// text block whose `text` is not a string.
    pub fn read(env: &Env, blocks: &Unknown<'env>, what: &str) -> Result<Self> {
        Self::read_all(env, blocks, what)?.map_err(|i| not_a_string(env, what, i))
    }

    /// As [`JsBlocks::read`], but `None` where a text block's `text` is not
    /// a string (dsh's session takes one; `pruneSession` leaves its result).
    pub fn read_texts_or_none(env: &Env, blocks: &Unknown<'env>, what: &str) -> Result<Option<Self>> {
        Ok(Self::read_all(env, blocks, what)?.ok())
    }

    /// The blocks, or the index of the first text block whose `text` is not
    /// a string.
    fn read_all(env: &Env, blocks: &Unknown<'env>, what: &str) -> Result<std::result::Result<Self, u32>> {
        let (array, len) = array_len(env, blocks, what)?;
        let mut values = Vec::new();
        let mut texts = Vec::new();
        for i in 0..len {
            let block = block_at(env, &array, what, i)?;
            match text_of(&block)? {
                Text::None => texts.push(None),
                Text::Units(text, units) => texts.push(Some((text, units))),
                Text::NotAString => return Ok(Err(i)),
            }
            values.push(block);
        }
        Ok(Ok(JsBlocks { values, texts }))
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
        match text_of(&block)? {
            Text::None => {}
            Text::Units(_, units) => total += code_point_len(&units) as u64,
            Text::NotAString => return Err(not_a_string(env, what, i)),
        }
    }
    Ok(total)
}

/// Element `i` of the block array; a `TypeError` unless it is an object.
fn block_at<'env>(env: &Env, array: &Object<'env>, what: &str, i: u32) -> Result<Object<'env>> {
    as_object(&array.get_element(i)?)?
        .ok_or_else(|| type_error(env, &format!("{what}[{i}] must be a content block object")))
}

/// The `TypeError` for block `i` of `what`, a text block whose `text` is
/// not a string.
fn not_a_string(env: &Env, what: &str, i: u32) -> Error {
    type_error(env, &format!("{what}[{i}].text must be a string"))
}

/// What a block's `text` is.
enum Text<'env> {
    /// Not a text block (its `type` is not `'text'`): a rich block.
    None,
    /// A text block's JS string and its code units.
    Units(Unknown<'env>, Vec<u16>),
    /// A text block whose `text` is not a string.
    NotAString,
}

/// The `text` of a `{ type: 'text' }` block.
fn text_of<'env>(block: &Object<'env>) -> Result<Text<'env>> {
    if !is_str(&get(block, c"type")?, "text")? {
        return Ok(Text::None);
    }
    let text = get(block, c"text")?;
    Ok(match string_units(&text)? {
        Some(units) => Text::Units(text, units),
        None => Text::NotAString,
    })
}
