//! Views: reading a message in place from its verified bytes, without decoding it
//! (`fbe/view.h`). A view borrows the buffer and the schema (`'a`): strings and bytes
//! come back as `&'a str` / `&'a [u8]` pointing into the buffer.
use std::fmt;
use std::marker::PhantomData;

use fbe_sys as sys;

use crate::codec::{Limits, Model};
use crate::error::{check, raw, Error, Result, Status};
use crate::message::Message;
use crate::raw::{with_cstr, Arena, Buffer};
use crate::types::{FieldType, Kind, StructType};
use crate::value::{Decimal, Uuid};

/// One value of a verified model: the root struct, a field, an element, a map key or
/// value. Cheap to copy.
#[derive(Clone, Copy)]
pub struct View<'a> {
    v: sys::fbe_view,
    root: *const sys::fbe_struct,
    _borrow: PhantomData<&'a [u8]>,
}

// A view reads immutable bytes and an immutable schema.
unsafe impl Send for View<'_> {}
unsafe impl Sync for View<'_> {}

impl<'s> StructType<'s> {
    /// Verifies `data` as a model of this type and opens a view of its root struct.
    pub fn view<'a>(&self, data: &'a [u8], model: Model) -> Result<View<'a>>
    where
        's: 'a,
    {
        self.view_with(data, model, None)
    }

    pub fn view_with<'a>(&self, data: &'a [u8], model: Model, limits: Option<&Limits>) -> Result<View<'a>>
    where
        's: 'a,
    {
        let mut v = std::mem::MaybeUninit::<sys::fbe_view>::zeroed();
        let mut err = raw();
        let lim = limits.map_or(std::ptr::null(), |l| &l.raw as *const _);
        let s = unsafe {
            sys::fbe_view_open(self.ptr(), model.raw(), data.as_ptr() as _, data.len(), lim, v.as_mut_ptr(), &mut err)
        };
        check(s, &err)?;
        Ok(View { v: unsafe { v.assume_init() }, root: self.ptr(), _borrow: PhantomData })
    }
}

fn type_error() -> Error {
    Error::with_text(Status::Type, Status::Type.text().to_owned())
}

