//! Checked reads of JS values, the errors the binding throws, and the one
//! object operation napi-rs has no single call for (`{ ...source, key }`).
//!
//! Errors we raise are thrown as `TypeError`/`RangeError` naming the field
//! and returned as napi-rs's pending-exception error, so napi-rs leaves the
//! thrown error as it is. A JS exception raised underneath (a throwing
//! getter, a rejecting `append`) is pending the same way and reaches the
//! caller unchanged.

use napi::bindgen_prelude::{
    Array, Function, JsObjectValue, KeyCollectionMode, KeyConversion, KeyFilter, Object, Unknown,
};
use std::ffi::CStr;

use napi::{Env, Error, JsValue, Property, Result, Status, ValueType};

/// Throws `TypeError(message)`; the error to return from the export.
pub fn type_error(env: &Env, message: &str) -> Error {
    match env.throw_type_error(message, None) {
        Ok(()) => Error::from_status(Status::PendingException),
        Err(e) => e,
    }
}

/// Throws `RangeError(message)`; the error to return from the export.
pub fn range_error(env: &Env, message: &str) -> Error {
    match env.throw_range_error(message, None) {
        Ok(()) => Error::from_status(Status::PendingException),
        Err(e) => e,
    }
}

/// True for values that can carry properties (objects and functions).
pub fn is_object(value: &Unknown<'_>) -> Result<bool> {
    Ok(matches!(value.get_type()?, ValueType::Object | ValueType::Function))
}

/// `value` as an object, if it is one.
pub fn as_object<'env>(value: &Unknown<'env>) -> Result<Option<Object<'env>>> {
    Ok(is_object(value)?.then(|| Object::from_raw(value.value().env, value.raw())))
}

/// `value` as an object; a `TypeError` "`what` must be an object" otherwise.
pub fn object<'env>(env: &Env, value: &Unknown<'env>, what: &str) -> Result<Object<'env>> {
    as_object(value)?.ok_or_else(|| type_error(env, &format!("{what} must be an object")))
}

/// `object[name]`, for any value.
pub fn get<'env>(object: &Object<'env>, name: &CStr) -> Result<Unknown<'env>> {
    object.get_c_named_property_unchecked(name)
}

/// The code units of a JS string (lone surrogates as they are), or `None`
/// for any other value.
pub fn string_units(value: &Unknown<'_>) -> Result<Option<Vec<u16>>> {
    if value.get_type()? != ValueType::String {
        return Ok(None);
    }
    super::raw::string_units(value).map(Some)
}

/// A JS string argument as code units; a `TypeError` naming `what` otherwise.
pub fn string_arg(env: &Env, value: &Unknown<'_>, what: &str) -> Result<Vec<u16>> {
    string_units(value)?.ok_or_else(|| type_error(env, &format!("{what} must be a string")))
}

/// The number in `value`, or `None` when it is not a number.
pub fn number(value: &Unknown<'_>) -> Result<Option<f64>> {
    if value.get_type()? != ValueType::Number {
        return Ok(None);
    }
    // SAFETY: the value is a number, checked just above.
    Ok(Some(unsafe { value.cast::<f64>()? }))
}

/// `n` when it is a non-negative integer a JS number holds exactly.
pub fn safe_count(n: f64) -> Option<u64> {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    ((0.0..=MAX_SAFE).contains(&n) && n.fract() == 0.0).then_some(n as u64)
}

/// The length of an array (a Proxy of an array included, as `Array.isArray`
/// says), read but not trusted: callers read elements one by one and never
/// reserve memory for a length they have not read. A `TypeError` naming
/// `what` for anything that is not an array.
pub fn array_len<'env>(env: &Env, value: &Unknown<'env>, what: &str) -> Result<(Object<'env>, u32)> {
    let Some(array) = as_object(value)? else {
        return Err(type_error(env, &format!("{what} must be an array")));
    };
    if value.is_array()? {
        return Ok((array, array.get_array_length()?));
    }
    // A Proxy whose target is an array: `napi_is_array` says no, `Array.isArray` yes.
    let is_array: Function<Unknown, bool> = env
        .get_global()?
        .get_c_named_property_unchecked::<Object>(c"Array")?
        .get_c_named_property_unchecked(c"isArray")?;
    if is_array.call(*value)?
        && let Some(n) = number(&get(&array, c"length")?)?
        && let Some(n) = safe_count(n).and_then(|n| u32::try_from(n).ok())
    {
        return Ok((array, n));
    }
    Err(type_error(env, &format!("{what} must be an array")))
}

/// A new JS array holding `items` in order.
pub fn array_of<'env>(env: &'env Env, items: Vec<Unknown<'env>>) -> Result<Array<'env>> {
    Array::from_vec(env, items)
}

/// Calls `object[name](...args)` with `this` bound to `object`; a
/// `TypeError` naming `what` when it is not a function.
pub fn call_method<'env, Args: napi::bindgen_prelude::JsValuesTupleIntoVec>(
    env: &Env,
    object: &Object<'env>,
    name: &CStr,
    what: &str,
    args: Args,
) -> Result<Unknown<'env>> {
    let method = get(object, name)?;
    if method.get_type()? != ValueType::Function {
        return Err(type_error(env, &format!("{what} must be a function")));
    }
    // SAFETY: the value is a function, checked just above.
    let method: Function<'env, Args, Unknown<'env>> = unsafe { method.cast()? };
    method.apply(object, args)
}

/// `{ ...source, [key]: value }` with spread semantics: the source's own
/// enumerable keys (strings, then symbols) in order, each defined as a data
/// property with the source's value, and `key` given `value` in its place
/// (or added last). Defining, not assigning, so a `__proto__` key stays data.
pub fn spread_with<'env>(env: &Env, source: &Object<'env>, key: &str, value: Unknown<'env>) -> Result<Object<'env>> {
    let keys = source.get_all_property_names(
        KeyCollectionMode::OwnOnly,
        KeyFilter::Enumerable,
        KeyConversion::NumbersToStrings,
    )?;
    let count = keys.get_array_length()?;
    let key_value = env.create_string(key)?;
    let mut properties = Vec::with_capacity(count as usize + 1);
    let mut replaced = false;
    for i in 0..count {
        let name: Unknown = keys.get_element(i)?;
        let item = if !replaced && env.strict_equals(name, key_value)? {
            replaced = true;
            value
        } else {
            source.get_property_unchecked(name)?
        };
        properties.push(Property::new().with_name(env, name)?.with_value(&item));
    }
    if !replaced {
        properties.push(Property::new().with_utf8_name(key)?.with_value(&value));
    }
    let mut target = Object::new(env)?;
    target.define_properties(&properties)?;
    Ok(target)
}
