//! Thin, checked wrappers over the Node-API calls the binding makes.
//!
//! Every call returns `napi::Result`; a JS exception raised underneath (a
//! throwing getter, a rejecting `append`) stays pending and reaches the
//! caller unchanged. Errors we raise ourselves are thrown as `TypeError` or
//! `RangeError` and then reported as pending too.

use std::ffi::{CStr, CString};
use std::ptr;

use napi::bindgen_prelude::ToNapiValue;
use napi::{Error, Result, Status, sys};

/// A JS value borrowed for the duration of one native call.
pub type Value = sys::napi_value;

/// A JS value handed back to napi-rs unchanged.
pub struct Raw(pub Value);

impl ToNapiValue for Raw {
    unsafe fn to_napi_value(_: sys::napi_env, val: Self) -> Result<sys::napi_value> {
        Ok(val.0)
    }
}

/// The Node-API environment of the current call.
#[derive(Clone, Copy)]
pub(crate) struct Js(pub sys::napi_env);

fn pending() -> Error {
    Error::from_status(Status::PendingException)
}

impl Js {
    fn check(self, status: sys::napi_status) -> Result<()> {
        if status == sys::Status::napi_ok {
            return Ok(());
        }
        let mut is_pending = false;
        unsafe { sys::napi_is_exception_pending(self.0, &mut is_pending) };
        if is_pending {
            Err(pending())
        } else {
            Err(Error::new(Status::from(status), "Node-API call failed".to_owned()))
        }
    }

    /// Throws `TypeError(message)` and returns the pending-exception error.
    pub fn type_error(self, message: &str) -> Error {
        let text = c_message(message);
        unsafe { sys::napi_throw_type_error(self.0, ptr::null(), text.as_ptr()) };
        pending()
    }

    /// Throws `RangeError(message)` and returns the pending-exception error.
    pub fn range_error(self, message: &str) -> Error {
        let text = c_message(message);
        unsafe { sys::napi_throw_range_error(self.0, ptr::null(), text.as_ptr()) };
        pending()
    }

    pub fn type_of(self, value: Value) -> Result<sys::napi_valuetype> {
        let mut out = 0;
        self.check(unsafe { sys::napi_typeof(self.0, value, &mut out) })?;
        Ok(out)
    }

    /// True for objects and functions (values that can carry properties).
    pub fn is_object(self, value: Value) -> Result<bool> {
        let t = self.type_of(value)?;
        Ok(t == sys::ValueType::napi_object || t == sys::ValueType::napi_function)
    }

    pub fn is_array(self, value: Value) -> Result<bool> {
        let mut out = false;
        self.check(unsafe { sys::napi_is_array(self.0, value, &mut out) })?;
        Ok(out)
    }

    /// `Array.isArray(value)`: unlike `napi_is_array` it is true for a
    /// Proxy whose target is an array.
    pub fn is_array_like_proxy(self, value: Value) -> Result<bool> {
        let mut global = ptr::null_mut();
        self.check(unsafe { sys::napi_get_global(self.0, &mut global) })?;
        let array = self.get(global, c"Array")?;
        let verdict = self.call_method(array, c"isArray", &[value])?;
        let mut out = false;
        self.check(unsafe { sys::napi_get_value_bool(self.0, verdict, &mut out) })?;
        Ok(out)
    }

    pub fn array_len(self, array: Value) -> Result<u32> {
        let mut out = 0;
        self.check(unsafe { sys::napi_get_array_length(self.0, array, &mut out) })?;
        Ok(out)
    }

    pub fn get_index(self, array: Value, index: u32) -> Result<Value> {
        let mut out = ptr::null_mut();
        self.check(unsafe { sys::napi_get_element(self.0, array, index, &mut out) })?;
        Ok(out)
    }

    pub fn get(self, object: Value, name: &CStr) -> Result<Value> {
        let mut out = ptr::null_mut();
        self.check(unsafe { sys::napi_get_named_property(self.0, object, name.as_ptr(), &mut out) })?;
        Ok(out)
    }

