//! Fast Binary Encoding (FBE) for Rust, over libfbe's C core.
//!
//! Schemas are loaded at run time ([`Schema::load`]); every struct of a schema is a
//! [`StructType`] whose values are dynamic [`Message`]s. The bytes (standard and final
//! models), verify, views, JSON, the text form, equality and every error are the core's:
//! this crate converts Rust values to the core's and back, and decides nothing else.
//!
//! ```
//! use fbe::{Model, Schema};
//! let schema = Schema::load_str("package demo\nstruct Point { int32 x; int32 y; }", "demo.fbe")?;
//! let point = schema.struct_type("Point")?;
//! let mut p = point.new_message()?;
//! p.set("x", 1)?;
//! p.set("y", -2)?;
//! let bytes = p.encode(Model::Final)?;
//! let back = point.decode(&bytes, Model::Final)?;
//! assert_eq!(back, p);
//! assert_eq!(back.to_string(), "Point(x=1,y=-2)");
//! let view = point.view(&bytes, Model::Final)?;
//! assert_eq!(view.field("y")?.get_i64()?, -2);
//! # Ok::<(), fbe::Error>(())
//! ```
mod client;
mod codec;
mod convert;
mod encode_buffer;
mod error;
mod message;
mod protocol;
mod raw;
mod schema;
mod types;
mod value;
mod view;

/// What the lifetimes refuse, checked by `cargo test` (each block must not compile).
///
/// A view cannot outlive the bytes it reads:
/// ```compile_fail
/// use fbe::{Model, Schema};
/// let schema = Schema::load_str("package p\nstruct S { string s; }", "p.fbe").unwrap();
/// let ty = schema.struct_type("S").unwrap();
/// let view = {
///     let bytes = ty.new_message().unwrap().encode(Model::Final).unwrap();
///     ty.view(&bytes, Model::Final).unwrap()
/// };
/// let _ = view.field("s");
/// ```
/// A struct type (and so a message) cannot outlive its schema:
/// ```compile_fail
/// use fbe::Schema;
/// let ty = {
///     let schema = Schema::load_str("package p\nstruct S { string s; }", "p.fbe").unwrap();
///     schema.struct_type("S").unwrap()
/// };
/// let _ = ty.new_message();
/// ```
/// A string borrowed from a view cannot outlive the bytes either:
/// ```compile_fail
/// use fbe::{Model, Schema};
/// let schema = Schema::load_str("package p\nstruct S { string s; }", "p.fbe").unwrap();
/// let ty = schema.struct_type("S").unwrap();
/// let s: &str = {
///     let bytes = ty.new_message().unwrap().encode(Model::Final).unwrap();
///     ty.view(&bytes, Model::Final).unwrap().field("s").unwrap().get_str().unwrap()
/// };
/// println!("{s}");
/// ```
/// The same code with the values kept alive compiles and runs:
/// ```
/// use fbe::{Model, Schema};
/// let schema = Schema::load_str("package p\nstruct S { string s; }", "p.fbe").unwrap();
/// let ty = schema.struct_type("S").unwrap();
/// let bytes = ty.new_message().unwrap().encode(Model::Final).unwrap();
/// let s: &str = ty.view(&bytes, Model::Final).unwrap().field("s").unwrap().get_str().unwrap();
/// assert_eq!(s, "");
/// ```
#[cfg(doctest)]
struct LifetimesRefused;

/// The README's examples (bindings/rust/README.md), run as doc tests by `cargo test`.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeExamples;

pub use client::{Client, ClientOptions, Ended, Frame, Outcome, Proxy, Server};
pub use codec::{Limits, Model};
pub use encode_buffer::EncodeBuffer;
pub use error::{Error, Result, Status};
pub use message::Message;
pub use protocol::{Direction, LogHook, Receiver, Sender};
pub use schema::Schema;
pub use types::{EnumType, Field, FieldType, Kind, StructType};
pub use value::{Decimal, Uuid, Value};
pub use view::{EntryIter, View, ViewIter};

/// Bytes the core holds from the system allocator now (every arena, buffer, schema,
/// sender...): back where it was once everything made since is dropped.
pub fn memory_in_use() -> usize {
    unsafe { fbe_sys::fbe_memory_in_use() }
}
