//! The conversations (docs/TESTEE.md): sessions that are a client, a server or a proxy
//! of a package, made with the crate's `Client`, `Server` and `Proxy`. What a session
//! sends, what ended and what its log hooks got is written into the next answer.
use std::sync::{Arc, Mutex};

use fbe::{Client, ClientOptions, Direction, Message, Outcome, Proxy, Schema, Server};

use crate::reply::{quote, Reply};
use crate::{Request, Testee};

enum Peer {
    Client(Client<'static, Vec<u8>>),
    Server(Server<'static, Vec<u8>>, Vec<Message<'static>>),
    Proxy(Proxy<'static>),
}

struct Session {
    name: String,
    package: String,
    /// Dropped before `schema` (fields drop in order): the peer borrows it.
    peer: Peer,
    log: Arc<Mutex<Vec<String>>>,
    schema: Box<Schema>,
}

#[derive(Default)]
pub struct Sessions {
    open: Vec<Session>,
}

impl Sessions {
    pub fn close_all(&mut self) {
        self.open.clear();
    }
}

/// The schema borrowed for as long as the session that owns it (the box does not move
/// and is dropped after the peer).
fn pinned(schema: &Schema) -> &'static Schema {
    unsafe { &*(schema as *const Schema) }
}

fn open(t: &mut Testee, rq: &Request, op: &str) -> Result<Reply, Reply> {
    let name = rq.str("session").ok_or_else(|| Reply::fail("request needs \"session\""))?;
    if t.sessions.open.iter().any(|s| s.name == name) {
        return Err(Reply::fail("a session of that name is open"));
    }
    let package = rq.str("package").ok_or_else(|| Reply::fail("request needs \"package\""))?;
    let schema = Box::new(t.loaded.schema(&package)?);
    let s: &'static Schema = pinned(&schema);
    let model = rq.model();
    let log = Arc::new(Mutex::new(Vec::new()));
    let hook = {
        let log = log.clone();
        move |way: Direction, text: &str| {
            let head = if way == Direction::Send { "send " } else { "receive " };
            log.lock().unwrap().push(format!("{head}{text}"));
        }
    };
    let wants_log = rq.is_true("log");
    let peer = match op {
        "client" => {
            let max_pending = rq
                .u64("max_pending")
                .map_err(|_| Reply::fail("\"max_pending\" must be a non-negative integer"))?
                .unwrap_or(0) as usize;
            let options = ClientOptions { model, max_pending, limits: None };
            let mut c = Client::new(s, Some(&package), options, Vec::new()).map_err(Reply::error)?;
            if wants_log {
                c.set_log(hook);
            }
            Peer::Client(c)
        }
        "server" => {
            let mut sv = Server::new(s, Some(&package), model, Vec::new()).map_err(Reply::error)?;
            if wants_log {
                sv.set_log(hook);
            }
            Peer::Server(sv, Vec::new())
        }
        _ => Peer::Proxy(Proxy::new(s, Some(&package), model, rq.is_true("verify")).map_err(Reply::error)?),
    };
    t.sessions.open.push(Session { name, package, peer, log, schema });
    Ok(Reply::ok())
}

/// The message of the request's "type" (the package's "Name" or "pkg.Name") and "json".
fn message_of(s: &Session, rq: &Request) -> Result<Message<'static>, Reply> {
    let (Some(ty), Some(json)) = (rq.str("type"), rq.raw("json")) else {
        return Err(Reply::fail("request needs \"type\" and \"json\""));
    };
    let schema = pinned(&s.schema);
    let st = ty
        .contains('.')
        .then(|| schema.struct_type(&ty).ok())
        .flatten()
        .or_else(|| schema.struct_type(&format!("{}.{}", s.package, ty)).ok())
        .ok_or_else(|| Reply::fail("no such type"))?;
    st.from_json(json).map_err(Reply::error)
}

fn message_json(m: &Message<'_>) -> String {
    format!(
        "{{\"type\":{},\"json\":{}}}",
        quote(m.struct_type().full_name()),
        m.to_json().unwrap_or_else(|_| "null".into())
    )
}

