//! Request/response over the protocol (docs/CLIENT.md): the core's client, the server's
//! reply rule (`fbe_reply_prepare`) and the proxy. The core has no threads and no
//! clock: the caller passes the time (`now`, nanoseconds) and collects what ended.
use std::collections::VecDeque;
use std::ffi::{c_int, c_void};
use std::io::Write;
use std::marker::PhantomData;

use fbe_sys as sys;

use crate::codec::{Limits, Model};
use crate::error::{check, raw, Error, Result};
use crate::message::Message;
use crate::protocol::{no_peer, on_receive_log, on_send_log, package_arg, to_writer, Direction, Log, Sink};
use crate::types::StructType;
use crate::Schema;

/// How a request ended.
#[derive(Debug)]
pub enum Outcome<'s> {
    /// Its type has no response: sending it was its end.
    Sent,
    /// Its response.
    Responded(Message<'s>),
    /// One of its rejects, and the error it failed with (`Status::Rejected`).
    Rejected(Message<'s>, Error),
    /// Past its timeout at a watchdog (`Status::Timeout`).
    TimedOut(Error),
    /// Ended by `reset` (`Status::Reset`).
    Reset(Error),
}

/// A request that ended: the token it was made with, and how.
#[derive(Debug)]
pub struct Ended<'s> {
    pub token: u64,
    pub outcome: Outcome<'s>,
}

/// A client's options.
#[derive(Clone, Copy, Default)]
pub struct ClientOptions<'l> {
    pub model: Model,
    /// Requests waiting at once; 0: the core's default.
    pub max_pending: usize,
    pub limits: Option<&'l Limits>,
}

struct ClientState<'s> {
    ended: VecDeque<Ended<'s>>,
    notified: VecDeque<Message<'s>>,
    failed: Option<Error>,
}

unsafe extern "C" fn on_done(
    ctx: *mut c_void,
    token: u64,
    end: sys::fbe_request_end,
    msg: *const sys::fbe_msg,
    err: *const sys::fbe_error,
) {
    let st = &mut *(ctx as *mut ClientState);
    let copy = if msg.is_null() { None } else { Message::copy_of(msg).map_err(|e| st.failed = Some(e)).ok() };
    let error = (!err.is_null()).then(|| Error::from_raw(&*err));
    let outcome = match (end, copy, error) {
        (0, _, _) => Outcome::Sent,
        (1, Some(m), _) => Outcome::Responded(m),
        (2, Some(m), Some(e)) => Outcome::Rejected(m, e),
        (3, _, Some(e)) => Outcome::TimedOut(e),
        (_, _, Some(e)) => Outcome::Reset(e),
        _ => return,
    };
    st.ended.push_back(Ended { token, outcome });
}

unsafe extern "C" fn on_notify(ctx: *mut c_void, msg: *const sys::fbe_msg) -> c_int {
    let st = &mut *(ctx as *mut ClientState);
    match Message::copy_of(msg) {
        Ok(m) => {
            st.notified.push_back(m);
            0
        }
        Err(e) => {
            st.failed = Some(e);
            1
        }
    }
}

/// A client of a package's protocol: sends requests to a `Write`, is fed the bytes
/// received, and reports each request's end once ([`take_ended`](Self::take_ended)).
pub struct Client<'s, W: Write> {
    raw: *mut sys::fbe_client,
    sink: Box<Sink<W>>,
    state: Box<ClientState<'s>>,
    log: Box<Log<'s>>,
    _schema: PhantomData<&'s Schema>,
}

unsafe impl<W: Write + Send> Send for Client<'_, W> {}

