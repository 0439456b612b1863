//! Host values to the core's values and back, through the core's field API
//! (`fbe_ref_*`). Which host value a field takes is this file's choice (the README's
//! type mapping); every refusal is in the core's words (fbe/internal/input.h) and every
//! range or text rule is the core's setter's or parser's.
use std::ffi::c_char;

use fbe_sys as sys;
use sys::{fbe_error, fbe_ref, fbe_status, FBE_OK};

use crate::types::Kind;
use crate::value::{Decimal, Uuid, Value};

fn kind_of(r: fbe_ref) -> Kind {
    Kind::from_raw(unsafe { sys::fbe_type_kind(r.type_) })
}

fn is_signed(k: Kind) -> bool {
    matches!(k, Kind::Int8 | Kind::Int16 | Kind::Int32 | Kind::Int64)
}

/// The kind an integer is stored as: an enum's or flags' base, else the kind itself.
fn integer_kind(r: fbe_ref, k: Kind) -> Option<Kind> {
    match k {
        Kind::Enum | Kind::Flags => Some(Kind::from_raw(unsafe { sys::fbe_enum_base(sys::fbe_type_enum(r.type_)) })),
        Kind::Byte | Kind::Char | Kind::Wchar | Kind::Int8 | Kind::Uint8 | Kind::Int16 | Kind::Uint16
        | Kind::Int32 | Kind::Uint32 | Kind::Int64 | Kind::Uint64 | Kind::Timestamp => Some(k),
        _ => None,
    }
}

// ---- core value -> host value ----

pub(crate) fn read(r: fbe_ref) -> Value {
    let k = kind_of(r);
    unsafe {
        match k {
            Kind::Bool => {
                let mut b = 0;
                sys::fbe_ref_get_bool(r, &mut b);
                Value::Bool(b != 0)
            }
            Kind::Float | Kind::Double => {
                let mut d = 0.0;
                sys::fbe_ref_get_double(r, &mut d);
                Value::Float(d)
            }
            Kind::Decimal => {
                let mut d = sys::fbe_decimal::default();
                sys::fbe_ref_get_decimal(r, &mut d);
                Value::Decimal(Decimal(d))
            }
            Kind::Uuid => {
                let mut u = sys::fbe_uuid::default();
                sys::fbe_ref_get_uuid(r, &mut u);
                Value::Uuid(Uuid(u.bytes))
            }
            Kind::String | Kind::Bytes => {
                let (mut p, mut n) = (std::ptr::null(), 0usize);
                sys::fbe_ref_get_bytes(r, &mut p, &mut n);
                let b = if n == 0 { &[][..] } else { std::slice::from_raw_parts(p, n) };
                if k == Kind::String {
                    // the core keeps strings UTF-8 (setters, decode and JSON check it)
                    Value::Str(String::from_utf8_lossy(b).into_owned())
                } else {
                    Value::Bytes(b.to_vec())
                }
            }
            Kind::Struct => Value::Struct(
                (0..sys::fbe_struct_field_count(sys::fbe_type_struct(r.type_)))
                    .map(|i| {
                        let f = sys::fbe_struct_field_at(sys::fbe_type_struct(r.type_), i);
                        (crate::raw::str_of(sys::fbe_field_name(f)).to_owned(), read(sys::fbe_ref_field_at(r, i)))
                    })
                    .collect(),
            ),
            Kind::Optional => {
                if sys::fbe_ref_is_null(r) != 0 {
                    Value::Null
                } else {
                    read(sys::fbe_ref_deref(r))
                }
            }
            Kind::Array | Kind::Vector | Kind::List | Kind::Set => {
                Value::List((0..sys::fbe_ref_count(r)).map(|i| read(sys::fbe_ref_at(r, i))).collect())
            }
            Kind::Map | Kind::Hash => Value::Map(
                (0..sys::fbe_ref_count(r))
                    .map(|i| (read(sys::fbe_ref_key_at(r, i)), read(sys::fbe_ref_value_at(r, i))))
                    .collect(),
            ),
            _ => {
                let ik = integer_kind(r, k).unwrap_or(k);
                if is_signed(ik) {
                    let mut v = 0i64;
                    sys::fbe_ref_get_int(r, &mut v);
                    Value::Int(v)
                } else {
                    let mut v = 0u64;
                    sys::fbe_ref_get_uint(r, &mut v);
                    Value::UInt(v)
                }
            }
        }
    }
}