fn ended_json(client: &mut Client<'static, Vec<u8>>) -> String {
    let items: Vec<String> = client
        .take_ended()
        .into_iter()
        .map(|e| {
            let (name, msg, err) = match &e.outcome {
                Outcome::Sent => ("sent", None, None),
                Outcome::Responded(m) => ("responded", Some(m), None),
                Outcome::Rejected(m, err) => ("rejected", Some(m), Some(err)),
                Outcome::TimedOut(err) => ("timeout", None, Some(err)),
                Outcome::Reset(err) => ("reset", None, Some(err)),
            };
            let mut s = format!("{{\"token\":{},\"end\":\"{name}\"", e.token);
            if let Some(m) = msg {
                s += &format!(
                    ",\"type\":{},\"json\":{}",
                    quote(m.struct_type().full_name()),
                    m.to_json().unwrap_or_else(|_| "null".into())
                );
            }
            if let Some(err) = err {
                s += &format!(",\"status\":{},\"error\":{}", quote(err.status().name()), quote(&err.to_string()));
            }
            s + "}"
        })
        .collect();
    format!("[{}]", items.join(","))
}

/// The answer: ok or the error, what was sent (hex), the lists the op reports, the log.
fn finish(s: &mut Session, result: Result<(), fbe::Error>, hex: bool, lists: &str) -> Reply {
    let mut r = match result {
        Ok(()) => Reply::ok(),
        Err(e) => Reply::error(e),
    };
    let wire = match &mut s.peer {
        Peer::Client(c) => std::mem::take(c.get_mut()),
        Peer::Server(sv, _) => std::mem::take(sv.get_mut()),
        Peer::Proxy(_) => Vec::new(),
    };
    if hex {
        r = r.hex("hex", &wire);
    }
    match &mut s.peer {
        Peer::Client(c) => {
            if lists.contains('e') {
                r = r.raw("ended", ended_json(c));
            }
            if lists.contains('n') {
                let items: Vec<String> = c.take_notified().iter().map(message_json).collect();
                r = r.raw("notified", format!("[{}]", items.join(",")));
            }
        }
        Peer::Server(sv, kept) => {
            let fresh = sv.take_requests();
            let items: Vec<String> = fresh.iter().map(message_json).collect();
            kept.extend(fresh);
            if lists.contains('r') {
                r = r.raw("requests", format!("[{}]", items.join(",")));
            }
        }
        Peer::Proxy(p) => {
            let items: Vec<String> = p
                .take_frames()
                .iter()
                .map(|f| {
                    let hex = Reply::ok().hex("h", &f.bytes).finish();
                    let hex = &hex[hex.find("\"h\":").unwrap() + 4..hex.len() - 1];
                    format!("{{\"type_id\":{},\"known\":{},\"hex\":{hex}}}", f.type_id, f.message_type.is_some())
                })
                .collect();
            if lists.contains('f') {
                r = r.raw("frames", format!("[{}]", items.join(",")));
            }
        }
    }
    let lines: Vec<String> = std::mem::take(&mut *s.log.lock().unwrap());
    if !lines.is_empty() {
        let items: Vec<String> = lines.iter().map(|l| quote(l)).collect();
        r = r.raw("log", format!("[{}]", items.join(",")));
    }
    r
}

/// Feeds "hex" in pieces of "chunk_size" to the session's client, server or proxy.
fn feed(s: &mut Session, rq: &Request) -> Result<Result<(), fbe::Error>, Reply> {
    let bytes = rq.hex()?;
    let chunk = rq.u64("chunk_size").map_err(|_| Reply::fail("\"chunk_size\" must be a positive integer"))?;
    let size = bytes.len();
    let chunk = match chunk {
        Some(c) if c > 0 && (c as usize) <= size => c as usize,
        _ => size.max(1),
    };
    let mut at = 0;
    loop {
        let n = chunk.min(size - at);
        let piece = &bytes[at..at + n];
        let rc = match &mut s.peer {
            Peer::Client(c) => c.feed(piece),
            Peer::Server(sv, _) => sv.serve(piece),
            Peer::Proxy(p) => p.feed(piece),
        };
        at += n;
        if rc.is_err() || at >= size {
            return Ok(rc);
        }
    }
}

