//! Errors: the core's status table (`FBE_STATUS_LIST` of `fbe/error.h`) and its error
//! record (message, path, offset), shown in the core's words (`fbe_error_format`).
use std::ffi::CStr;
use std::fmt;

use fbe_sys as sys;

/// The status of a failed call, one per row of the core's status table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Status {
    /// `FBE_ERR_NOMEM`
    OutOfMemory,
    /// `FBE_ERR_ARGUMENT`
    Argument,
    /// `FBE_ERR_SCHEMA`
    Schema,
    /// `FBE_ERR_NOT_FOUND`
    NotFound,
    /// `FBE_ERR_TYPE`
    Type,
    /// `FBE_ERR_RANGE`
    Range,
    /// `FBE_ERR_MALFORMED`
    Malformed,
    /// `FBE_ERR_JSON`
    Json,
    /// `FBE_ERR_LIMIT`
    Limit,
    /// `FBE_ERR_IO`
    Io,
    /// `FBE_ERR_UNKNOWN_FIELD`
    UnknownField,
    /// `FBE_ERR_REJECTED`
    Rejected,
    /// `FBE_ERR_TIMEOUT`
    Timeout,
    /// `FBE_ERR_RESET`
    Reset,
    /// A status this crate does not know (a newer core): its number.
    Other(i32),
}

/// In the table's order: `ALL[i]` has code `i + 1` (`FBE_OK` is no error).
const ALL: [Status; 14] = [
    Status::OutOfMemory,
    Status::Argument,
    Status::Schema,
    Status::NotFound,
    Status::Type,
    Status::Range,
    Status::Malformed,
    Status::Json,
    Status::Limit,
    Status::Io,
    Status::UnknownField,
    Status::Rejected,
    Status::Timeout,
    Status::Reset,
];

impl Status {
    /// The status of a core code (`fbe_status`).
    pub fn from_code(code: i32) -> Status {
        if code >= 1 && (code as usize) <= ALL.len() {
            ALL[code as usize - 1]
        } else {
            Status::Other(code)
        }
    }

    /// The core's number of this status.
    pub fn code(self) -> i32 {
        match self {
            Status::Other(code) => code,
            known => ALL.iter().position(|s| *s == known).unwrap() as i32 + 1,
        }
    }

    /// The core's name of this status (`"FBE_ERR_MALFORMED"`).
    pub fn name(self) -> &'static str {
        unsafe { static_str(sys::fbe_status_name(self.code())) }
    }

    /// The core's short text of this status (`"malformed data"`).
    pub fn text(self) -> &'static str {
        unsafe { static_str(sys::fbe_status_text(self.code())) }
    }

    /// The exception class name of the table (`"MalformedError"`).
    pub fn class_name(self) -> &'static str {
        unsafe { static_str(sys::fbe_status_class(self.code())) }
    }

    /// Every status the core has, for checks against the table.
    pub fn all() -> &'static [Status] {
        &ALL
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

unsafe fn static_str(p: *const std::ffi::c_char) -> &'static str {
    if p.is_null() {
        ""
    } else {
        CStr::from_ptr(p).to_str().unwrap_or("")
    }
}

/// An error of the core: its status, what was wrong, the value path
/// (`"orders[2].symbol"`, empty for the root) and the byte offset in the input when one
/// applies. `Display` is the core's one text of it (`fbe_error_format`).
#[derive(Clone)]
pub struct Error {
    status: Status,
    message: String,
    path: String,
    offset: Option<usize>,
    text: String,
}

impl Error {
    pub(crate) fn from_raw(err: &sys::fbe_error) -> Error {
        let mut text = [0 as std::ffi::c_char; 640];
        unsafe { sys::fbe_error_format(err, text.as_mut_ptr(), text.len()) };
        let c = |s: &[std::ffi::c_char]| unsafe { CStr::from_ptr(s.as_ptr()).to_string_lossy().into_owned() };
        Error {
            status: Status::from_code(err.code),
            message: c(&err.message),
            path: c(&err.path),
            offset: if err.offset == sys::FBE_NO_OFFSET { None } else { Some(err.offset) },
            text: c(&text),
        }
    }

    /// An error whose text is the core's (schema diagnostics, already formatted).
    pub(crate) fn with_text(status: Status, text: String) -> Error {
        Error { status, message: text.clone(), path: String::new(), offset: None, text }
    }

    pub fn status(&self) -> Status {
        self.status
    }
    /// What was wrong, without the path and the offset.
    pub fn message(&self) -> &str {
        &self.message
    }
    /// Where in the value: `"orders[2].symbol"`; empty for the root or none.
    pub fn path(&self) -> &str {
        &self.path
    }
    /// The byte offset in the input (bytes or text), when one applies.
    pub fn offset(&self) -> Option<usize> {
        self.offset
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({}: {})", self.status.name(), self.text)
    }
}

impl std::error::Error for Error {}

/// Results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// An empty error record for a call to fill.
pub(crate) fn raw() -> sys::fbe_error {
    sys::fbe_error { code: 0, offset: sys::FBE_NO_OFFSET, path: [0; 160], message: [0; 256] }
}

/// `Ok(())` for `FBE_OK`, else the error the call filled.
pub(crate) fn check(status: sys::fbe_status, err: &sys::fbe_error) -> Result<()> {
    if status == sys::FBE_OK {
        Ok(())
    } else {
        let mut e = Error::from_raw(err);
        if e.status.code() != status {
            e.status = Status::from_code(status);
        }
        Err(e)
    }
}
