//! The native path ("native": true): the value built the way a Rust program builds it,
//! as `fbe::Value`s handed to the binding: integers as Rust integers, numbers with a
//! fraction as `f64`, strings as `String` (a bytes field's Base64 decoded to `Vec<u8>`
//! when it decodes), objects as struct values or maps (keys converted from their text by
//! the key type), `[[key, value], ...]` as maps; whatever does not fit its field is
//! passed as the plain value, so that the binding refuses it as it would a program's.
use base64::Engine;
use fbe::{FieldType, Kind, StructType, Value};
use serde_json::Value as Json;

/// Marks a lone UTF-16 surrogate escape (`\ud800`), which no Rust `String` holds:
/// the string it is in reaches the binding as `Value::Utf8` bytes, the surrogate in its
/// 3-byte form (ED A0 80), as text a program read from outside would.
const SURROGATE: &str = "\u{10FFFF}surrogate:";

/// The JSON text with each lone surrogate escape replaced by SURROGATE + its 4 digits.
fn mark_surrogates(json: &str) -> String {
    let b = json.as_bytes();
    let mut out = String::with_capacity(json.len());
    let mut i = 0;
    let unit = |at: usize| -> Option<u16> {
        if at + 6 <= b.len() && b[at] == b'\\' && b[at + 1] == b'u' {
            u16::from_str_radix(std::str::from_utf8(&b[at + 2..at + 6]).ok()?, 16).ok()
        } else {
            None
        }
    };
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() && b[i + 1] == b'\\' {
            out.push_str("\\\\");
            i += 2;
            continue;
        }
        if let Some(u) = unit(i) {
            let high = (0xD800..0xDC00).contains(&u);
            let paired = high && matches!(unit(i + 6), Some(l) if (0xDC00..0xE000).contains(&l));
            if paired {
                out.push_str(&json[i..i + 12]);
                i += 12;
                continue;
            }
            if (0xD800..0xE000).contains(&u) {
                out.push_str(&format!("{SURROGATE}{u:04x}"));
                i += 6;
                continue;
            }
        }
        let ch = json[i..].chars().next().unwrap();
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// A string of the request: `Value::Utf8` when it holds a marked surrogate.
fn text(s: &str) -> Value {
    if !s.contains(SURROGATE) {
        return Value::Str(s.to_owned());
    }
    let mut bytes = Vec::new();
    let mut rest = s;
    while let Some(at) = rest.find(SURROGATE) {
        bytes.extend_from_slice(&rest.as_bytes()[..at]);
        let digits = &rest[at + SURROGATE.len()..at + SURROGATE.len() + 4];
        let u = u32::from_str_radix(digits, 16).unwrap();
        bytes.extend_from_slice(&[0xE0 | (u >> 12) as u8, 0x80 | ((u >> 6) & 0x3F) as u8, 0x80 | (u & 0x3F) as u8]);
        rest = &rest[at + SURROGATE.len() + 4..];
    }
    bytes.extend_from_slice(rest.as_bytes());
    Value::Utf8(bytes)
}

/// The root struct's value from the request's JSON text.
pub fn value_of(st: StructType<'_>, json: &str) -> Value {
    let parsed = serde_json::from_str::<Json>(json).or_else(|_| serde_json::from_str::<Json>(&mark_surrogates(json)));
    match parsed {
        Ok(Json::Object(members)) => Value::Struct(
            members
                .iter()
                .map(|(name, v)| (name.clone(), st.field(name).map_or_else(|| plain(v), |f| typed(f.field_type(), v))))
                .collect(),
        ),
        Ok(other) => plain(&other),
        Err(_) => Value::Str(json.to_owned()),
    }
}

fn number(n: &serde_json::Number) -> Value {
    let text = n.to_string();
    if !text.contains(['.', 'e', 'E']) {
        if let Ok(i) = text.parse::<i64>() {
            return Value::Int(i);
        }
        if let Ok(u) = text.parse::<u64>() {
            return Value::UInt(u);
        }
        if let Ok(w) = text.parse::<i128>() {
            return Value::Wide(w);
        }
    }
    // beyond a double: an infinity, as a host's float parser gives
    Value::Float(text.parse::<f64>().unwrap_or(if text.starts_with('-') { f64::NEG_INFINITY } else { f64::INFINITY }))
}

/// A JSON value as the host value it is, without a field to guide it.
fn plain(v: &Json) -> Value {
    match v {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => number(n),
        Json::String(s) => text(s),
        Json::Array(items) => Value::List(items.iter().map(plain).collect()),
        Json::Object(members) => Value::Struct(members.iter().map(|(k, v)| (k.clone(), plain(v))).collect()),
    }
}

fn typed(t: FieldType<'_>, v: &Json) -> Value {
    let kind = t.kind();
    if kind == Kind::Optional {
        return if v.is_null() { Value::Null } else { typed(t.element().unwrap(), v) };
    }
    match (kind, v) {
        (Kind::Bytes, Json::String(s)) => match base64::engine::general_purpose::STANDARD.decode(s) {
            Ok(b) => Value::Bytes(b),
            Err(_) => Value::Str(s.clone()),
        },
        (Kind::Struct, Json::Object(members)) => {
            let st = t.struct_type().unwrap();
            Value::Struct(
                members
                    .iter()
                    .map(|(name, v)| (name.clone(), st.field(name).map_or_else(|| plain(v), |f| typed(f.field_type(), v))))
                    .collect(),
            )
        }
        (Kind::Array | Kind::Vector | Kind::List | Kind::Set, Json::Array(items)) => {
            let e = t.element().unwrap();
            Value::List(items.iter().map(|x| typed(e, x)).collect())
        }
        (Kind::Map | Kind::Hash, Json::Object(members)) => {
            let (k, e) = (t.key().unwrap(), t.element().unwrap());
            Value::Map(members.iter().map(|(name, x)| (key_of(k, name), typed(e, x))).collect())
        }
        (Kind::Map | Kind::Hash, Json::Array(items)) => {
            let (k, e) = (t.key().unwrap(), t.element().unwrap());
            let pairs: Option<Vec<(Value, Value)>> = items
                .iter()
                .map(|p| match p {
                    Json::Array(kv) if kv.len() == 2 => Some((typed(k, &kv[0]), typed(e, &kv[1]))),
                    _ => None,
                })
                .collect();
            pairs.map_or_else(|| plain(v), Value::Map)
        }
        _ => plain(v),
    }
}

/// A map key from a JSON member name: a number where the key type is a number, a
/// boolean for a bool key, else the text as a value of the key type.
fn key_of(k: FieldType<'_>, name: &str) -> Value {
    let kind = k.kind();
    let integral = !name.is_empty() && name.trim_start_matches('-').chars().all(|c| c.is_ascii_digit()) && name != "-";
    let numeric = matches!(
        kind,
        Kind::Byte | Kind::Char | Kind::Wchar | Kind::Int8 | Kind::Uint8 | Kind::Int16 | Kind::Uint16 | Kind::Int32
            | Kind::Uint32 | Kind::Int64 | Kind::Uint64 | Kind::Float | Kind::Double | Kind::Timestamp
    );
    if let Ok(Json::Number(n)) = serde_json::from_str::<Json>(name) {
        if (integral && (numeric || matches!(kind, Kind::Enum | Kind::Flags)))
            || (!integral && matches!(kind, Kind::Float | Kind::Double))
        {
            return number(&n);
        }
    }
    if kind == Kind::Bool && (name == "true" || name == "false") {
        return Value::Bool(name == "true");
    }
    typed(k, &Json::String(name.to_owned()))
}