/// A conversation op, or None when `op` is none of them.
pub fn answer(t: &mut Testee, op: &str, rq: &Request) -> Option<Result<Reply, Reply>> {
    const OPS: [&str; 8] = ["request", "feed", "watchdog", "reset", "serve", "reply", "send", "close"];
    if matches!(op, "client" | "server" | "proxy") {
        return Some(open(t, rq, op));
    }
    if !OPS.contains(&op) {
        return None;
    }
    Some(session_op(t, op, rq))
}

fn session_op(t: &mut Testee, op: &str, rq: &Request) -> Result<Reply, Reply> {
    let name = rq.str("session").ok_or_else(|| Reply::fail("request needs \"session\""))?;
    let index = t.sessions.open.iter().position(|s| s.name == name).ok_or_else(|| Reply::fail("no such session"))?;
    if op == "close" {
        t.sessions.open.remove(index);
        return Ok(Reply::ok());
    }
    let s = &mut t.sessions.open[index];
    let kind = match s.peer {
        Peer::Client(_) => 'c',
        Peer::Server(..) => 's',
        Peer::Proxy(_) => 'p',
    };
    match op {
        "request" => {
            if kind != 'c' {
                return Err(Reply::fail("not a client session"));
            }
            let bad = || Reply::fail("\"now\", \"timeout\" and \"token\" must be non-negative integers");
            let now = rq.u64("now").map_err(|_| bad())?.unwrap_or(0);
            let timeout = rq.u64("timeout").map_err(|_| bad())?.unwrap_or(0);
            let token = rq.u64("token").map_err(|_| bad())?.unwrap_or(0);
            let msg = message_of(s, rq)?;
            let Peer::Client(c) = &mut s.peer else { unreachable!() };
            let rc = c.request(&msg, token, timeout, now);
            Ok(finish(s, rc, true, "e"))
        }
        "feed" => {
            if kind == 's' {
                return Err(Reply::fail("a server session is fed by \"serve\""));
            }
            let rc = feed(s, rq)?;
            Ok(finish(s, rc, false, if kind == 'c' { "en" } else { "f" }))
        }
        "watchdog" | "reset" => {
            let Peer::Client(c) = &mut s.peer else {
                return Err(Reply::fail("not a client session"));
            };
            if op == "watchdog" {
                let now = rq.u64("now").map_err(|_| Reply::fail("\"now\" must be a non-negative integer"))?.unwrap_or(0);
                c.watchdog(now);
            } else {
                c.reset();
            }
            Ok(finish(s, Ok(()), false, "e"))
        }
        "serve" => {
            if kind != 's' {
                return Err(Reply::fail("not a server session"));
            }
            let rc = feed(s, rq)?;
            Ok(finish(s, rc, false, "r"))
        }
        "reply" => {
            if kind != 's' {
                return Err(Reply::fail("not a server session"));
            }
            let i = rq.u64("request").ok().flatten().ok_or_else(|| Reply::fail("no such request"))? as usize;
            // requests received so far (taken into `kept` at each answer)
            if let Peer::Server(sv, kept) = &mut s.peer {
                kept.extend(sv.take_requests());
                if i >= kept.len() {
                    return Err(Reply::fail("no such request"));
                }
            }
            let mut reply = message_of(s, rq)?;
            let Peer::Server(sv, kept) = &mut s.peer else { unreachable!() };
            let rc = sv.reply(&kept[i], &mut reply);
            Ok(finish(s, rc, true, ""))
        }
        _ => {
            // send
            if kind == 'p' {
                return Err(Reply::fail("a proxy sends nothing"));
            }
            let msg = message_of(s, rq)?;
            let rc = match &mut s.peer {
                Peer::Client(c) => c.send(&msg),
                Peer::Server(sv, _) => sv.send(&msg),
                Peer::Proxy(_) => unreachable!(),
            };
            Ok(finish(s, rc, true, if kind == 'c' { "e" } else { "" }))
        }
    }
}