impl<'s, W: Write> Client<'s, W> {
    pub fn new(schema: &'s Schema, package: Option<&str>, options: ClientOptions<'_>, out: W) -> Result<Client<'s, W>> {
        let mut sink = Box::new(Sink { out, failed: None });
        let mut state = Box::new(ClientState { ended: VecDeque::new(), notified: VecDeque::new(), failed: None });
        let o = sys::fbe_client_options {
            model: options.model.raw(),
            limits: options.limits.map_or(std::ptr::null(), |l| &l.raw),
            max_pending: options.max_pending,
            sink: Some(to_writer::<W>),
            sink_ctx: &mut *sink as *mut Sink<W> as *mut c_void,
            done: Some(on_done),
            notify: Some(on_notify),
            ctx: &mut *state as *mut ClientState as *mut c_void,
        };
        let pkg = package_arg(package);
        let mut err = raw();
        let raw_client = unsafe {
            sys::fbe_client_new(schema.ptr(), pkg.as_ref().map_or(std::ptr::null(), |p| p.as_ptr()), &o, &mut err)
        };
        if raw_client.is_null() {
            return Err(Error::from_raw(&err));
        }
        Ok(Client { raw: raw_client, sink, state, log: Box::new(Log { hook: None }), _schema: PhantomData })
    }

    fn settle(&mut self, s: sys::fbe_status, err: &sys::fbe_error) -> Result<()> {
        self.sink.failed = None;
        if let Some(e) = self.state.failed.take() {
            return Err(e);
        }
        check(s, err)
    }

    /// Sends a `[request]` message: `token` names it in its [`Ended`]; `timeout_ns`
    /// 0: none; `now`: the caller's clock in nanoseconds.
    pub fn request(&mut self, msg: &Message<'_>, token: u64, timeout_ns: u64, now: u64) -> Result<()> {
        let mut err = raw();
        let s = unsafe { sys::fbe_client_request(self.raw, msg.ptr(), timeout_ns, now, token, &mut err) };
        self.settle(s, &err)
    }

    /// Sends any message of the protocol as it is (a notification).
    pub fn send(&mut self, msg: &Message<'_>) -> Result<()> {
        let mut err = raw();
        let s = unsafe { sys::fbe_client_send(self.raw, msg.ptr(), &mut err) };
        self.settle(s, &err)
    }

    /// Takes received bytes: responses and rejects end their requests, other messages
    /// are notifications.
    pub fn feed(&mut self, data: &[u8]) -> Result<()> {
        let mut err = raw();
        let s = unsafe { sys::fbe_client_feed(self.raw, data.as_ptr(), data.len(), &mut err) };
        self.settle(s, &err)
    }

    /// Ends the requests past their timeout at `now`; how many.
    pub fn watchdog(&mut self, now: u64) -> usize {
        unsafe { sys::fbe_client_watchdog(self.raw, now) }
    }

    /// Ends every pending request (`Outcome::Reset`) and drops a partial frame.
    pub fn reset(&mut self) {
        unsafe { sys::fbe_client_reset(self.raw) }
    }

    /// Requests waiting for their response.
    pub fn pending(&self) -> usize {
        unsafe { sys::fbe_client_pending(self.raw) }
    }

    /// The requests that ended since the last call, in the order they ended.
    pub fn take_ended(&mut self) -> Vec<Ended<'s>> {
        self.state.ended.drain(..).collect()
    }

    /// The notifications received since the last call.
    pub fn take_notified(&mut self) -> Vec<Message<'s>> {
        self.state.notified.drain(..).collect()
    }

    /// Logs every message sent and received, as its text form.
    pub fn set_log(&mut self, hook: impl FnMut(Direction, &str) + Send + 's) {
        self.log.hook = Some(Box::new(hook));
        let ctx = &mut *self.log as *mut Log as *mut c_void;
        unsafe {
            sys::fbe_sender_set_log(sys::fbe_client_sender(self.raw), Some(on_send_log), ctx);
            sys::fbe_receiver_set_log(sys::fbe_client_receiver(self.raw), Some(on_receive_log), ctx);
        }
    }

    pub fn get_ref(&self) -> &W {
        &self.sink.out
    }
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.sink.out
    }
}

impl<W: Write> Drop for Client<'_, W> {
    fn drop(&mut self) {
        unsafe { sys::fbe_client_free(self.raw) }
    }
}

/// A server of a package's protocol: is fed the bytes received, queues the requests,
/// and replies to each with its response or a reject (the id set to the request's).
pub struct Server<'s, W: Write> {
    sender: crate::Sender<'s, W>,
    receiver: crate::Receiver<'s>,
}

