//! fbe-testee: the Rust binding's testee of the conformance runner (docs/TESTEE.md).
//! One JSON request per stdin line, one JSON response per stdout line, every answer
//! made through the `fbe` crate's public API.
mod native;
mod reply;
mod sessions;

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, Write};
use std::path::PathBuf;

use fbe::{Model, Receiver, Schema, Sender, StructType};
use serde_json::value::RawValue;

use reply::Reply;

/// A request: its members, each as its raw JSON text.
pub struct Request {
    members: BTreeMap<String, Box<RawValue>>,
}

impl Request {
    pub fn raw(&self, name: &str) -> Option<&str> {
        self.members.get(name).map(|r| r.get())
    }
    pub fn str(&self, name: &str) -> Option<String> {
        self.raw(name).and_then(|r| serde_json::from_str::<String>(r).ok())
    }
    pub fn is_true(&self, name: &str) -> bool {
        self.raw(name) == Some("true")
    }
    pub fn value(&self, name: &str) -> Option<serde_json::Value> {
        self.raw(name).and_then(|r| serde_json::from_str(r).ok())
    }
    pub fn model(&self) -> Model {
        if self.str("model").as_deref() == Some("final") {
            Model::Final
        } else {
            Model::Standard
        }
    }
    /// A non-negative integer member: Ok(None) when absent, Err when malformed (the
    /// caller words the failure).
    #[allow(clippy::result_unit_err)]
    pub fn u64(&self, name: &str) -> Result<Option<u64>, ()> {
        match self.raw(name) {
            None => Ok(None),
            Some(r) => r.parse::<u64>().map(Some).map_err(|_| ()),
        }
    }
    pub fn hex(&self) -> Result<Vec<u8>, Reply> {
        let bad = || Reply::fail("request needs \"hex\" (an even number of hex digits)");
        let text = self.str("hex").ok_or_else(bad)?;
        if text.len() % 2 != 0 {
            return Err(bad());
        }
        (0..text.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(text.get(i..i + 2).ok_or_else(bad)?, 16).map_err(|_| bad()))
            .collect()
    }
}

/// What a load set up: the include directories, the packages written to disk, the
/// schemas loaded so far by package name.
#[derive(Default)]
pub struct Loaded {
    includes: Vec<PathBuf>,
    written: Option<PathBuf>,
    schemas: HashMap<String, Schema>,
}

impl Loaded {
    fn forget(&mut self) {
        self.schemas.clear();
        self.includes.clear();
        if let Some(dir) = self.written.take() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }

    pub fn schema(&mut self, package: &str) -> Result<Schema, Reply> {
        if let Some(s) = self.schemas.get(package) {
            return Ok(s.clone());
        }
        let schema = Schema::load_package(package, &self.includes).map_err(|e| {
            let text = e.to_string();
            Reply::fail(if text.is_empty() { format!("cannot load package '{package}'") } else { first_line(&text) })
        })?;
        self.schemas.insert(package.to_owned(), schema.clone());
        Ok(schema)
    }
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or("").to_owned()
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn temp_dir() -> std::io::Result<PathBuf> {
    let base = std::env::var_os("TMPDIR").filter(|b| !b.is_empty()).map_or_else(|| PathBuf::from("/tmp"), PathBuf::from);
    for attempt in 0..1000u32 {
        let dir = base.join(format!("fbe-testee-rust-{}-{attempt}", std::process::id()));
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other("no free temporary directory name"))
}

fn do_load(t: &mut Testee, rq: &Request) -> Reply {
    t.sessions.close_all();
    t.loaded.forget();
    if let Some(raw) = rq.raw("packages") {
        let Ok(packages) = serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(raw) else {
            return Reply::fail("\"packages\" must be an object: package name -> schema text");
        };
        let dir = match temp_dir() {
            Ok(d) => d,
            Err(e) => return Reply::fail(format!("cannot make a directory for the packages: {e}")),
        };
        t.loaded.written = Some(dir.clone());
        for (name, text) in &packages {
            let Some(text) = text.as_str() else {
                return Reply::fail("\"packages\" must be an object: package name -> schema text");
            };
            if !is_identifier(name) {
                return Reply::fail(format!("package name '{name}' is not an identifier"));
            }
            let path = dir.join(format!("{name}.fbe"));
            if std::fs::write(&path, text).is_err() {
                return Reply::fail(format!("cannot write the schema of package '{name}' to {}", path.display()));
            }
        }
        t.loaded.includes.push(dir);
    }
    if let Some(raw) = rq.raw("include") {
        let Ok(dirs) = serde_json::from_str::<Vec<String>>(raw) else {
            return Reply::fail("\"include\" must be an array of directory names");
        };
        t.loaded.includes.extend(dirs.into_iter().map(PathBuf::from));
    }
    if let Some(raw) = rq.raw("files") {
        let Ok(files) = serde_json::from_str::<Vec<String>>(raw) else {
            return Reply::fail("\"files\" must be an array of file names");
        };
        for file in files {
            if let Err(e) = Schema::load_with(&file, &t.loaded.includes) {
                return Reply::fail(first_line(&e.to_string()));
            }
        }
    }
    Reply::ok()
}

/// The schema and the struct type the request names.
fn with_type<R>(
    t: &mut Testee,
    rq: &Request,
    f: impl FnOnce(StructType<'_>) -> Result<R, Reply>,
) -> Result<R, Reply> {
    let (Some(package), Some(type_name)) = (rq.str("package"), rq.str("type")) else {
        return Err(Reply::fail("request needs \"package\" and \"type\""));
    };
    let schema = t.loaded.schema(&package)?;
    let st = schema.struct_type(&format!("{package}.{type_name}")).map_err(|_| Reply::fail(format!("no type {package}.{type_name}")))?;
    f(st)
}

fn do_encode(t: &mut Testee, rq: &Request) -> Result<Reply, Reply> {
    let Some(json) = rq.raw("json").map(str::to_owned) else {
        return Err(Reply::fail("request needs \"json\""));
    };
    let native = rq.is_true("native");
    let model = rq.model();
    with_type(t, rq, |st| {
        let msg = if native { st.from_value(native::value_of(st, &json)) } else { st.from_json(&json) }
            .map_err(Reply::error)?;
        let bytes = msg.encode(model).map_err(Reply::error)?;
        Ok(Reply::ok().hex("hex", &bytes))
    })
}

/// decode and text: from a decoded message, or from a view of the bytes ("view").
fn do_decode(t: &mut Testee, rq: &Request, text: bool) -> Result<Reply, Reply> {
    let bytes = rq.hex()?;
    let model = rq.model();
    let (view, trusted) = (rq.is_true("view"), rq.is_true("trusted"));
    with_type(t, rq, |st| {
        let out = if view {
            let v = st.view(&bytes, model).map_err(Reply::error)?;
            if text { v.to_text() } else { v.to_json() }
        } else {
            let m = if trusted { st.decode_trusted(&bytes, model) } else { st.decode(&bytes, model) }
                .map_err(Reply::error)?;
            if text { m.to_text() } else { m.to_json() }
        }
        .map_err(Reply::error)?;
        Ok(if text { Reply::ok().string("text", &out) } else { Reply::ok().raw("json", out) })
    })
}

fn do_verify(t: &mut Testee, rq: &Request) -> Result<Reply, Reply> {
    let bytes = rq.hex()?;
    let model = rq.model();
    with_type(t, rq, |st| {
        Ok(match st.verify(&bytes, model) {
            Ok(size) => Reply::ok().raw("valid", "true".into()).raw("size", size.to_string()),
            Err(e) => Reply::ok().raw("valid", "false".into()).string("reason", &e.to_string()),
        })
    })
}

/// A stream item's message: {"schema": PKG, "type": T, "json": VALUE}.
fn item_message<'s>(schema: &'s Schema, item: &serde_json::Value) -> Result<fbe::Message<'s>, Reply> {
    let (Some(pkg), Some(ty)) = (item.get("schema").and_then(|v| v.as_str()), item.get("type").and_then(|v| v.as_str()))
    else {
        return Err(Reply::fail("a stream item needs \"schema\" and \"type\""));
    };
    let name = format!("{pkg}.{ty}");
    let st = schema.struct_type(&name).map_err(|_| Reply::fail(format!("no type {name} in the schema")))?;
    let Some(json) = item.get("json") else {
        return Err(Reply::fail(format!("{name}: no \"json\" value")));
    };
    st.from_json(&json.to_string()).map_err(|e| Reply::fail(format!("{name}: {e}")))
}

