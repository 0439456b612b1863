//! Host values: what a field gives (`Message::get`) and takes (`Message::set`).
use std::fmt;
use std::str::FromStr;

use fbe_sys as sys;

use crate::error::{raw, Error, Result};
use crate::types::Kind;

/// A value of any FBE type, in Rust's terms (the type mapping of the README):
/// signed integer kinds as `Int`, unsigned ones, `byte`, `char`, `wchar` and timestamps
/// (nanoseconds) as `UInt`, enums and flags by their base's sign; `float` and `double`
/// as `Float`; structs as their fields in order, maps as pairs in wire order.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    /// An integer beyond both `i64` and `u64` (from an `i128` or `u128`): refused by
    /// every integer kind with the core's range error, taken by a decimal.
    Wide(i128),
    Float(f64),
    Decimal(Decimal),
    Uuid(Uuid),
    Str(String),
    /// Text as bytes this program cannot vouch for being UTF-8 (read from a file, a
    /// socket, an `OsStr`): a string field takes them when the core's UTF-8 check
    /// (`fbe_utf8_check`) passes, and refuses them with its error otherwise.
    Utf8(Vec<u8>),
    Bytes(Vec<u8>),
    /// A struct: `(field name, value)` pairs. Given to `set`, only the named fields are
    /// set; the others keep their defaults.
    Struct(Vec<(String, Value)>),
    /// An array, vector, list or set, in wire order.
    List(Vec<Value>),
    /// A map or hash: `(key, value)` entries in wire order.
    Map(Vec<(Value, Value)>),
}

impl Value {
    /// What the core calls this host value in a type error ("got a string").
    pub(crate) fn got(&self) -> i32 {
        use sys::input::*;
        match self {
            Value::Null => GOT_NULL,
            Value::Bool(_) => GOT_BOOL,
            Value::Int(_) | Value::UInt(_) | Value::Wide(_) => GOT_INTEGER,
            Value::Float(_) => GOT_FLOAT,
            Value::Decimal(_) => GOT_DECIMAL,
            Value::Uuid(_) => GOT_UUID,
            Value::Str(_) | Value::Utf8(_) => GOT_STRING,
            Value::Bytes(_) => GOT_BYTES,
            Value::Struct(_) | Value::Map(_) => GOT_MAP,
            Value::List(_) => GOT_LIST,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Value::Int(v) => Some(v),
            Value::UInt(v) => i64::try_from(v).ok(),
            _ => None,
        }
    }
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Value::UInt(v) => Some(v),
            Value::Int(v) => u64::try_from(v).ok(),
            _ => None,
        }
    }
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Float(v) => Some(v),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(v) => Some(v),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_bytes(&self) -> Option<&[u8]> {
        match self {
            Value::Bytes(b) => Some(b),
            _ => None,
        }
    }
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }
}

macro_rules! from_int {
    ($variant:ident, $($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(v: $t) -> Value { Value::$variant(v as _) }
        }
    )*};
}
from_int!(Int, i8, i16, i32, i64);
from_int!(UInt, u8, u16, u32, u64);
impl From<i128> for Value {
    fn from(v: i128) -> Value {
        i64::try_from(v).map(Value::Int).or_else(|_| u64::try_from(v).map(Value::UInt)).unwrap_or(Value::Wide(v))
    }
}
impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Bool(v)
    }
}
impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Float(v)
    }
}
impl From<f32> for Value {
    fn from(v: f32) -> Value {
        Value::Float(v as f64)
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Str(v.to_owned())
    }
}
impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Str(v)
    }
}
impl From<Vec<u8>> for Value {
    fn from(v: Vec<u8>) -> Value {
        Value::Bytes(v)
    }
}
impl From<&[u8]> for Value {
    fn from(v: &[u8]) -> Value {
        Value::Bytes(v.to_vec())
    }
}
impl From<Decimal> for Value {
    fn from(v: Decimal) -> Value {
        Value::Decimal(v)
    }
}
impl From<Uuid> for Value {
    fn from(v: Uuid) -> Value {
        Value::Uuid(v)
    }
}
impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}
impl<T: Into<Value>> From<Vec<T>> for Value
where
    T: NotByte,
{
    fn from(v: Vec<T>) -> Value {
        Value::List(v.into_iter().map(Into::into).collect())
    }
}

/// Element types whose `Vec` is a list (a `Vec<u8>` is bytes).
pub trait NotByte {}
impl NotByte for Value {}
impl NotByte for i32 {}
impl NotByte for i64 {}
impl NotByte for u32 {}
impl NotByte for u64 {}
impl NotByte for f64 {}
impl NotByte for bool {}
impl NotByte for String {}
impl NotByte for &str {}

/// FBE's 96-bit decimal (the wire's 16 bytes). Parsed and printed by the core
/// (`"123.45"`, scale kept); equality of values is the core's (by value) in messages.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Decimal(pub(crate) sys::fbe_decimal);

impl Decimal {
    /// The wire's 16 bytes.
    pub fn to_bytes(&self) -> [u8; 16] {
        self.0.bytes
    }
}

impl FromStr for Decimal {
    type Err = Error;
    fn from_str(text: &str) -> Result<Decimal> {
        let mut d = sys::fbe_decimal::default();
        let s = unsafe { sys::fbe_decimal_parse(text.as_ptr() as _, text.len(), &mut d) };
        if s == sys::FBE_OK {
            return Ok(Decimal(d));
        }
        let mut err = raw();
        unsafe {
            if s == crate::Status::Range.code() {
                let c = crate::raw::cstring(text);
                sys::input::fbei_error_decimal_range(&mut err, c.as_ptr());
            } else {
                sys::input::fbei_error_bad_text(&mut err, Kind::Decimal.raw(), text.as_ptr() as _, text.len());
            }
        }
        Err(Error::from_raw(&err))
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = [0 as std::ffi::c_char; 64];
        unsafe { sys::fbe_decimal_format(&self.0, out.as_mut_ptr(), out.len()) };
        f.write_str(unsafe { crate::raw::str_of(out.as_ptr()) })
    }
}

impl fmt::Debug for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Decimal({self})")
    }
}

/// A UUID: 16 bytes in canonical (big-endian) order; text 8-4-4-4-12, lowercase.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Uuid(pub [u8; 16]);

impl FromStr for Uuid {
    type Err = Error;
    fn from_str(text: &str) -> Result<Uuid> {
        let mut u = sys::fbe_uuid::default();
        if unsafe { sys::fbe_uuid_parse(text.as_ptr() as _, text.len(), &mut u) } == sys::FBE_OK {
            return Ok(Uuid(u.bytes));
        }
        let mut err = raw();
        unsafe { sys::input::fbei_error_bad_text(&mut err, Kind::Uuid.raw(), text.as_ptr() as _, text.len()) };
        Err(Error::from_raw(&err))
    }
}

impl fmt::Display for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = [0 as std::ffi::c_char; 37];
        unsafe { sys::fbe_uuid_format(&sys::fbe_uuid { bytes: self.0 }, out.as_mut_ptr()) };
        f.write_str(unsafe { crate::raw::str_of(out.as_ptr()) })
    }
}

impl fmt::Debug for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Uuid({self})")
    }
}
