//! The sender/receiver protocol (FORMAT.md 9): messages framed back to back on any byte
//! stream. A [`Sender`] writes frames to a `std::io::Write`; a [`Receiver`] takes bytes
//! in pieces of any size (or reads a `std::io::Read`) and queues the messages.
use std::collections::VecDeque;
use std::ffi::{c_char, c_int, c_void};
use std::io::{Read, Write};
use std::marker::PhantomData;

use fbe_sys as sys;

use crate::codec::{Limits, Model};
use crate::error::{check, raw, Error, Result, Status};
use crate::message::Message;
use crate::raw::cstring;
use crate::Schema;

/// Which way a logged message went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Send,
    Receive,
}

/// A log hook: every message sent or received, as its text form (the core's).
pub type LogHook<'s> = Box<dyn FnMut(Direction, &str) + Send + 's>;

pub(crate) struct Log<'s> {
    pub(crate) hook: Option<LogHook<'s>>,
}

pub(crate) unsafe extern "C" fn on_send_log(ctx: *mut c_void, _msg: *const sys::fbe_msg, text: *const c_char, size: usize) {
    log_line(ctx, Direction::Send, text, size)
}

pub(crate) unsafe extern "C" fn on_receive_log(
    ctx: *mut c_void,
    _msg: *const sys::fbe_msg,
    text: *const c_char,
    size: usize,
) {
    log_line(ctx, Direction::Receive, text, size)
}

unsafe fn log_line(ctx: *mut c_void, way: Direction, text: *const c_char, size: usize) {
    let log = &mut *(ctx as *mut Log);
    if let Some(hook) = log.hook.as_mut() {
        let bytes = std::slice::from_raw_parts(text as *const u8, size);
        hook(way, &String::from_utf8_lossy(bytes));
    }
}

/// Where a sender's bytes go: the writer, and the first write error it gave.
pub(crate) struct Sink<W> {
    pub(crate) out: W,
    pub(crate) failed: Option<std::io::Error>,
}

pub(crate) unsafe extern "C" fn to_writer<W: Write>(ctx: *mut c_void, data: *const u8, size: usize) -> c_int {
    let sink = &mut *(ctx as *mut Sink<W>);
    let bytes = if size == 0 { &[][..] } else { std::slice::from_raw_parts(data, size) };
    match sink.out.write_all(bytes) {
        Ok(()) => 0,
        Err(e) => {
            sink.failed = Some(e);
            1
        }
    }
}

pub(crate) fn package_arg(package: Option<&str>) -> Option<std::ffi::CString> {
    package.map(cstring)
}

pub(crate) fn no_peer(package: Option<&str>) -> Error {
    // the core returns NULL without an error record for these two causes
    Error::with_text(
        Status::NotFound,
        format!("cannot make a peer of package '{}': unknown package or out of memory", package.unwrap_or("")),
    )
}

/// Writes every message as one frame of `model` to a `Write`.
pub struct Sender<'s, W: Write> {
    raw: *mut sys::fbe_sender,
    sink: Box<Sink<W>>,
    log: Box<Log<'s>>,
    _schema: PhantomData<&'s Schema>,
}

unsafe impl<W: Write + Send> Send for Sender<'_, W> {}

impl<'s, W: Write> Sender<'s, W> {
    /// A sender of the protocol of `package` (`None`: the schema's root package).
    pub fn new(schema: &'s Schema, package: Option<&str>, model: Model, out: W) -> Result<Sender<'s, W>> {
        let mut sink = Box::new(Sink { out, failed: None });
        let pkg = package_arg(package);
        let raw = unsafe {
            sys::fbe_sender_new(
                schema.ptr(),
                pkg.as_ref().map_or(std::ptr::null(), |p| p.as_ptr()),
                model.raw(),
                to_writer::<W>,
                &mut *sink as *mut Sink<W> as *mut c_void,
            )
        };
        if raw.is_null() {
            return Err(no_peer(package));
        }
        Ok(Sender { raw, sink, log: Box::new(Log { hook: None }), _schema: PhantomData })
    }

    /// Encodes `msg` (a message type of the protocol) and writes its frame.
    pub fn send(&mut self, msg: &Message<'_>) -> Result<()> {
        let mut err = raw();
        let s = unsafe { sys::fbe_sender_send(self.raw, msg.ptr(), &mut err) };
        self.sink.failed = None;
        check(s, &err)
    }

    /// Logs every message sent, as its text form.
    pub fn set_log(&mut self, hook: impl FnMut(Direction, &str) + Send + 's) {
        self.log.hook = Some(Box::new(hook));
        unsafe { sys::fbe_sender_set_log(self.raw, Some(on_send_log), &mut *self.log as *mut Log as *mut c_void) };
    }

    pub fn get_ref(&self) -> &W {
        &self.sink.out
    }
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.sink.out
    }
}