fn do_stream_encode(t: &mut Testee, rq: &Request) -> Result<Reply, Reply> {
    let package = rq.str("package").ok_or_else(|| Reply::fail("request needs \"package\""))?;
    let schema = t.loaded.schema(&package)?;
    let Some(serde_json::Value::Array(items)) = rq.value("messages") else {
        return Err(Reply::fail("request needs \"messages\""));
    };
    let mut sender = Sender::new(&schema, Some(&package), rq.model(), Vec::new()).map_err(Reply::error)?;
    for item in &items {
        let msg = item_message(&schema, item)?;
        sender.send(&msg).map_err(Reply::error)?;
    }
    Ok(Reply::ok().hex("hex", sender.get_ref()))
}

/// The pieces a stream-decode feeds: the sizes of "chunks", then "chunk_size" pieces
/// or the rest whole (docs/TESTEE.md).
fn pieces(rq: &Request, size: usize) -> Result<Vec<(usize, usize)>, Reply> {
    let step = rq.u64("chunk_size").map_err(|_| Reply::fail("\"chunk_size\" must be a positive integer"))?;
    if step == Some(0) {
        return Err(Reply::fail("\"chunk_size\" must be a positive integer"));
    }
    let mut out = Vec::new();
    let mut pos = 0usize;
    let mut fed = false;
    if let Some(raw) = rq.raw("chunks") {
        let sizes = serde_json::from_str::<Vec<u64>>(raw)
            .ok()
            .filter(|v| v.iter().all(|n| *n <= u32::MAX as u64))
            .ok_or_else(|| Reply::fail("\"chunks\" must be an array of non-negative integers"))?;
        for n in sizes {
            let n = (n as usize).min(size - pos);
            out.push((pos, n));
            pos += n;
            fed = true;
        }
    }
    match step {
        Some(step) => {
            while pos < size {
                let n = (step as usize).min(size - pos);
                out.push((pos, n));
                pos += n;
            }
        }
        None if pos < size || !fed => out.push((pos, size - pos)),
        None => {}
    }
    Ok(out)
}

fn do_stream_decode(t: &mut Testee, rq: &Request) -> Result<Reply, Reply> {
    let package = rq.str("package").ok_or_else(|| Reply::fail("request needs \"package\""))?;
    let schema = t.loaded.schema(&package)?;
    let bytes = rq.hex()?;
    let pieces = pieces(rq, bytes.len())?;
    let mut receiver = Receiver::new(&schema, Some(&package), rq.model(), None).map_err(Reply::error)?;
    for (at, n) in pieces {
        receiver.feed(&bytes[at..at + n]).map_err(Reply::error)?;
    }
    let mut items = Vec::new();
    for m in receiver.drain().collect::<Vec<_>>() {
        let st = m.struct_type();
        let (full, name) = (st.full_name(), st.name());
        let pkg = &full[..full.len() - name.len() - 1];
        items.push(format!(
            "{{\"schema\":{},\"type\":{},\"json\":{}}}",
            reply::quote(pkg),
            reply::quote(name),
            m.to_json().map_err(Reply::error)?
        ));
    }
    Ok(Reply::ok().raw("messages", format!("[{}]", items.join(","))).raw("pending", receiver.pending().to_string()))
}