    pub fn get_key(self, object: Value, key: Value) -> Result<Value> {
        let mut out = ptr::null_mut();
        self.check(unsafe { sys::napi_get_property(self.0, object, key, &mut out) })?;
        Ok(out)
    }

    pub fn set(self, object: Value, name: &CStr, value: Value) -> Result<()> {
        self.check(unsafe { sys::napi_set_named_property(self.0, object, name.as_ptr(), value) })
    }

    pub fn set_index(self, array: Value, index: u32, value: Value) -> Result<()> {
        self.check(unsafe { sys::napi_set_element(self.0, array, index, value) })
    }

    pub fn object(self) -> Result<Value> {
        let mut out = ptr::null_mut();
        self.check(unsafe { sys::napi_create_object(self.0, &mut out) })?;
        Ok(out)
    }

    pub fn array(self, len: usize) -> Result<Value> {
        let mut out = ptr::null_mut();
        self.check(unsafe { sys::napi_create_array_with_length(self.0, len, &mut out) })?;
        Ok(out)
    }

    /// A new array holding `items` in order.
    pub fn array_of(self, items: &[Value]) -> Result<Value> {
        let array = self.array(items.len())?;
        for (i, item) in items.iter().enumerate() {
            self.set_index(array, i as u32, *item)?;
        }
        Ok(array)
    }

    pub fn number(self, value: f64) -> Result<Value> {
        let mut out = ptr::null_mut();
        self.check(unsafe { sys::napi_create_double(self.0, value, &mut out) })?;
        Ok(out)
    }

    /// The number in `value`, or `None` when it is not a number.
    pub fn as_number(self, value: Value) -> Result<Option<f64>> {
        if self.type_of(value)? != sys::ValueType::napi_number {
            return Ok(None);
        }
        let mut out = 0.0;
        self.check(unsafe { sys::napi_get_value_double(self.0, value, &mut out) })?;
        Ok(Some(out))
    }

    pub fn undefined(self) -> Result<Value> {
        let mut out = ptr::null_mut();
        self.check(unsafe { sys::napi_get_undefined(self.0, &mut out) })?;
        Ok(out)
    }

    pub fn null(self) -> Result<Value> {
        let mut out = ptr::null_mut();
        self.check(unsafe { sys::napi_get_null(self.0, &mut out) })?;
        Ok(out)
    }

    pub fn is_string(self, value: Value) -> Result<bool> {
        Ok(self.type_of(value)? == sys::ValueType::napi_string)
    }

    /// A JS string from UTF-16 code units, byte-exact (lone surrogates kept).
    pub fn string_utf16(self, units: &[u16]) -> Result<Value> {
        let mut out = ptr::null_mut();
        self.check(unsafe { sys::napi_create_string_utf16(self.0, units.as_ptr(), units.len() as isize, &mut out) })?;
        Ok(out)
    }

    pub fn string(self, text: &str) -> Result<Value> {
        let mut out = ptr::null_mut();
        self.check(unsafe {
            sys::napi_create_string_utf8(self.0, text.as_ptr().cast(), text.len() as isize, &mut out)
        })?;
        Ok(out)
    }

    /// UTF-16 length of a JS string.
    pub fn string_len(self, value: Value) -> Result<usize> {
        let mut len = 0;
        self.check(unsafe { sys::napi_get_value_string_utf16(self.0, value, ptr::null_mut(), 0, &mut len) })?;
        Ok(len)
    }

    /// Replaces `buf` with the code units of the JS string `value`: one copy,
    /// no decoding, so lone surrogates arrive as they are.
    pub fn read_utf16(self, value: Value, buf: &mut Vec<u16>) -> Result<()> {
        let len = self.string_len(value)?;
        buf.clear();
        // Node-API writes a terminating NUL after the units.
        buf.reserve_exact(len + 1);
        let mut written = 0;
        self.check(unsafe {
            sys::napi_get_value_string_utf16(self.0, value, buf.as_mut_ptr(), len + 1, &mut written)
        })?;
        // SAFETY: Node-API initialised `written <= len` units.
        unsafe { buf.set_len(written.min(len)) };
        Ok(())
    }