impl<W: Write> Drop for Sender<'_, W> {
    fn drop(&mut self) {
        unsafe { sys::fbe_sender_free(self.raw) }
    }
}

struct Inbox<'s> {
    queue: VecDeque<Message<'s>>,
    failed: Option<Error>,
}

unsafe extern "C" fn to_inbox(ctx: *mut c_void, msg: *const sys::fbe_msg) -> c_int {
    let inbox = &mut *(ctx as *mut Inbox);
    match Message::copy_of(msg) {
        Ok(m) => {
            inbox.queue.push_back(m);
            0
        }
        Err(e) => {
            inbox.failed = Some(e);
            1
        }
    }
}

/// Takes a byte stream in pieces of any size and queues the messages it carries.
pub struct Receiver<'s> {
    raw: *mut sys::fbe_receiver,
    inbox: Box<Inbox<'s>>,
    log: Box<Log<'s>>,
}

unsafe impl Send for Receiver<'_> {}

impl<'s> Receiver<'s> {
    /// A receiver of the protocol of `package` (`None`: the root package) and its imports.
    pub fn new(schema: &'s Schema, package: Option<&str>, model: Model, limits: Option<&Limits>) -> Result<Receiver<'s>> {
        let mut inbox = Box::new(Inbox { queue: VecDeque::new(), failed: None });
        let pkg = package_arg(package);
        let raw = unsafe {
            sys::fbe_receiver_new(
                schema.ptr(),
                pkg.as_ref().map_or(std::ptr::null(), |p| p.as_ptr()),
                model.raw(),
                limits.map_or(std::ptr::null(), |l| &l.raw),
                to_inbox,
                &mut *inbox as *mut Inbox as *mut c_void,
            )
        };
        if raw.is_null() {
            return Err(no_peer(package));
        }
        Ok(Receiver { raw, inbox, log: Box::new(Log { hook: None }) })
    }

    /// Takes the next bytes of the stream. Every complete frame is verified, decoded and
    /// queued; a bad frame is an error (the messages before it stay queued).
    pub fn feed(&mut self, data: &[u8]) -> Result<()> {
        let mut err = raw();
        let s = unsafe { sys::fbe_receiver_feed(self.raw, data.as_ptr(), data.len(), &mut err) };
        if let Some(e) = self.inbox.failed.take() {
            return Err(e);
        }
        check(s, &err)
    }

    /// Reads `input` to its end, feeding what it reads.
    pub fn read_from(&mut self, input: &mut impl Read) -> std::io::Result<usize> {
        let mut buf = [0u8; 8192];
        let mut total = 0;
        loop {
            let n = input.read(&mut buf)?;
            if n == 0 {
                return Ok(total);
            }
            total += n;
            self.feed(&buf[..n]).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        }
    }

    /// The next message received, in stream order.
    pub fn recv(&mut self) -> Option<Message<'s>> {
        self.inbox.queue.pop_front()
    }

    /// Every message received so far.
    pub fn drain(&mut self) -> impl Iterator<Item = Message<'s>> + '_ {
        self.inbox.queue.drain(..)
    }

    /// Bytes of an incomplete frame held for the next feed.
    pub fn pending(&self) -> usize {
        unsafe { sys::fbe_receiver_pending(self.raw) }
    }

    /// Drops a partial frame.
    pub fn reset(&mut self) {
        unsafe { sys::fbe_receiver_reset(self.raw) }
    }

    /// Logs every message received, as its text form.
    pub fn set_log(&mut self, hook: impl FnMut(Direction, &str) + Send + 's) {
        self.log.hook = Some(Box::new(hook));
        unsafe { sys::fbe_receiver_set_log(self.raw, Some(on_receive_log), &mut *self.log as *mut Log as *mut c_void) };
    }
}

impl Drop for Receiver<'_> {
    fn drop(&mut self) {
        unsafe { sys::fbe_receiver_free(self.raw) }
    }
}
