//! Messages: one value of a struct, owned (its arena is freed on drop), every field
//! reachable by name; encode, JSON and the text form are the core's.
use std::fmt;
use std::marker::PhantomData;
use std::ptr::NonNull;

use fbe_sys as sys;

use crate::codec::Model;
use crate::convert;
use crate::error::{check, raw, Error, Result, Status};
use crate::raw::{with_cstr, Arena, Buffer};
use crate::types::StructType;
use crate::value::Value;

/// A value of a struct of a schema. It borrows the schema (`'s`), owns its memory, and
/// holds nothing that points elsewhere: it can be sent to another thread.
pub struct Message<'s> {
    msg: NonNull<sys::fbe_msg>,
    arena: Arena,
    _schema: PhantomData<&'s crate::Schema>,
}

// The message lives in its own arena; the schema it reads is immutable and Sync.
unsafe impl Send for Message<'_> {}
unsafe impl Sync for Message<'_> {}

impl<'s> Message<'s> {
    /// Takes a message the core made in `arena` (NULL: out of memory).
    pub(crate) unsafe fn adopt(arena: Arena, msg: *mut sys::fbe_msg) -> Result<Message<'s>> {
        match NonNull::new(msg) {
            Some(msg) => Ok(Message { msg, arena, _schema: PhantomData }),
            None => Err(Error::with_text(Status::OutOfMemory, "out of memory".into())),
        }
    }

    /// A copy of a message the core lends for the length of a callback.
    pub(crate) unsafe fn copy_of(msg: *const sys::fbe_msg) -> Result<Message<'s>> {
        let arena = Arena::new()?;
        let mut out = std::ptr::null_mut();
        let mut err = raw();
        check(sys::fbe_msg_copy(msg, arena.ptr(), &mut out, &mut err), &err)?;
        Message::adopt(arena, out)
    }

    pub(crate) fn ptr(&self) -> *mut sys::fbe_msg {
        self.msg.as_ptr()
    }

    fn root(&self) -> sys::fbe_ref {
        unsafe { sys::fbe_msg_ref(self.msg.as_ptr()) }
    }

    /// The message's struct type.
    pub fn struct_type(&self) -> StructType<'s> {
        unsafe { StructType::from_raw(sys::fbe_msg_type(self.msg.as_ptr())) }
    }

    fn field_ref(&self, name: &str) -> Result<sys::fbe_ref> {
        let (r, whole) = with_cstr(name, |c, whole| (unsafe { sys::fbe_ref_field(self.root(), c) }, whole));
        if r.slot.is_null() || !whole {
            let mut err = raw();
            unsafe {
                sys::input::fbei_error_unknown_field(&mut err, self.struct_type().ptr(), name.as_ptr() as _, name.len())
            };
            return Err(Error::from_raw(&err));
        }
        Ok(r)
    }

    /// The value of field `name` (an unknown name: `Status::UnknownField`).
    pub fn get(&self, name: &str) -> Result<Value> {
        self.field_ref(name).map(convert::read)
    }

    /// Sets field `name` from a host value (the README's type mapping: integers of any
    /// width, `f64`, `&str` (also a decimal's, uuid's or enum member's text, one
    /// character for a `char`), `Vec<u8>`, [`Value`]s). A value the field cannot take
    /// is refused with the core's error and path; the field may then be half-set.
    pub fn set(&mut self, name: &str, value: impl Into<Value>) -> Result<()> {
        let mut err = raw();
        let s = convert::write_field(self.root(), name, value.into(), &mut err);
        check(s, &err)
    }

    /// Sets the fields named by `(name, value)` pairs, in order; at the first refusal
    /// the rest are dropped (without recursion: they may be nested deep).
    pub(crate) fn set_members(&mut self, members: Vec<(String, Value)>) -> Result<()> {
        let mut err = raw();
        let s = convert::write_members(self.root(), members, &mut err);
        check(s, &err)
    }

    /// The whole message as a [`Value::Struct`].
    pub fn to_value(&self) -> Value {
        convert::read(self.root())
    }

    /// A string field, borrowed from the message.
    pub fn get_str(&self, name: &str) -> Option<&str> {
        let b = self.blob(name, crate::Kind::String)?;
        std::str::from_utf8(b).ok()
    }

    /// A bytes field, borrowed from the message.
    pub fn get_bytes(&self, name: &str) -> Option<&[u8]> {
        self.blob(name, crate::Kind::Bytes)
    }

    fn blob(&self, name: &str, kind: crate::Kind) -> Option<&[u8]> {
        let r = self.field_ref(name).ok()?;
        if crate::Kind::from_raw(unsafe { sys::fbe_ref_kind(r) }) != kind {
            return None;
        }
        let (mut p, mut n) = (std::ptr::null(), 0usize);
        if unsafe { sys::fbe_ref_get_bytes(r, &mut p, &mut n) } != sys::FBE_OK {
            return None;
        }
        Some(if n == 0 { &[] } else { unsafe { std::slice::from_raw_parts(p, n) } })
    }

    /// An integer field (also bool, char, enum, timestamp) that fits an `i64`.
    pub fn get_i64(&self, name: &str) -> Option<i64> {
        let r = self.field_ref(name).ok()?;
        let mut v = 0;
        (unsafe { sys::fbe_ref_get_int(r, &mut v) } == sys::FBE_OK).then_some(v)
    }

    /// An integer field that fits a `u64`.
    pub fn get_u64(&self, name: &str) -> Option<u64> {
        let r = self.field_ref(name).ok()?;
        let mut v = 0;
        (unsafe { sys::fbe_ref_get_uint(r, &mut v) } == sys::FBE_OK).then_some(v)
    }

    /// A float or double field.
    pub fn get_f64(&self, name: &str) -> Option<f64> {
        let r = self.field_ref(name).ok()?;
        let mut v = 0.0;
        (unsafe { sys::fbe_ref_get_double(r, &mut v) } == sys::FBE_OK).then_some(v)
    }

    pub fn get_bool(&self, name: &str) -> Option<bool> {
        let r = self.field_ref(name).ok()?;
        let mut v = 0;
        (unsafe { sys::fbe_ref_get_bool(r, &mut v) } == sys::FBE_OK).then_some(v != 0)
    }

    /// The message's bytes in `model`.
    pub fn encode(&self, model: Model) -> Result<Vec<u8>> {
        let mut out = Buffer::new();
        self.encode_buffer(model, &mut out)?;
        Ok(out.to_vec())
    }

    /// Appends the message's bytes in `model` to `out` (reuse one vector in a loop).
    pub fn encode_into(&self, model: Model, out: &mut Vec<u8>) -> Result<()> {
        let mut buf = Buffer::new();
        self.encode_buffer(model, &mut buf)?;
        out.extend_from_slice(buf.as_slice());
        Ok(())
    }

    /// Encodes into `out` (emptied first, its capacity kept): the bytes are written in
    /// place by the core, no copy. The fast path for a loop.
    pub fn encode_to<'b>(&self, model: Model, out: &'b mut crate::EncodeBuffer) -> Result<&'b [u8]> {
        out.clear();
        self.encode_buffer(model, &mut out.0)?;
        Ok(out.as_bytes())
    }

    fn encode_buffer(&self, model: Model, out: &mut Buffer) -> Result<()> {
        let mut err = raw();
        let s = unsafe { sys::fbe_encode(self.msg.as_ptr(), model.raw(), &mut out.0, &mut err) };
        check(s, &err)
    }

    /// The JSON form (docs/JSON.md), compact.
    pub fn to_json(&self) -> Result<String> {
        self.to_json_with(false, false)
    }

    /// The JSON form, indented by two spaces (`pretty`), enums and flags by name
    /// (`enum_names`).
    pub fn to_json_with(&self, pretty: bool, enum_names: bool) -> Result<String> {
        let opts = sys::fbe_json_options {
            pretty: pretty as i32,
            enum_names: enum_names as i32,
            int64_strings: 0,
            ignore_unknown: 0,
            limits: std::ptr::null(),
        };
        let mut out = Buffer::new();
        let mut err = raw();
        let s = unsafe { sys::fbe_msg_to_json_opts(self.msg.as_ptr(), &opts, &mut out.0, &mut err) };
        check(s, &err).map(|_| out.to_text())
    }

    /// The text form (docs/TEXT.md): `Account(id=1,name="Test",...)`, as `Display`
    /// prints it; an error when it would pass the output limit.
    pub fn to_text(&self) -> Result<String> {
        let mut out = Buffer::new();
        let mut err = raw();
        let s = unsafe { sys::fbe_msg_to_text_limited(self.msg.as_ptr(), std::ptr::null(), &mut out.0, &mut err) };
        check(s, &err).map(|_| out.to_text())
    }

    /// A deep copy (its own arena).
    pub fn try_clone(&self) -> Result<Message<'s>> {
        unsafe { Message::copy_of(self.msg.as_ptr()) }
    }

    /// The hash of the `[key]` fields (consistent with `==`; 0 without keys).
    pub fn key_hash(&self) -> u64 {
        unsafe { sys::fbe_msg_key_hash(self.msg.as_ptr()) }
    }

    #[allow(dead_code)]
    pub(crate) fn arena(&self) -> *mut sys::fbe_arena {
        self.arena.ptr()
    }
}

impl Clone for Message<'_> {
    /// A deep copy; panics only when memory runs out (as `Vec::clone` does).
    fn clone(&self) -> Self {
        self.try_clone().expect("out of memory")
    }
}

/// Deep equality, the core's: floats by bit pattern, decimals by value.
impl PartialEq for Message<'_> {
    fn eq(&self, other: &Self) -> bool {
        unsafe { sys::fbe_msg_equal(self.msg.as_ptr(), other.msg.as_ptr()) != 0 }
    }
}

impl fmt::Display for Message<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text().map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Message<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_text() {
            Ok(t) => f.write_str(&t),
            Err(e) => write!(f, "{}(<{}>)", self.struct_type().full_name(), e),
        }
    }
}