// ---- host value -> core value ----

fn wrong(err: &mut fbe_error, words: *const sys::fbe_type, v: &Value) -> fbe_status {
    unsafe { sys::input::fbei_error_type(err, words, v.got(), std::ptr::null()) }
}

fn no_memory(err: &mut fbe_error) -> fbe_status {
    let fmt = b"out of memory\0";
    unsafe { sys::input::fbei_error_set(err, crate::Status::OutOfMemory.code(), sys::FBE_NO_OFFSET, fmt.as_ptr() as _) }
}

fn ok(r: fbe_ref) -> bool {
    !r.slot.is_null()
}

/// An integer given as its sign and magnitude into an integer-like field.
fn set_integer(r: fbe_ref, k: Kind, negative: bool, magnitude: u64, err: &mut fbe_error) -> fbe_status {
    let range = integer_kind(r, k).unwrap();
    let s = unsafe {
        if negative {
            sys::fbe_ref_set_int(r, (magnitude as i64).wrapping_neg(), std::ptr::null_mut())
        } else if is_signed(range) && magnitude <= i64::MAX as u64 {
            sys::fbe_ref_set_int(r, magnitude as i64, std::ptr::null_mut())
        } else {
            sys::fbe_ref_set_uint(r, magnitude, std::ptr::null_mut())
        }
    };
    if s == FBE_OK {
        return FBE_OK;
    }
    unsafe { sys::input::fbei_error_int_range(err, negative as i32, magnitude, range.raw()) }
}

fn set_decimal_text(r: fbe_ref, text: &str, err: &mut fbe_error) -> fbe_status {
    match text.parse::<Decimal>() {
        Ok(d) => unsafe { sys::fbe_ref_set_decimal(r, &d.0, err) },
        Err(e) => {
            // the parser's error, in the core's words (text or range)
            let c = crate::raw::cstring(text);
            unsafe {
                if e.status() == crate::Status::Range {
                    sys::input::fbei_error_decimal_range(err, c.as_ptr())
                } else {
                    sys::input::fbei_error_bad_text(err, Kind::Decimal.raw(), text.as_ptr() as _, text.len())
                }
            }
        }
    }
}

fn set_text(r: fbe_ref, k: Kind, words: *const sys::fbe_type, v: &Value, s: &str, err: &mut fbe_error) -> fbe_status {
    let bad_text = |err: &mut fbe_error| unsafe {
        sys::input::fbei_error_bad_text(err, k.raw(), s.as_ptr() as *const c_char, s.len())
    };
    unsafe {
        match k {
            Kind::String => sys::fbe_ref_set_bytes(r, s.as_ptr() as _, s.len(), err),
            Kind::Decimal => set_decimal_text(r, s, err),
            Kind::Uuid => match s.parse::<Uuid>() {
                Ok(u) => sys::fbe_ref_set_uuid(r, &sys::fbe_uuid { bytes: u.0 }, err),
                Err(_) => bad_text(err),
            },
            Kind::Char | Kind::Wchar => {
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => set_integer(r, k, false, c as u64, err),
                    _ => bad_text(err),
                }
            }
            Kind::Enum | Kind::Flags => {
                let e = sys::fbe_type_enum(r.type_);
                let mut bits = 0u64;
                let st = sys::fbe_enum_parse(e, s.as_ptr() as _, s.len(), &mut bits, err);
                if st != FBE_OK {
                    return st;
                }
                if is_signed(Kind::from_raw(sys::fbe_enum_base(e))) {
                    sys::fbe_ref_set_int(r, bits as i64, err)
                } else {
                    sys::fbe_ref_set_uint(r, bits, err)
                }
            }
            _ => wrong(err, words, v),
        }
    }
}

/// Drops a host value without recursion: a value nested deeper than the core takes (a
/// program can build one 60,000 levels deep) is refused, and its drop glue, one frame
/// per level, would overflow the stack on the way out.
pub(crate) fn dispose(v: Value) {
    let mut stack = vec![v];
    while let Some(mut v) = stack.pop() {
        match &mut v {
            Value::Struct(members) => stack.extend(members.drain(..).map(|(_, x)| x)),
            Value::List(items) => stack.append(items),
            Value::Map(entries) => {
                for (k, x) in entries.drain(..) {
                    stack.push(k);
                    stack.push(x);
                }
            }
            _ => {}
        }
    }
}

