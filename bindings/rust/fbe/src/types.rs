//! What a schema defines: struct types, their fields and field types, enums and flags.
//! Every one borrows its schema (`'s`): a type cannot outlive the schema it came from.
use std::marker::PhantomData;

use fbe_sys as sys;

use crate::error::{check, raw, Error, Result};
use crate::message::Message;
use crate::raw::{str_of, Arena};
use crate::codec::{Limits, Model};
use crate::value::Value;

/// Every type form of the schema language (`fbe_kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Bool, Byte, Char, Wchar, Int8, Uint8, Int16, Uint16, Int32, Uint32, Int64, Uint64,
    Float, Double, Decimal, Timestamp, Uuid, String, Bytes, Enum, Flags, Struct,
    Optional, Array, Vector, List, Set, Map, Hash,
}

const KINDS: [Kind; 29] = [
    Kind::Bool, Kind::Byte, Kind::Char, Kind::Wchar, Kind::Int8, Kind::Uint8, Kind::Int16,
    Kind::Uint16, Kind::Int32, Kind::Uint32, Kind::Int64, Kind::Uint64, Kind::Float,
    Kind::Double, Kind::Decimal, Kind::Timestamp, Kind::Uuid, Kind::String, Kind::Bytes,
    Kind::Enum, Kind::Flags, Kind::Struct, Kind::Optional, Kind::Array, Kind::Vector,
    Kind::List, Kind::Set, Kind::Map, Kind::Hash,
];

impl Kind {
    pub(crate) fn from_raw(k: sys::fbe_kind) -> Kind {
        KINDS[k as usize]
    }
    pub(crate) fn raw(self) -> sys::fbe_kind {
        KINDS.iter().position(|k| *k == self).unwrap() as sys::fbe_kind
    }
    /// The schema language's name of the kind (`"int32"`, `"vector"`), the core's.
    pub fn name(self) -> &'static str {
        unsafe { str_of(sys::fbe_kind_name(self.raw())) }
    }
}

/// A struct or message of a schema.
#[derive(Clone, Copy)]
pub struct StructType<'s> {
    ptr: *const sys::fbe_struct,
    _schema: PhantomData<&'s crate::Schema>,
}

// A borrowed part of an immutable schema.
unsafe impl Send for StructType<'_> {}
unsafe impl Sync for StructType<'_> {}

impl PartialEq for StructType<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.ptr == other.ptr
    }
}
impl Eq for StructType<'_> {}

impl std::fmt::Debug for StructType<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "StructType({})", self.full_name())
    }
}

