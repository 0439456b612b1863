//! Raw declarations of the C API of libfbe's core (`core/include/fbe/*.h`), written by
//! hand for the calls the `fbe` crate makes, and the core itself compiled from source by
//! `build.rs`. Use the `fbe` crate: this one is `unsafe` all the way down.
//!
//! Hand-written rather than generated with bindgen: bindgen at build time needs libclang
//! on every machine that builds the crate, and the surface used is small and stable
//! (the layouts are checked against the C sizes in the `fbe` crate's tests).
#![allow(non_camel_case_types)]
#![no_std]

use core::ffi::{c_char, c_int, c_void};

pub type fbe_status = c_int;
pub type fbe_kind = c_int;
pub type fbe_model = c_int;
pub type fbe_request_end = c_int;

pub const FBE_OK: fbe_status = 0;
pub const FBE_NO_OFFSET: usize = usize::MAX;
pub const FBE_STATUS_COUNT: c_int = 15;
pub const FBE_MODEL_STANDARD: fbe_model = 0;
pub const FBE_MODEL_FINAL: fbe_model = 1;

macro_rules! opaque {
    ($($name:ident),*) => {$(
        #[repr(C)]
        pub struct $name {
            _private: [u8; 0],
        }
    )*};
}
opaque!(
    fbe_schema, fbe_package, fbe_struct, fbe_field, fbe_type, fbe_enum, fbe_arena, fbe_msg,
    fbe_sender, fbe_receiver, fbe_client
);

#[repr(C)]
#[derive(Clone, Copy)]
pub struct fbe_error {
    pub code: fbe_status,
    pub offset: usize,
    pub path: [c_char; 160],
    pub message: [c_char; 256],
}

#[repr(C)]
pub struct fbe_diagnostic {
    pub severity: c_int,
    pub file: *const c_char,
    pub line: u32,
    pub col: u32,
    pub message: *const c_char,
}

#[repr(C)]
pub struct fbe_diagnostics {
    pub count: usize,
    pub items: *mut fbe_diagnostic,
}

#[repr(C)]
pub struct fbe_load_options {
    pub include_dirs: *const *const c_char,
    pub include_count: usize,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct fbe_ref {
    pub type_: *const fbe_type,
    pub slot: *mut c_void,
    pub arena: *mut fbe_arena,
}

#[repr(C)]
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct fbe_decimal {
    pub bytes: [u8; 16],
}

#[repr(C)]
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct fbe_uuid {
    pub bytes: [u8; 16],
}

#[repr(C)]
pub struct fbe_buffer {
    pub data: *mut u8,
    pub size: usize,
    pub capacity: usize,
}

#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct fbe_limits {
    pub max_depth: u32,
    pub max_model_size: u64,
    pub max_memory: u64,
}