    /// True when the JS value is exactly the ASCII string `expected`.
    pub fn is_ascii_string(self, value: Value, expected: &str) -> Result<bool> {
        if !self.is_string(value)? || self.string_len(value)? != expected.len() {
            return Ok(false);
        }
        let mut buf = [0u16; 32];
        let mut written = 0;
        let cap = expected.len().min(buf.len() - 1) + 1;
        self.check(unsafe { sys::napi_get_value_string_utf16(self.0, value, buf.as_mut_ptr(), cap, &mut written) })?;
        Ok(written == expected.len() && buf[..written].iter().copied().eq(expected.encode_utf16()))
    }

    /// `{ ...source, [name]: value }` with spread semantics: the source's own
    /// enumerable keys (strings then symbols) in order, each defined as a
    /// data property, and `name` replacing its value in place (or added last).
    pub fn spread_with(self, source: Value, name: &CStr, value: Value) -> Result<Value> {
        let mut keys = ptr::null_mut();
        self.check(unsafe {
            sys::napi_get_all_property_names(
                self.0,
                source,
                sys::KeyCollectionMode::own_only,
                sys::KeyFilter::enumerable,
                sys::KeyConversion::numbers_to_strings,
                &mut keys,
            )
        })?;
        let count = self.array_len(keys)?;
        let target = self.object()?;
        let name_value = self.string(name.to_str().unwrap_or_default())?;
        let mut replaced = false;
        let mut props = Vec::with_capacity(count as usize + 1);
        for i in 0..count {
            let key = self.get_index(keys, i)?;
            let item = if !replaced && self.strict_equals(key, name_value)? {
                replaced = true;
                value
            } else {
                self.get_key(source, key)?
            };
            props.push(data_property(key, item));
        }
        if !replaced {
            props.push(data_property(name_value, value));
        }
        self.check(unsafe { sys::napi_define_properties(self.0, target, props.len(), props.as_ptr()) })?;
        Ok(target)
    }

    pub fn strict_equals(self, a: Value, b: Value) -> Result<bool> {
        let mut out = false;
        self.check(unsafe { sys::napi_strict_equals(self.0, a, b, &mut out) })?;
        Ok(out)
    }

    /// Calls `object[name](...args)` with `this` bound to `object`.
    pub fn call_method(self, object: Value, name: &CStr, args: &[Value]) -> Result<Value> {
        let func = self.get(object, name)?;
        if self.type_of(func)? != sys::ValueType::napi_function {
            return Err(self.type_error(&format!("{} is not a function", name.to_string_lossy())));
        }
        self.call(object, func, args)
    }

    pub fn call(self, this: Value, func: Value, args: &[Value]) -> Result<Value> {
        let mut out = ptr::null_mut();
        self.check(unsafe { sys::napi_call_function(self.0, this, func, args.len(), args.as_ptr(), &mut out) })?;
        Ok(out)
    }
}

/// `n` when it is a non-negative integer a JS number holds exactly.
pub fn safe_count(n: f64) -> Option<u64> {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    ((0.0..=MAX_SAFE).contains(&n) && n.fract() == 0.0).then_some(n as u64)
}

fn c_message(message: &str) -> CString {
    CString::new(message.replace('\0', " ")).unwrap_or_default()
}

/// A writable, enumerable, configurable data property, as an object literal makes.
fn data_property(key: Value, value: Value) -> sys::napi_property_descriptor {
    sys::napi_property_descriptor {
        utf8name: ptr::null(),
        name: key,
        method: None,
        getter: None,
        setter: None,
        value,
        attributes: sys::PropertyAttributes::writable
            | sys::PropertyAttributes::enumerable
            | sys::PropertyAttributes::configurable,
        data: ptr::null_mut(),
    }
}