impl<'s> StructType<'s> {
    pub(crate) unsafe fn from_raw(ptr: *const sys::fbe_struct) -> StructType<'s> {
        StructType { ptr, _schema: PhantomData }
    }
    pub(crate) fn ptr(&self) -> *const sys::fbe_struct {
        self.ptr
    }
    /// `"Account"`.
    pub fn name(&self) -> &'s str {
        unsafe { str_of(sys::fbe_struct_name(self.ptr)) }
    }
    /// `"proto.Account"`.
    pub fn full_name(&self) -> &'s str {
        unsafe { str_of(sys::fbe_struct_full_name(self.ptr)) }
    }
    pub fn type_id(&self) -> u32 {
        unsafe { sys::fbe_struct_type_id(self.ptr) }
    }
    /// Declared with `message` (a type of the package's protocol).
    pub fn is_message(&self) -> bool {
        unsafe { sys::fbe_struct_is_message(self.ptr) != 0 }
    }
    pub fn base(&self) -> Option<StructType<'s>> {
        let b = unsafe { sys::fbe_struct_base(self.ptr) };
        (!b.is_null()).then(|| unsafe { StructType::from_raw(b) })
    }
    /// Every field, inherited ones first.
    pub fn fields(&self) -> Vec<Field<'s>> {
        (0..unsafe { sys::fbe_struct_field_count(self.ptr) })
            .map(|i| Field { ptr: unsafe { sys::fbe_struct_field_at(self.ptr, i) }, _schema: PhantomData })
            .collect()
    }
    pub fn field(&self, name: &str) -> Option<Field<'s>> {
        let c = crate::raw::cstring(name);
        let f = unsafe { sys::fbe_struct_field(self.ptr, c.as_ptr()) };
        (!f.is_null() && c.as_bytes().len() == name.len()).then_some(Field { ptr: f, _schema: PhantomData })
    }

    /// A new message with every field at its schema default.
    pub fn new_message(&self) -> Result<Message<'s>> {
        let arena = Arena::new()?;
        let msg = unsafe { sys::fbe_msg_new(arena.ptr(), self.ptr) };
        unsafe { Message::adopt(arena, msg) }
    }

    /// A message from its JSON form (docs/JSON.md), read by the core.
    pub fn from_json(&self, json: &str) -> Result<Message<'s>> {
        self.from_json_with(json, false, None)
    }

    /// [`from_json`](Self::from_json) with its options: skip members the struct does not
    /// have (`ignore_unknown`), and limits.
    pub fn from_json_with(&self, json: &str, ignore_unknown: bool, limits: Option<&Limits>) -> Result<Message<'s>> {
        let arena = Arena::new()?;
        let opts = sys::fbe_json_options {
            pretty: 0,
            enum_names: 0,
            int64_strings: 0,
            ignore_unknown: ignore_unknown as i32,
            limits: limits.map_or(std::ptr::null(), |l| &l.raw),
        };
        let mut out = std::ptr::null_mut();
        let mut err = raw();
        let s = unsafe {
            sys::fbe_msg_from_json_opts(self.ptr, json.as_ptr() as _, json.len(), arena.ptr(), &opts, &mut out, &mut err)
        };
        check(s, &err)?;
        unsafe { Message::adopt(arena, out) }
    }

    /// A message from a host value: a [`Value::Struct`] of `(field name, value)` pairs,
    /// each converted as [`Message::set`] converts it.
    pub fn from_value(&self, value: Value) -> Result<Message<'s>> {
        let mut m = self.new_message()?;
        match value {
            Value::Struct(members) => {
                m.set_members(members)?;
                Ok(m)
            }
            other => {
                let mut err = raw();
                unsafe {
                    sys::input::fbei_error_type_struct(&mut err, self.ptr, other.got(), std::ptr::null())
                };
                crate::convert::dispose(other);
                Err(Error::from_raw(&err))
            }
        }
    }

    /// Decodes the model at the start of `data`, verified first (what `verify` refuses
    /// is refused with its error).
    pub fn decode(&self, data: &[u8], model: Model) -> Result<Message<'s>> {
        self.decode_impl(data, model, None, false)
    }

    /// [`decode`](Self::decode) within `limits`.
    pub fn decode_with(&self, data: &[u8], model: Model, limits: &Limits) -> Result<Message<'s>> {
        self.decode_impl(data, model, Some(limits), false)
    }

    /// Decodes without verifying, for bytes already verified or trusted (every offset is
    /// still checked: hostile bytes give an error, never a read outside `data`).
    pub fn decode_trusted(&self, data: &[u8], model: Model) -> Result<Message<'s>> {
        self.decode_impl(data, model, None, true)
    }

    fn decode_impl(&self, data: &[u8], model: Model, limits: Option<&Limits>, trusted: bool) -> Result<Message<'s>> {
        let arena = Arena::new()?;
        let mut out = std::ptr::null_mut();
        let mut err = raw();
        let f = if trusted { sys::fbe_decode_trusted } else { sys::fbe_decode };
        let lim = limits.map_or(std::ptr::null(), |l| &l.raw as *const _);
        let s = unsafe {
            f(self.ptr, model.raw(), data.as_ptr(), data.len(), arena.ptr(), lim, &mut out, std::ptr::null_mut(), &mut err)
        };
        check(s, &err)?;
        unsafe { Message::adopt(arena, out) }
    }

    /// Checks that `data` starts with a valid model of this type: its size, or why not.
    pub fn verify(&self, data: &[u8], model: Model) -> Result<usize> {
        self.verify_with(data, model, None)
    }

    pub fn verify_with(&self, data: &[u8], model: Model, limits: Option<&Limits>) -> Result<usize> {
        let mut size = 0usize;
        let mut err = raw();
        let lim = limits.map_or(std::ptr::null(), |l| &l.raw as *const _);
        let s = unsafe { sys::fbe_verify(self.ptr, model.raw(), data.as_ptr(), data.len(), lim, &mut size, &mut err) };
        check(s, &err).map(|_| size)
    }

    /// Whether `data` is a valid model of this type.
    pub fn is_valid(&self, data: &[u8], model: Model) -> bool {
        self.verify(data, model).is_ok()
    }
}

/// A field of a struct.
#[derive(Clone, Copy)]
pub struct Field<'s> {
    ptr: *const sys::fbe_field,
    _schema: PhantomData<&'s crate::Schema>,
}

