//! Small RAII helpers around the core's plain structs (buffers, arenas, C strings).
use std::ffi::{c_char, CStr, CString};
use std::ptr::NonNull;

use fbe_sys as sys;

use crate::error::{Error, Result, Status};

/// A `fbe_buffer` freed on drop.
pub(crate) struct Buffer(pub(crate) sys::fbe_buffer);

impl Buffer {
    pub(crate) fn new() -> Buffer {
        Buffer(sys::fbe_buffer { data: std::ptr::null_mut(), size: 0, capacity: 0 })
    }
    pub(crate) fn as_slice(&self) -> &[u8] {
        if self.0.data.is_null() {
            &[]
        } else {
            unsafe { std::slice::from_raw_parts(self.0.data, self.0.size) }
        }
    }
    pub(crate) fn to_vec(&self) -> Vec<u8> {
        self.as_slice().to_vec()
    }
    /// The core writes UTF-8 (JSON, the text form).
    pub(crate) fn to_text(&self) -> String {
        String::from_utf8_lossy(self.as_slice()).into_owned()
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        unsafe { sys::fbe_buffer_free(&mut self.0) }
    }
}

/// An arena: a message and everything in it, freed at once on drop.
pub(crate) struct Arena(NonNull<sys::fbe_arena>);

impl Arena {
    pub(crate) fn new() -> Result<Arena> {
        NonNull::new(unsafe { sys::fbe_arena_new() })
            .map(Arena)
            .ok_or_else(|| Error::with_text(Status::OutOfMemory, "out of memory".into()))
    }
    pub(crate) fn ptr(&self) -> *mut sys::fbe_arena {
        self.0.as_ptr()
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        unsafe { sys::fbe_arena_free(self.0.as_ptr()) }
    }
}

// An arena is plain memory with no thread affinity.
unsafe impl Send for Arena {}

/// A borrowed C string of the core (names live as long as their schema).
pub(crate) unsafe fn str_of<'a>(p: *const c_char) -> &'a str {
    if p.is_null() {
        ""
    } else {
        CStr::from_ptr(p).to_str().unwrap_or("")
    }
}

/// A Rust string for a C call; a name with a NUL inside can match nothing, so it is
/// cut there (the lookup then fails as for any unknown name).
/// Calls `f` with `s` as a C string and whether it is all of `s` (a NUL cuts it short):
/// on the stack for a short name (field lookups are hot: no allocation), else a CString.
pub(crate) fn with_cstr<R>(s: &str, f: impl FnOnce(*const c_char, bool) -> R) -> R {
    const SHORT: usize = 64;
    let bytes = s.as_bytes();
    if bytes.len() < SHORT {
        let mut buf = [0u8; SHORT];
        let n = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
        buf[..n].copy_from_slice(&bytes[..n]);
        f(buf.as_ptr() as *const c_char, n == bytes.len())
    } else {
        let c = cstring(s);
        f(c.as_ptr(), c.as_bytes().len() == s.len())
    }
}

pub(crate) fn cstring(s: &str) -> CString {
    match CString::new(s) {
        Ok(c) => c,
        Err(e) => {
            let at = e.nul_position();
            CString::new(&s[..at]).unwrap()
        }
    }
}