impl<'a> View<'a> {
    fn wrap(&self, v: sys::fbe_view) -> View<'a> {
        View { v, root: self.root, _borrow: PhantomData }
    }

    fn ok(&self) -> bool {
        !self.v.type_.is_null()
    }

    /// The error of a read that found no value: what verify says of the bytes now.
    fn fault(&self) -> Error {
        let mut err = raw();
        unsafe { sys::fbe_view_fault(self.root, self.v, &mut err) };
        Error::from_raw(&err)
    }

    fn checked(&self, v: sys::fbe_view) -> Result<View<'a>> {
        let w = self.wrap(v);
        if w.ok() {
            Ok(w)
        } else {
            Err(self.fault())
        }
    }

    pub fn kind(&self) -> Kind {
        Kind::from_raw(unsafe { sys::fbe_view_kind(self.v) })
    }

    /// The viewed value's type.
    pub fn value_type(&self) -> FieldType<'a> {
        unsafe { FieldType::from_raw(self.v.type_) }
    }

    /// Field `name` of a struct view.
    pub fn field(&self, name: &str) -> Result<View<'a>> {
        let is_struct = self.kind() == Kind::Struct;
        let (f, known) = with_cstr(name, |c, whole| unsafe {
            let f = sys::fbe_view_field_named(self.v, c);
            let known = whole
                && (!f.type_.is_null()
                    || (is_struct && !sys::fbe_struct_field(sys::fbe_type_struct(self.v.type_), c).is_null()));
            (f, known)
        });
        if f.type_.is_null() && is_struct {
            let st = unsafe { sys::fbe_type_struct(self.v.type_) };
            if !known {
                let mut err = raw();
                unsafe { sys::input::fbei_error_unknown_field(&mut err, st, name.as_ptr() as _, name.len()) };
                return Err(Error::from_raw(&err));
            }
        }
        if f.type_.is_null() && self.kind() != Kind::Struct {
            return Err(type_error());
        }
        self.checked(f)
    }

    /// Field `index` (inherited fields first).
    pub fn field_at(&self, index: usize) -> Result<View<'a>> {
        self.checked(unsafe { sys::fbe_view_field(self.v, index) })
    }

    /// Elements of an array or collection, entries of a map.
    pub fn len(&self) -> usize {
        unsafe { sys::fbe_view_count(self.v) }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `index` (the final model walks the ones before it: iterate instead).
    pub fn at(&self, index: usize) -> Result<View<'a>> {
        self.checked(unsafe { sys::fbe_view_at(self.v, index) })
    }

    /// Every element in order, O(1) a step in both models.
    pub fn iter(&self) -> ViewIter<'a> {
        ViewIter { it: unsafe { sys::fbe_view_iterate(self.v) }, root: self.root, _borrow: PhantomData }
    }

    /// Every map entry in order: (key, value).
    pub fn entries(&self) -> EntryIter<'a> {
        EntryIter { it: unsafe { sys::fbe_view_iterate(self.v) }, root: self.root, _borrow: PhantomData }
    }

    /// An optional holding no value.
    pub fn is_null(&self) -> bool {
        unsafe { sys::fbe_view_is_null(self.v) != 0 }
    }

    /// An optional's value; `None` when null.
    pub fn value(&self) -> Option<View<'a>> {
        let d = self.wrap(unsafe { sys::fbe_view_deref(self.v) });
        d.ok().then_some(d)
    }

    fn got<T>(&self, s: sys::fbe_status, v: T) -> Result<T> {
        if s == sys::FBE_OK {
            Ok(v)
        } else if !self.ok() {
            Err(self.fault())
        } else if s == Status::Type.code() {
            Err(type_error())
        } else {
            Err(Error::with_text(Status::from_code(s), Status::from_code(s).text().to_owned()))
        }
    }

    pub fn get_i64(&self) -> Result<i64> {
        let mut v = 0;
        let s = unsafe { sys::fbe_view_get_int(self.v, &mut v) };
        self.got(s, v)
    }
    pub fn get_u64(&self) -> Result<u64> {
        let mut v = 0;
        let s = unsafe { sys::fbe_view_get_uint(self.v, &mut v) };
        self.got(s, v)
    }
    pub fn get_f64(&self) -> Result<f64> {
        let mut v = 0.0;
        let s = unsafe { sys::fbe_view_get_double(self.v, &mut v) };
        self.got(s, v)
    }
    pub fn get_bool(&self) -> Result<bool> {
        let mut v = 0;
        let s = unsafe { sys::fbe_view_get_bool(self.v, &mut v) };
        self.got(s, v != 0)
    }
    pub fn get_decimal(&self) -> Result<Decimal> {
        let mut v = sys::fbe_decimal::default();
        let s = unsafe { sys::fbe_view_get_decimal(self.v, &mut v) };
        self.got(s, Decimal(v))
    }
    pub fn get_uuid(&self) -> Result<Uuid> {
        let mut v = sys::fbe_uuid::default();
        let s = unsafe { sys::fbe_view_get_uuid(self.v, &mut v) };
        self.got(s, Uuid(v.bytes))
    }
    /// A bytes (or string) value, borrowed from the buffer (a default: from the schema).
    pub fn get_bytes(&self) -> Result<&'a [u8]> {
        let (mut p, mut n) = (std::ptr::null(), 0usize);
        let s = unsafe { sys::fbe_view_get_bytes(self.v, &mut p, &mut n) };
        self.got(s, ())?;
        Ok(if n == 0 { &[] } else { unsafe { std::slice::from_raw_parts(p, n) } })
    }
    /// A string value, borrowed from the buffer (verified UTF-8).
    pub fn get_str(&self) -> Result<&'a str> {
        if self.kind() != Kind::String {
            return Err(if self.ok() { type_error() } else { self.fault() });
        }
        let b = self.get_bytes()?;
        std::str::from_utf8(b).map_err(|_| self.fault())
    }

    /// The viewed struct as a message: exactly what decode gives for these bytes.
    pub fn to_message(&self) -> Result<Message<'a>> {
        let arena = Arena::new()?;
        let mut out = std::ptr::null_mut();
        let mut err = raw();
        let s = unsafe { sys::fbe_view_to_msg(self.v, arena.ptr(), std::ptr::null(), &mut out, &mut err) };
        check(s, &err)?;
        unsafe { Message::adopt(arena, out) }
    }

    /// The viewed value's JSON, the same as the decoded value's.
    pub fn to_json(&self) -> Result<String> {
        let mut out = Buffer::new();
        let mut err = raw();
        let s = unsafe { sys::fbe_view_to_json(self.v, std::ptr::null(), &mut out.0, &mut err) };
        check(s, &err).map(|_| out.to_text())
    }

    /// The viewed value's text form, the same as the decoded value's.
    pub fn to_text(&self) -> Result<String> {
        let mut out = Buffer::new();
        let mut err = raw();
        let s = unsafe { sys::fbe_view_to_text(self.v, std::ptr::null(), &mut out.0, &mut err) };
        check(s, &err).map(|_| out.to_text())
    }
}

impl fmt::Display for View<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text().map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for View<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "View({})", self.to_text().unwrap_or_default())
    }
}

/// The elements of a viewed array or collection.
pub struct ViewIter<'a> {
    it: sys::fbe_view_iter,
    root: *const sys::fbe_struct,
    _borrow: PhantomData<&'a [u8]>,
}

impl<'a> Iterator for ViewIter<'a> {
    type Item = View<'a>;
    fn next(&mut self) -> Option<View<'a>> {
        let mut v = std::mem::MaybeUninit::<sys::fbe_view>::zeroed();
        if unsafe { sys::fbe_view_next(&mut self.it, v.as_mut_ptr(), std::ptr::null_mut()) } == 0 {
            return None;
        }
        Some(View { v: unsafe { v.assume_init() }, root: self.root, _borrow: PhantomData })
    }
}

/// The entries of a viewed map.
pub struct EntryIter<'a> {
    it: sys::fbe_view_iter,
    root: *const sys::fbe_struct,
    _borrow: PhantomData<&'a [u8]>,
}

impl<'a> Iterator for EntryIter<'a> {
    type Item = (View<'a>, View<'a>);
    fn next(&mut self) -> Option<(View<'a>, View<'a>)> {
        let mut k = std::mem::MaybeUninit::<sys::fbe_view>::zeroed();
        let mut v = std::mem::MaybeUninit::<sys::fbe_view>::zeroed();
        if unsafe { sys::fbe_view_next(&mut self.it, k.as_mut_ptr(), v.as_mut_ptr()) } == 0 {
            return None;
        }
        let w = |x: std::mem::MaybeUninit<sys::fbe_view>| View {
            v: unsafe { x.assume_init() },
            root: self.root,
            _borrow: PhantomData,
        };
        Some((w(k), w(v)))
    }
}