unsafe impl Send for Field<'_> {}
unsafe impl Sync for Field<'_> {}

impl<'s> Field<'s> {
    pub fn name(&self) -> &'s str {
        unsafe { str_of(sys::fbe_field_name(self.ptr)) }
    }
    pub fn field_type(&self) -> FieldType<'s> {
        unsafe { FieldType::from_raw(sys::fbe_field_type(self.ptr)) }
    }
    /// Marked `[key]`.
    pub fn is_key(&self) -> bool {
        unsafe { sys::fbe_field_is_key(self.ptr) != 0 }
    }
}

/// The type of a field, an element, a map key or value.
#[derive(Clone, Copy)]
pub struct FieldType<'s> {
    ptr: *const sys::fbe_type,
    _schema: PhantomData<&'s crate::Schema>,
}

unsafe impl Send for FieldType<'_> {}
unsafe impl Sync for FieldType<'_> {}

impl<'s> FieldType<'s> {
    pub(crate) unsafe fn from_raw(ptr: *const sys::fbe_type) -> FieldType<'s> {
        FieldType { ptr, _schema: PhantomData }
    }
    pub fn kind(&self) -> Kind {
        Kind::from_raw(unsafe { sys::fbe_type_kind(self.ptr) })
    }
    /// The element of an optional, array or collection; the value of a map.
    pub fn element(&self) -> Option<FieldType<'s>> {
        let e = unsafe { sys::fbe_type_element(self.ptr) };
        (!e.is_null()).then(|| unsafe { FieldType::from_raw(e) })
    }
    /// The key of a map or hash.
    pub fn key(&self) -> Option<FieldType<'s>> {
        let k = unsafe { sys::fbe_type_key(self.ptr) };
        (!k.is_null()).then(|| unsafe { FieldType::from_raw(k) })
    }
    pub fn struct_type(&self) -> Option<StructType<'s>> {
        let s = unsafe { sys::fbe_type_struct(self.ptr) };
        (!s.is_null()).then(|| unsafe { StructType::from_raw(s) })
    }
    pub fn enum_type(&self) -> Option<EnumType<'s>> {
        let e = unsafe { sys::fbe_type_enum(self.ptr) };
        (!e.is_null()).then(|| unsafe { EnumType::from_raw(e) })
    }
    /// `N` of an array `T[N]`.
    pub fn array_size(&self) -> u32 {
        unsafe { sys::fbe_type_array_size(self.ptr) }
    }
}

/// An enum or flags type.
#[derive(Clone, Copy)]
pub struct EnumType<'s> {
    ptr: *const sys::fbe_enum,
    _schema: PhantomData<&'s crate::Schema>,
}

unsafe impl Send for EnumType<'_> {}
unsafe impl Sync for EnumType<'_> {}

impl<'s> EnumType<'s> {
    pub(crate) unsafe fn from_raw(ptr: *const sys::fbe_enum) -> EnumType<'s> {
        EnumType { ptr, _schema: PhantomData }
    }
    pub fn name(&self) -> &'s str {
        unsafe { str_of(sys::fbe_enum_name(self.ptr)) }
    }
    pub fn full_name(&self) -> &'s str {
        unsafe { str_of(sys::fbe_enum_full_name(self.ptr)) }
    }
    pub fn is_flags(&self) -> bool {
        unsafe { sys::fbe_enum_is_flags(self.ptr) != 0 }
    }
    /// The integer kind the values are stored as.
    pub fn base(&self) -> Kind {
        Kind::from_raw(unsafe { sys::fbe_enum_base(self.ptr) })
    }
    /// Every member: its name and its 64-bit pattern (sign-extended for signed bases).
    pub fn values(&self) -> Vec<(&'s str, u64)> {
        (0..unsafe { sys::fbe_enum_value_count(self.ptr) })
            .map(|i| unsafe { (str_of(sys::fbe_enum_value_name(self.ptr, i)), sys::fbe_enum_value_at(self.ptr, i)) })
            .collect()
    }
    /// A value from its text: a member name; for flags names joined by `|` (the core's
    /// parser, docs/INPUT.md).
    pub fn parse(&self, text: &str) -> Result<u64> {
        let mut out = 0u64;
        let mut err = raw();
        let s = unsafe { sys::fbe_enum_parse(self.ptr, text.as_ptr() as _, text.len(), &mut out, &mut err) };
        check(s, &err).map(|_| out)
    }
}