/// The core's default nesting limit (FBE_DEFAULT_MAX_DEPTH), asked of the core once: the
/// limit is decided in the core alone.
fn max_depth_default() -> u32 {
    static MAX: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *MAX.get_or_init(|| unsafe { sys::fbe_limits_default() }.max_depth)
}

/// A refusal part-way through: what was not written yet is dropped without recursion.
fn dispose_rest<T>(rest: impl Iterator<Item = T>, values: impl Fn(T) -> Vec<Value>) {
    for item in rest {
        values(item).into_iter().for_each(dispose);
    }
}

fn write_struct(r: fbe_ref, members: Vec<(String, Value)>, depth: u32, err: &mut fbe_error) -> fbe_status {
    let mut members = members.into_iter();
    while let Some((name, v)) = members.next() {
        let st = write_field_at(r, &name, v, depth, err);
        if st != FBE_OK {
            dispose_rest(members, |(_, x)| vec![x]);
            return st;
        }
    }
    FBE_OK
}

/// Sets the fields of the message `r` named by `members`, in order.
pub(crate) fn write_members(r: fbe_ref, members: Vec<(String, Value)>, err: &mut fbe_error) -> fbe_status {
    write_struct(r, members, 0, err)
}

/// Sets field `name` of the struct `r`, the error's path starting with the name.
pub(crate) fn write_field(r: fbe_ref, name: &str, v: Value, err: &mut fbe_error) -> fbe_status {
    write_field_at(r, name, v, 0, err)
}

/// `write_field` `depth` optionals and collections below the message.
fn write_field_at(r: fbe_ref, name: &str, v: Value, depth: u32, err: &mut fbe_error) -> fbe_status {
    let c = crate::raw::cstring(name);
    let f = if c.as_bytes().len() == name.len() {
        unsafe { sys::fbe_ref_field(r, c.as_ptr()) }
    } else {
        fbe_ref { type_: std::ptr::null(), slot: std::ptr::null_mut(), arena: std::ptr::null_mut() }
    };
    if !ok(f) {
        dispose(v);
        return unsafe {
            sys::input::fbei_error_unknown_field(err, sys::fbe_type_struct(r.type_), name.as_ptr() as _, name.len())
        };
    }
    let st = write(f, f.type_, v, depth, err);
    if st != FBE_OK {
        unsafe { sys::input::fbei_error_prepend_field(err, c.as_ptr()) };
    }
    st
}

fn write_elements(r: fbe_ref, k: Kind, items: Vec<Value>, depth: u32, err: &mut fbe_error) -> fbe_status {
    unsafe {
        if k == Kind::Array {
            if items.len() != sys::fbe_type_array_size(r.type_) as usize {
                let n = items.len();
                dispose(Value::List(items));
                return sys::input::fbei_error_array_length(err, r.type_, n);
            }
        } else {
            sys::fbe_ref_clear(r, std::ptr::null_mut());
        }
        let mut items = items.into_iter().enumerate();
        while let Some((i, item)) = items.next() {
            let e = if k == Kind::Array { sys::fbe_ref_at(r, i) } else { sys::fbe_ref_append(r) };
            if !ok(e) {
                dispose(item);
                dispose_rest(items, |(_, x)| vec![x]);
                return no_memory(err);
            }
            let st = write(e, e.type_, item, depth, err);
            if st != FBE_OK {
                dispose_rest(items, |(_, x)| vec![x]);
                sys::input::fbei_error_prepend_index(err, i);
                return st;
            }
        }
    }
    FBE_OK
}

fn write_map(r: fbe_ref, entries: Vec<(Value, Value)>, depth: u32, err: &mut fbe_error) -> fbe_status {
    unsafe {
        sys::fbe_ref_clear(r, std::ptr::null_mut());
        let mut entries = entries.into_iter().enumerate();
        while let Some((i, (key, value))) = entries.next() {
            let mut vref = fbe_ref { type_: std::ptr::null(), slot: std::ptr::null_mut(), arena: std::ptr::null_mut() };
            let kref = sys::fbe_ref_map_append(r, &mut vref);
            if !ok(kref) {
                dispose(Value::Map(vec![(key, value)]));
                dispose_rest(entries, |(_, (k, x))| vec![k, x]);
                return no_memory(err);
            }
            let mut st = write(kref, kref.type_, key, depth, err);
            if st != FBE_OK {
                dispose(value);
                sys::input::fbei_error_prepend_key(err);
            } else {
                st = write(vref, vref.type_, value, depth, err);
            }
            if st != FBE_OK {
                dispose_rest(entries, |(_, (k, x))| vec![k, x]);
                sys::input::fbei_error_prepend_index(err, i);
                return st;
            }
        }
    }
    FBE_OK
}