#[repr(C)]
pub struct fbe_json_options {
    pub pretty: c_int,
    pub enum_names: c_int,
    pub int64_strings: c_int,
    pub ignore_unknown: c_int,
    pub limits: *const fbe_limits,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct fbe_view {
    pub type_: *const fbe_type,
    pub data: *const u8,
    pub end: u64,
    pub at: u64,
    pub base: u64,
    pub image: *const c_void,
    pub model: fbe_model,
    pub lazy: u32,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct fbe_view_iter {
    pub of: fbe_view,
    pub index: usize,
    pub count: usize,
    pub pos: u64,
    pub stride: u64,
}

pub type fbe_sink_fn = unsafe extern "C" fn(ctx: *mut c_void, data: *const u8, size: usize) -> c_int;
pub type fbe_handler_fn = unsafe extern "C" fn(ctx: *mut c_void, msg: *const fbe_msg) -> c_int;
pub type fbe_log_fn =
    unsafe extern "C" fn(ctx: *mut c_void, msg: *const fbe_msg, text: *const c_char, size: usize);
pub type fbe_frame_fn = unsafe extern "C" fn(
    ctx: *mut c_void,
    type_id: u32,
    type_: *const fbe_struct,
    frame: *const u8,
    size: usize,
) -> c_int;
pub type fbe_request_done_fn = unsafe extern "C" fn(
    ctx: *mut c_void,
    token: u64,
    end: fbe_request_end,
    msg: *const fbe_msg,
    err: *const fbe_error,
);

#[repr(C)]
pub struct fbe_client_options {
    pub model: fbe_model,
    pub limits: *const fbe_limits,
    pub max_pending: usize,
    pub sink: Option<fbe_sink_fn>,
    pub sink_ctx: *mut c_void,
    pub done: Option<fbe_request_done_fn>,
    pub notify: Option<fbe_handler_fn>,
    pub ctx: *mut c_void,
}

extern "C" {
    // error.h
    pub fn fbe_status_text(code: fbe_status) -> *const c_char;
    pub fn fbe_status_name(code: fbe_status) -> *const c_char;
    pub fn fbe_status_class(code: fbe_status) -> *const c_char;
    pub fn fbe_status_parent(code: fbe_status) -> fbe_status;
    pub fn fbe_error_format(err: *const fbe_error, out: *mut c_char, out_size: usize);

    // memory.h, arena.h, buffer.h
    pub fn fbe_memory_in_use() -> usize;
    pub fn fbe_arena_new() -> *mut fbe_arena;
    pub fn fbe_arena_free(arena: *mut fbe_arena);
    pub fn fbe_arena_reset(arena: *mut fbe_arena);
    pub fn fbe_buffer_free(buf: *mut fbe_buffer);
    pub fn fbe_buffer_reset(buf: *mut fbe_buffer);

    // schema.h
    pub fn fbe_diagnostics_free(diags: *mut fbe_diagnostics);
    pub fn fbe_diagnostic_format(d: *const fbe_diagnostic, out: *mut c_char, out_size: usize);
    pub fn fbe_schema_load_file(
        path: *const c_char,
        options: *const fbe_load_options,
        diags: *mut fbe_diagnostics,
    ) -> *mut fbe_schema;
    pub fn fbe_schema_load_string(
        text: *const c_char,
        length: usize,
        name: *const c_char,
        options: *const fbe_load_options,
        diags: *mut fbe_diagnostics,
    ) -> *mut fbe_schema;
    pub fn fbe_schema_load_package(
        package: *const c_char,
        options: *const fbe_load_options,
        diags: *mut fbe_diagnostics,
    ) -> *mut fbe_schema;
    pub fn fbe_schema_retain(schema: *mut fbe_schema) -> *mut fbe_schema;
    pub fn fbe_schema_release(schema: *mut fbe_schema);
    pub fn fbe_schema_root(schema: *const fbe_schema) -> *const fbe_package;
    pub fn fbe_schema_find_struct(schema: *const fbe_schema, name: *const c_char) -> *const fbe_struct;
    pub fn fbe_schema_find_enum(schema: *const fbe_schema, name: *const c_char) -> *const fbe_enum;
    pub fn fbe_package_name(pkg: *const fbe_package) -> *const c_char;
    pub fn fbe_package_struct_count(pkg: *const fbe_package) -> usize;
    pub fn fbe_package_struct_at(pkg: *const fbe_package, index: usize) -> *const fbe_struct;
    pub fn fbe_struct_name(st: *const fbe_struct) -> *const c_char;
    pub fn fbe_struct_full_name(st: *const fbe_struct) -> *const c_char;
    pub fn fbe_struct_type_id(st: *const fbe_struct) -> u32;
    pub fn fbe_struct_is_message(st: *const fbe_struct) -> c_int;
    pub fn fbe_struct_base(st: *const fbe_struct) -> *const fbe_struct;
    pub fn fbe_struct_field_count(st: *const fbe_struct) -> usize;
    pub fn fbe_struct_field_at(st: *const fbe_struct, index: usize) -> *const fbe_field;
    pub fn fbe_struct_field(st: *const fbe_struct, name: *const c_char) -> *const fbe_field;
    pub fn fbe_field_name(f: *const fbe_field) -> *const c_char;
    pub fn fbe_field_type(f: *const fbe_field) -> *const fbe_type;
    pub fn fbe_field_is_key(f: *const fbe_field) -> c_int;
    pub fn fbe_type_kind(t: *const fbe_type) -> fbe_kind;
    pub fn fbe_type_element(t: *const fbe_type) -> *const fbe_type;
    pub fn fbe_type_key(t: *const fbe_type) -> *const fbe_type;
    pub fn fbe_type_struct(t: *const fbe_type) -> *const fbe_struct;
    pub fn fbe_type_enum(t: *const fbe_type) -> *const fbe_enum;
    pub fn fbe_type_array_size(t: *const fbe_type) -> u32;
    pub fn fbe_kind_name(kind: fbe_kind) -> *const c_char;
    pub fn fbe_enum_name(e: *const fbe_enum) -> *const c_char;
    pub fn fbe_enum_full_name(e: *const fbe_enum) -> *const c_char;
    pub fn fbe_enum_is_flags(e: *const fbe_enum) -> c_int;
    pub fn fbe_enum_base(e: *const fbe_enum) -> fbe_kind;
    pub fn fbe_enum_value_count(e: *const fbe_enum) -> usize;
    pub fn fbe_enum_value_name(e: *const fbe_enum, index: usize) -> *const c_char;
    pub fn fbe_enum_value_at(e: *const fbe_enum, index: usize) -> u64;
    pub fn fbe_enum_parse(
        e: *const fbe_enum,
        text: *const c_char,
        length: usize,
        out: *mut u64,
        err: *mut fbe_error,
    ) -> fbe_status;

    // message.h
    pub fn fbe_msg_new(arena: *mut fbe_arena, type_: *const fbe_struct) -> *mut fbe_msg;
    pub fn fbe_msg_type(msg: *const fbe_msg) -> *const fbe_struct;
    pub fn fbe_msg_ref(msg: *mut fbe_msg) -> fbe_ref;
    pub fn fbe_msg_equal(a: *const fbe_msg, b: *const fbe_msg) -> c_int;
    pub fn fbe_msg_key_hash(msg: *const fbe_msg) -> u64;
    pub fn fbe_msg_copy(
        msg: *const fbe_msg,
        arena: *mut fbe_arena,
        out: *mut *mut fbe_msg,
        err: *mut fbe_error,
    ) -> fbe_status;
    pub fn fbe_ref_kind(r: fbe_ref) -> fbe_kind;
    pub fn fbe_ref_field(r: fbe_ref, name: *const c_char) -> fbe_ref;
    pub fn fbe_ref_field_at(r: fbe_ref, index: usize) -> fbe_ref;
    pub fn fbe_ref_count(r: fbe_ref) -> usize;
    pub fn fbe_ref_at(r: fbe_ref, index: usize) -> fbe_ref;
    pub fn fbe_ref_key_at(r: fbe_ref, index: usize) -> fbe_ref;
    pub fn fbe_ref_value_at(r: fbe_ref, index: usize) -> fbe_ref;
    pub fn fbe_ref_is_null(r: fbe_ref) -> c_int;
    pub fn fbe_ref_set_null(r: fbe_ref, err: *mut fbe_error) -> fbe_status;
    pub fn fbe_ref_emplace(r: fbe_ref) -> fbe_ref;
    pub fn fbe_ref_deref(r: fbe_ref) -> fbe_ref;
    pub fn fbe_ref_append(r: fbe_ref) -> fbe_ref;
    pub fn fbe_ref_map_append(r: fbe_ref, value: *mut fbe_ref) -> fbe_ref;
    pub fn fbe_ref_clear(r: fbe_ref, err: *mut fbe_error) -> fbe_status;
    pub fn fbe_ref_get_int(r: fbe_ref, out: *mut i64) -> fbe_status;
    pub fn fbe_ref_get_uint(r: fbe_ref, out: *mut u64) -> fbe_status;
    pub fn fbe_ref_get_double(r: fbe_ref, out: *mut f64) -> fbe_status;
    pub fn fbe_ref_set_int(r: fbe_ref, v: i64, err: *mut fbe_error) -> fbe_status;
    pub fn fbe_ref_set_uint(r: fbe_ref, v: u64, err: *mut fbe_error) -> fbe_status;
    pub fn fbe_ref_set_double(r: fbe_ref, v: f64, err: *mut fbe_error) -> fbe_status;
    pub fn fbe_ref_get_bool(r: fbe_ref, out: *mut c_int) -> fbe_status;
    pub fn fbe_ref_set_bool(r: fbe_ref, v: c_int, err: *mut fbe_error) -> fbe_status;
    pub fn fbe_ref_get_bytes(r: fbe_ref, data: *mut *const u8, size: *mut usize) -> fbe_status;
    pub fn fbe_ref_set_bytes(r: fbe_ref, data: *const c_void, size: usize, err: *mut fbe_error) -> fbe_status;
    pub fn fbe_ref_get_decimal(r: fbe_ref, out: *mut fbe_decimal) -> fbe_status;
    pub fn fbe_ref_set_decimal(r: fbe_ref, v: *const fbe_decimal, err: *mut fbe_error) -> fbe_status;
    pub fn fbe_ref_get_uuid(r: fbe_ref, out: *mut fbe_uuid) -> fbe_status;
    pub fn fbe_ref_set_uuid(r: fbe_ref, v: *const fbe_uuid, err: *mut fbe_error) -> fbe_status;
    pub fn fbe_utf8_check(data: *const c_void, size: usize, err: *mut fbe_error) -> fbe_status;
    pub fn fbe_decimal_parse(text: *const c_char, length: usize, out: *mut fbe_decimal) -> fbe_status;
    pub fn fbe_decimal_format(v: *const fbe_decimal, out: *mut c_char, out_size: usize);
    pub fn fbe_uuid_parse(text: *const c_char, length: usize, out: *mut fbe_uuid) -> fbe_status;
    pub fn fbe_uuid_format(v: *const fbe_uuid, out: *mut c_char);

    // codec.h
    pub fn fbe_model_parse(name: *const c_char, length: usize, out: *mut fbe_model, err: *mut fbe_error)
        -> fbe_status;
    pub fn fbe_limits_default() -> fbe_limits;
    pub fn fbe_limits_set(limits: *mut fbe_limits, name: *const c_char, value: i64, err: *mut fbe_error)
        -> fbe_status;
    pub fn fbe_encode(msg: *const fbe_msg, model: fbe_model, out: *mut fbe_buffer, err: *mut fbe_error)
        -> fbe_status;
    pub fn fbe_verify(
        type_: *const fbe_struct,
        model: fbe_model,
        data: *const u8,
        size: usize,
        limits: *const fbe_limits,
        model_size: *mut usize,
        err: *mut fbe_error,
    ) -> fbe_status;
    pub fn fbe_decode(
        type_: *const fbe_struct,
        model: fbe_model,
        data: *const u8,
        size: usize,
        arena: *mut fbe_arena,
        limits: *const fbe_limits,
        out: *mut *mut fbe_msg,
        model_size: *mut usize,
        err: *mut fbe_error,
    ) -> fbe_status;
    pub fn fbe_decode_trusted(
        type_: *const fbe_struct,
        model: fbe_model,
        data: *const u8,
        size: usize,
        arena: *mut fbe_arena,
        limits: *const fbe_limits,
        out: *mut *mut fbe_msg,
        model_size: *mut usize,
        err: *mut fbe_error,
    ) -> fbe_status;

    // json.h, text.h
    pub fn fbe_msg_to_json_opts(
        msg: *const fbe_msg,
        opts: *const fbe_json_options,
        out: *mut fbe_buffer,
        err: *mut fbe_error,
    ) -> fbe_status;
    pub fn fbe_json_write_opts(
        value: fbe_ref,
        opts: *const fbe_json_options,
        out: *mut fbe_buffer,
        err: *mut fbe_error,
    ) -> fbe_status;
    pub fn fbe_msg_from_json_opts(
        type_: *const fbe_struct,
        text: *const c_char,
        length: usize,
        arena: *mut fbe_arena,
        opts: *const fbe_json_options,
        out: *mut *mut fbe_msg,
        err: *mut fbe_error,
    ) -> fbe_status;
    pub fn fbe_msg_to_text_limited(
        msg: *const fbe_msg,
        limits: *const fbe_limits,
        out: *mut fbe_buffer,
        err: *mut fbe_error,
    ) -> fbe_status;
    pub fn fbe_text_write(value: fbe_ref, limits: *const fbe_limits, out: *mut fbe_buffer, err: *mut fbe_error)
        -> fbe_status;

    // view.h
    pub fn fbe_view_open(
        type_: *const fbe_struct,
        model: fbe_model,
        data: *const c_void,
        size: usize,
        limits: *const fbe_limits,
        out: *mut fbe_view,
        err: *mut fbe_error,
    ) -> fbe_status;
    pub fn fbe_view_fault(root: *const fbe_struct, v: fbe_view, err: *mut fbe_error) -> fbe_status;
    pub fn fbe_view_kind(v: fbe_view) -> fbe_kind;
    pub fn fbe_view_field(v: fbe_view, index: usize) -> fbe_view;
    pub fn fbe_view_field_named(v: fbe_view, name: *const c_char) -> fbe_view;
    pub fn fbe_view_count(v: fbe_view) -> usize;
    pub fn fbe_view_at(v: fbe_view, index: usize) -> fbe_view;
    pub fn fbe_view_iterate(v: fbe_view) -> fbe_view_iter;
    pub fn fbe_view_next(it: *mut fbe_view_iter, item_or_key: *mut fbe_view, value: *mut fbe_view) -> c_int;
    pub fn fbe_view_is_null(v: fbe_view) -> c_int;
    pub fn fbe_view_deref(v: fbe_view) -> fbe_view;
    pub fn fbe_view_get_int(v: fbe_view, out: *mut i64) -> fbe_status;
    pub fn fbe_view_get_uint(v: fbe_view, out: *mut u64) -> fbe_status;
    pub fn fbe_view_get_double(v: fbe_view, out: *mut f64) -> fbe_status;
    pub fn fbe_view_get_bool(v: fbe_view, out: *mut c_int) -> fbe_status;
    pub fn fbe_view_get_decimal(v: fbe_view, out: *mut fbe_decimal) -> fbe_status;
    pub fn fbe_view_get_uuid(v: fbe_view, out: *mut fbe_uuid) -> fbe_status;
    pub fn fbe_view_get_bytes(v: fbe_view, data: *mut *const u8, size: *mut usize) -> fbe_status;
    pub fn fbe_view_to_msg(
        v: fbe_view,
        arena: *mut fbe_arena,
        limits: *const fbe_limits,
        out: *mut *mut fbe_msg,
        err: *mut fbe_error,
    ) -> fbe_status;
    pub fn fbe_view_to_text(v: fbe_view, limits: *const fbe_limits, out: *mut fbe_buffer, err: *mut fbe_error)
        -> fbe_status;
    pub fn fbe_view_to_json(
        v: fbe_view,
        opts: *const fbe_json_options,
        out: *mut fbe_buffer,
        err: *mut fbe_error,
    ) -> fbe_status;

    // protocol.h
    pub fn fbe_sender_new(
        schema: *mut fbe_schema,
        package: *const c_char,
        model: fbe_model,
        sink: fbe_sink_fn,
        sink_ctx: *mut c_void,
    ) -> *mut fbe_sender;
    pub fn fbe_sender_free(sender: *mut fbe_sender);
    pub fn fbe_sender_send(sender: *mut fbe_sender, msg: *const fbe_msg, err: *mut fbe_error) -> fbe_status;
    pub fn fbe_sender_set_log(sender: *mut fbe_sender, f: Option<fbe_log_fn>, ctx: *mut c_void);
    pub fn fbe_receiver_new(
        schema: *mut fbe_schema,
        package: *const c_char,
        model: fbe_model,
        limits: *const fbe_limits,
        handler: fbe_handler_fn,
        handler_ctx: *mut c_void,
    ) -> *mut fbe_receiver;
    pub fn fbe_receiver_free(receiver: *mut fbe_receiver);
    pub fn fbe_receiver_feed(receiver: *mut fbe_receiver, data: *const u8, size: usize, err: *mut fbe_error)
        -> fbe_status;
    pub fn fbe_receiver_reset(receiver: *mut fbe_receiver);
    pub fn fbe_receiver_pending(receiver: *const fbe_receiver) -> usize;
    pub fn fbe_receiver_set_log(receiver: *mut fbe_receiver, f: Option<fbe_log_fn>, ctx: *mut c_void);
    pub fn fbe_proxy_new(
        schema: *mut fbe_schema,
        package: *const c_char,
        model: fbe_model,
        limits: *const fbe_limits,
        verify: c_int,
        handler: fbe_frame_fn,
        handler_ctx: *mut c_void,
    ) -> *mut fbe_receiver;

    // client.h
    pub fn fbe_client_new(
        schema: *mut fbe_schema,
        package: *const c_char,
        options: *const fbe_client_options,
        err: *mut fbe_error,
    ) -> *mut fbe_client;
    pub fn fbe_client_free(client: *mut fbe_client);
    pub fn fbe_client_request(
        client: *mut fbe_client,
        request: *const fbe_msg,
        timeout_ns: u64,
        now: u64,
        token: u64,
        err: *mut fbe_error,
    ) -> fbe_status;
    pub fn fbe_client_send(client: *mut fbe_client, msg: *const fbe_msg, err: *mut fbe_error) -> fbe_status;
    pub fn fbe_client_feed(client: *mut fbe_client, data: *const u8, size: usize, err: *mut fbe_error)
        -> fbe_status;
    pub fn fbe_client_watchdog(client: *mut fbe_client, now: u64) -> usize;
    pub fn fbe_client_reset(client: *mut fbe_client);
    pub fn fbe_client_pending(client: *const fbe_client) -> usize;
    pub fn fbe_client_sender(client: *mut fbe_client) -> *mut fbe_sender;
    pub fn fbe_client_receiver(client: *mut fbe_client) -> *mut fbe_receiver;
    pub fn fbe_reply_prepare(request: *const fbe_msg, reply: *mut fbe_msg, err: *mut fbe_error) -> fbe_status;
}

/// The in-tree contract for host values (`core/include/fbe/internal/input.h`, error.h):
/// the words of an input mistake, decided by the core so that every language says the
/// same. The binding says what kind of host value it got; the core writes the message.
pub mod input {
    use super::*;

    pub const GOT_NULL: c_int = 0;
    pub const GOT_BOOL: c_int = 1;
    pub const GOT_INTEGER: c_int = 2;
    pub const GOT_FLOAT: c_int = 3;
    pub const GOT_STRING: c_int = 4;
    pub const GOT_BYTES: c_int = 5;
    pub const GOT_LIST: c_int = 6;
    pub const GOT_SET: c_int = 7;
    pub const GOT_MAP: c_int = 8;
    pub const GOT_STRUCT: c_int = 9;
    pub const GOT_ENUM: c_int = 10;
    pub const GOT_TIME: c_int = 11;
    pub const GOT_UUID: c_int = 12;
    pub const GOT_DECIMAL: c_int = 13;
    pub const GOT_OTHER: c_int = 14;

    extern "C" {
        pub fn fbei_error_type(err: *mut fbe_error, want: *const fbe_type, got: c_int, name: *const c_char)
            -> fbe_status;
        pub fn fbei_error_type_struct(
            err: *mut fbe_error,
            want: *const fbe_struct,
            got: c_int,
            name: *const c_char,
        ) -> fbe_status;
        pub fn fbei_error_unknown_field(
            err: *mut fbe_error,
            st: *const fbe_struct,
            name: *const c_char,
            length: usize,
        ) -> fbe_status;
        pub fn fbei_error_unknown_type(
            err: *mut fbe_error,
            schema: *const fbe_schema,
            what: *const c_char,
            name: *const c_char,
            length: usize,
        ) -> fbe_status;
        pub fn fbei_error_bad_text(err: *mut fbe_error, kind: fbe_kind, text: *const c_char, length: usize)
            -> fbe_status;
        pub fn fbei_error_array_length(err: *mut fbe_error, array: *const fbe_type, got: usize) -> fbe_status;
        pub fn fbei_error_int_range(err: *mut fbe_error, negative: c_int, magnitude: u64, kind: fbe_kind)
            -> fbe_status;
        pub fn fbei_error_range(err: *mut fbe_error, value_text: *const c_char, kind: fbe_kind) -> fbe_status;
        pub fn fbei_error_decimal_range(err: *mut fbe_error, value_text: *const c_char) -> fbe_status;
        pub fn fbei_error_set(err: *mut fbe_error, code: fbe_status, offset: usize, fmt: *const c_char, ...)
            -> fbe_status;
        pub fn fbei_error_prepend_field(err: *mut fbe_error, name: *const c_char);
        pub fn fbei_error_prepend_index(err: *mut fbe_error, index: usize);
        pub fn fbei_error_prepend_key(err: *mut fbe_error);
        /// The error of a host value nested deeper than FBE_DEFAULT_MAX_DEPTH
        /// (`fbe_limits_default().max_depth`; fbe/internal/tape.h): FBE_ERR_LIMIT.
        pub fn fbei_tape_too_deep(err: *mut fbe_error) -> fbe_status;
    }
}