impl<'s, W: Write> Server<'s, W> {
    pub fn new(schema: &'s Schema, package: Option<&str>, model: Model, out: W) -> Result<Server<'s, W>> {
        Ok(Server {
            sender: crate::Sender::new(schema, package, model, out)?,
            receiver: crate::Receiver::new(schema, package, model, None)?,
        })
    }

    /// Takes received bytes; the requests are queued ([`take_requests`](Self::take_requests)).
    pub fn serve(&mut self, data: &[u8]) -> Result<()> {
        self.receiver.feed(data)
    }

    /// The requests received since the last call.
    pub fn take_requests(&mut self) -> Vec<Message<'s>> {
        self.receiver.drain().collect()
    }

    /// Answers `request` with `reply` (its response or one of its rejects, else
    /// `Status::Type`): sets the reply's `id` to the request's, then sends it.
    pub fn reply(&mut self, request: &Message<'_>, reply: &mut Message<'_>) -> Result<()> {
        let mut err = raw();
        let s = unsafe { sys::fbe_reply_prepare(request.ptr(), reply.ptr(), &mut err) };
        check(s, &err)?;
        self.sender.send(reply)
    }

    /// Sends any message of the protocol (a notification).
    pub fn send(&mut self, msg: &Message<'_>) -> Result<()> {
        self.sender.send(msg)
    }

    /// Logs every message sent and received, as its text form.
    pub fn set_log(&mut self, hook: impl FnMut(Direction, &str) + Send + Clone + 's) {
        self.sender.set_log(hook.clone());
        self.receiver.set_log(hook);
    }

    pub fn get_ref(&self) -> &W {
        self.sender.get_ref()
    }
    pub fn get_mut(&mut self) -> &mut W {
        self.sender.get_mut()
    }
}

/// A frame as a proxy hands it over, undecoded.
pub struct Frame<'s> {
    pub type_id: u32,
    /// The protocol's message type of that id, when it has one.
    pub message_type: Option<StructType<'s>>,
    /// The whole frame, its size field included.
    pub bytes: Vec<u8>,
}

struct Frames<'s> {
    queue: VecDeque<Frame<'s>>,
}

unsafe extern "C" fn on_frame(
    ctx: *mut c_void,
    type_id: u32,
    st: *const sys::fbe_struct,
    frame: *const u8,
    size: usize,
) -> c_int {
    let frames = &mut *(ctx as *mut Frames);
    let bytes = if size == 0 { Vec::new() } else { std::slice::from_raw_parts(frame, size).to_vec() };
    let message_type = (!st.is_null()).then(|| StructType::from_raw(st));
    frames.queue.push_back(Frame { type_id, message_type, bytes });
    0
}

/// A receiver that hands every frame over undecoded (a router, a gateway).
pub struct Proxy<'s> {
    raw: *mut sys::fbe_receiver,
    frames: Box<Frames<'s>>,
}

unsafe impl Send for Proxy<'_> {}

impl<'s> Proxy<'s> {
    /// With `verify`, a frame of a known type is verified too, and a bad one is an error.
    pub fn new(schema: &'s Schema, package: Option<&str>, model: Model, verify: bool) -> Result<Proxy<'s>> {
        let mut frames = Box::new(Frames { queue: VecDeque::new() });
        let pkg = package_arg(package);
        let raw = unsafe {
            sys::fbe_proxy_new(
                schema.ptr(),
                pkg.as_ref().map_or(std::ptr::null(), |p| p.as_ptr()),
                model.raw(),
                std::ptr::null(),
                verify as c_int,
                on_frame,
                &mut *frames as *mut Frames as *mut c_void,
            )
        };
        if raw.is_null() {
            return Err(no_peer(package));
        }
        Ok(Proxy { raw, frames })
    }

    pub fn feed(&mut self, data: &[u8]) -> Result<()> {
        let mut err = raw();
        let s = unsafe { sys::fbe_receiver_feed(self.raw, data.as_ptr(), data.len(), &mut err) };
        check(s, &err)
    }

    /// The frames since the last call, in stream order.
    pub fn take_frames(&mut self) -> Vec<Frame<'s>> {
        self.frames.queue.drain(..).collect()
    }
}

impl Drop for Proxy<'_> {
    fn drop(&mut self) {
        unsafe { sys::fbe_receiver_free(self.raw) }
    }
}