/// Writes `v` into `r`; `words` is the type a refusal names (an optional's, for the
/// value inside it: "int32 or null"). `depth`: the optionals and collections above `r`,
/// counted as the core's encode counts them; a value past the core's default depth
/// (`max_depth_default`) is refused with the core's error (fbei_tape_too_deep) before
/// this recursion can overflow the stack.
fn write(r: fbe_ref, words: *const sys::fbe_type, v: Value, depth: u32, err: &mut fbe_error) -> fbe_status {
    let k = kind_of(r);
    let nests = matches!(k, Kind::Array | Kind::Vector | Kind::List | Kind::Set | Kind::Map | Kind::Hash)
        || (k == Kind::Optional && !v.is_null());
    if nests && depth >= max_depth_default() {
        dispose(v);
        return unsafe { sys::input::fbei_tape_too_deep(err) };
    }
    unsafe {
        if k == Kind::Optional {
            if v.is_null() {
                return sys::fbe_ref_set_null(r, err);
            }
            let inner = sys::fbe_ref_emplace(r);
            return if ok(inner) { write(inner, words, v, depth + 1, err) } else { no_memory(err) };
        }
        match v {
            Value::Bool(b) if k == Kind::Bool => sys::fbe_ref_set_bool(r, b as i32, err),
            Value::Int(i) if integer_kind(r, k).is_some() => set_integer(r, k, i < 0, i.unsigned_abs(), err),
            Value::UInt(u) if integer_kind(r, k).is_some() => set_integer(r, k, false, u, err),
            Value::Wide(w) if integer_kind(r, k).is_some() => {
                let c = crate::raw::cstring(&w.to_string());
                sys::input::fbei_error_range(err, c.as_ptr(), integer_kind(r, k).unwrap().raw())
            }
            Value::Wide(w) if k == Kind::Decimal => set_decimal_text(r, &w.to_string(), err),
            Value::Int(i) if matches!(k, Kind::Float | Kind::Double) => sys::fbe_ref_set_double(r, i as f64, err),
            Value::UInt(u) if matches!(k, Kind::Float | Kind::Double) => sys::fbe_ref_set_double(r, u as f64, err),
            Value::Int(i) if k == Kind::Decimal => set_decimal_text(r, &i.to_string(), err),
            Value::UInt(u) if k == Kind::Decimal => set_decimal_text(r, &u.to_string(), err),
            Value::Float(d) if matches!(k, Kind::Float | Kind::Double) => {
                if k == Kind::Float && d.is_finite() && (d as f32).is_infinite() {
                    let c = crate::raw::cstring(&d.to_string());
                    return sys::input::fbei_error_range(err, c.as_ptr(), Kind::Float.raw());
                }
                sys::fbe_ref_set_double(r, d, err)
            }
            Value::Decimal(d) if k == Kind::Decimal => sys::fbe_ref_set_decimal(r, &d.0, err),
            Value::Uuid(u) if k == Kind::Uuid => sys::fbe_ref_set_uuid(r, &sys::fbe_uuid { bytes: u.0 }, err),
            Value::Bytes(b) if k == Kind::Bytes => sys::fbe_ref_set_bytes(r, b.as_ptr() as _, b.len(), err),
            Value::Utf8(ref b) if k == Kind::String => sys::fbe_ref_set_bytes(r, b.as_ptr() as _, b.len(), err),
            Value::Str(ref s) => {
                let s = s.clone();
                set_text(r, k, words, &v, &s, err)
            }
            Value::Struct(members) if k == Kind::Struct => write_struct(r, members, depth, err),
            Value::List(items) if matches!(k, Kind::Array | Kind::Vector | Kind::List | Kind::Set) => {
                write_elements(r, k, items, depth + 1, err)
            }
            Value::Map(entries) if matches!(k, Kind::Map | Kind::Hash) => write_map(r, entries, depth + 1, err),
            other => {
                let st = wrong(err, words, &other);
                dispose(other);
                st
            }
        }
    }
}
