//! Loading schemas (`.fbe` files, text, packages by name) and finding their types.
use std::ffi::c_char;
use std::path::Path;
use std::ptr::NonNull;

use fbe_sys as sys;

use crate::error::{Error, Result, Status};
use crate::raw::{cstring, str_of};
use crate::types::{EnumType, StructType};

/// A loaded schema: a root package and every package it imports. Immutable and
/// reference-counted in the core: cloning is cheap, and it is `Send + Sync` (docs/
/// BINDINGS.md, "Lifetimes"). Types, messages and views borrow it, so none outlives it.
pub struct Schema {
    ptr: NonNull<sys::fbe_schema>,
}

// The core's schema is immutable after loading and its reference count is atomic.
unsafe impl Send for Schema {}
unsafe impl Sync for Schema {}

impl Clone for Schema {
    fn clone(&self) -> Schema {
        unsafe { sys::fbe_schema_retain(self.ptr.as_ptr()) };
        Schema { ptr: self.ptr }
    }
}

impl Drop for Schema {
    fn drop(&mut self) {
        unsafe { sys::fbe_schema_release(self.ptr.as_ptr()) }
    }
}

impl std::fmt::Debug for Schema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Schema({})", self.package())
    }
}

/// Runs a load with the include directories, turning diagnostics into an error
/// (`file:line:col: message`, the core's format, every error on its own line).
fn load(
    includes: &[&Path],
    call: impl FnOnce(*const sys::fbe_load_options, *mut sys::fbe_diagnostics) -> *mut sys::fbe_schema,
) -> Result<Schema> {
    let dirs: Vec<_> = includes.iter().map(|p| cstring(&p.to_string_lossy())).collect();
    let ptrs: Vec<*const c_char> = dirs.iter().map(|d| d.as_ptr()).collect();
    let options = sys::fbe_load_options { include_dirs: ptrs.as_ptr(), include_count: ptrs.len() };
    let mut diags = sys::fbe_diagnostics { count: 0, items: std::ptr::null_mut() };
    let schema = call(&options, &mut diags);
    let mut lines = Vec::new();
    for i in 0..diags.count {
        let d = unsafe { &*diags.items.add(i) };
        if d.severity == 0 {
            let mut text = [0 as c_char; 1024];
            unsafe { sys::fbe_diagnostic_format(d, text.as_mut_ptr(), text.len()) };
            lines.push(unsafe { str_of(text.as_ptr()) }.to_owned());
        }
    }
    unsafe { sys::fbe_diagnostics_free(&mut diags) };
    match NonNull::new(schema) {
        Some(ptr) => Ok(Schema { ptr }),
        None => Err(Error::with_text(Status::Schema, lines.join("\n"))),
    }
}

impl Schema {
    /// Loads a schema file and its imports (found next to it).
    pub fn load(path: impl AsRef<Path>) -> Result<Schema> {
        Schema::load_with(path, &[] as &[&Path])
    }

    /// Loads a schema file; imports (and a relative `path` that does not exist as given)
    /// are looked up on `include` in order.
    pub fn load_with<P: AsRef<Path>>(path: impl AsRef<Path>, include: &[P]) -> Result<Schema> {
        let path = cstring(&path.as_ref().to_string_lossy());
        let inc: Vec<&Path> = include.iter().map(|p| p.as_ref()).collect();
        load(&inc, |o, d| unsafe { sys::fbe_schema_load_file(path.as_ptr(), o, d) })
    }

    /// Loads a schema from its text; `name` names it in diagnostics.
    pub fn load_str(text: &str, name: &str) -> Result<Schema> {
        Schema::load_str_with(text, name, &[] as &[&Path])
    }

    /// Loads a schema from its text, imports looked up on `include`.
    pub fn load_str_with<P: AsRef<Path>>(text: &str, name: &str, include: &[P]) -> Result<Schema> {
        let cname = cstring(name);
        let inc: Vec<&Path> = include.iter().map(|p| p.as_ref()).collect();
        load(&inc, |o, d| unsafe {
            sys::fbe_schema_load_string(text.as_ptr() as *const c_char, text.len(), cname.as_ptr(), o, d)
        })
    }

    /// Loads package `name` (the file `NAME.fbe`) from the include directories.
    pub fn load_package<P: AsRef<Path>>(name: &str, include: &[P]) -> Result<Schema> {
        let cname = cstring(name);
        let inc: Vec<&Path> = include.iter().map(|p| p.as_ref()).collect();
        load(&inc, |o, d| unsafe { sys::fbe_schema_load_package(cname.as_ptr(), o, d) })
    }

    pub(crate) fn ptr(&self) -> *mut sys::fbe_schema {
        self.ptr.as_ptr()
    }

    /// The root package's name.
    pub fn package(&self) -> &str {
        unsafe { str_of(sys::fbe_package_name(sys::fbe_schema_root(self.ptr()))) }
    }

    /// A struct or message by `"Name"` (the root package) or `"package.Name"`.
    pub fn struct_type(&self, name: &str) -> Result<StructType<'_>> {
        let c = cstring(name);
        let st = unsafe { sys::fbe_schema_find_struct(self.ptr(), c.as_ptr()) };
        if st.is_null() {
            let mut err = crate::error::raw();
            let what = cstring("struct");
            unsafe {
                sys::input::fbei_error_unknown_type(&mut err, self.ptr(), what.as_ptr(), name.as_ptr() as _, name.len())
            };
            return Err(Error::from_raw(&err));
        }
        Ok(unsafe { StructType::from_raw(st) })
    }

    /// An enum or flags type by `"Name"` or `"package.Name"`.
    pub fn enum_type(&self, name: &str) -> Result<EnumType<'_>> {
        let c = cstring(name);
        let e = unsafe { sys::fbe_schema_find_enum(self.ptr(), c.as_ptr()) };
        if e.is_null() {
            let mut err = crate::error::raw();
            let what = cstring("enum");
            unsafe {
                sys::input::fbei_error_unknown_type(&mut err, self.ptr(), what.as_ptr(), name.as_ptr() as _, name.len())
            };
            return Err(Error::from_raw(&err));
        }
        Ok(unsafe { EnumType::from_raw(e) })
    }

    /// The structs and messages of the root package, in schema order.
    pub fn structs(&self) -> Vec<StructType<'_>> {
        let pkg = unsafe { sys::fbe_schema_root(self.ptr()) };
        (0..unsafe { sys::fbe_package_struct_count(pkg) })
            .map(|i| unsafe { StructType::from_raw(sys::fbe_package_struct_at(pkg, i)) })
            .collect()
    }
}