fn describe_type(t: fbe::FieldType<'_>) -> String {
    let kind = t.kind();
    let mut s = format!("{{\"kind\":{}", reply::quote(kind.name()));
    if let Some(st) = t.struct_type().filter(|_| kind == fbe::Kind::Struct) {
        s += &format!(",\"struct\":{}", reply::quote(st.full_name()));
    } else if let Some(e) = t.enum_type().filter(|_| matches!(kind, fbe::Kind::Enum | fbe::Kind::Flags)) {
        let values: Vec<String> = e.values().iter().map(|(_, v)| v.to_string()).collect();
        s += &format!(
            ",\"enum\":{},\"base\":{},\"values\":[{}]",
            reply::quote(e.full_name()),
            reply::quote(e.base().name()),
            values.join(",")
        );
    } else if kind == fbe::Kind::Array {
        s += &format!(",\"size\":{}", t.array_size());
    }
    if let Some(k) = t.key() {
        s += &format!(",\"key\":{}", describe_type(k));
    }
    if let Some(e) = t.element() {
        s += &format!(",\"elem\":{}", describe_type(e));
    }
    s + "}"
}

fn do_describe(t: &mut Testee, rq: &Request) -> Result<Reply, Reply> {
    let package = rq.str("package").ok_or_else(|| Reply::fail("request needs \"package\""))?;
    let schema = t.loaded.schema(&package)?;
    let mut structs = Vec::new();
    for st in schema.structs() {
        let mut s = format!("{{\"name\":{}", reply::quote(st.full_name()));
        if let Some(b) = st.base() {
            s += &format!(",\"base\":{}", reply::quote(b.full_name()));
        }
        if st.is_message() {
            s += ",\"message\":true";
        }
        let fields: Vec<String> = st
            .fields()
            .iter()
            .map(|f| format!("{{\"name\":{},\"type\":{}}}", reply::quote(f.name()), describe_type(f.field_type())))
            .collect();
        s += &format!(",\"fields\":[{}]}}", fields.join(","));
        structs.push(s);
    }
    Ok(Reply::ok().raw("structs", format!("[{}]", structs.join(","))))
}

pub struct Testee {
    loaded: Loaded,
    sessions: sessions::Sessions,
}

fn answer(t: &mut Testee, line: &str) -> Option<Reply> {
    let Ok(members) = serde_json::from_str::<BTreeMap<String, Box<RawValue>>>(line) else {
        return Some(Reply::fail("a request is a JSON object"));
    };
    let rq = Request { members };
    let op = rq.str("op").unwrap_or_default();
    let r = match op.as_str() {
        "quit" => return None,
        "load" => Ok(do_load(t, &rq)),
        "encode" => do_encode(t, &rq),
        "decode" => do_decode(t, &rq, false),
        "text" => do_decode(t, &rq, true),
        "verify" => do_verify(t, &rq),
        "stream-encode" => do_stream_encode(t, &rq),
        "stream-decode" => do_stream_decode(t, &rq),
        "describe" => do_describe(t, &rq),
        other => match sessions::answer(t, other, &rq) {
            Some(r) => r,
            None => Err(Reply::fail("unknown op")),
        },
    };
    Some(r.unwrap_or_else(|e| e))
}

fn main() {
    let mut t = Testee { loaded: Loaded::default(), sessions: sessions::Sessions::default() };
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    let mut line = Vec::new();
    let mut input = stdin.lock();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\n', '\r']);
        if text.trim().is_empty() {
            continue;
        }
        let Some(reply) = answer(&mut t, text) else { break };
        if writeln!(stdout, "{}", reply.finish()).and_then(|_| stdout.flush()).is_err() {
            break;
        }
    }
    t.sessions.close_all();
    t.loaded.forget();
}
