//! The Rust driver of the hostile suite (tests/hostile/README.md): runs ONE operation
//! with the default limits, through the crate's public API, and prints one JSON line,
//! {"result":"ok","detail":...} or {"result":"error","type":the status's class,
//! "status":"FBE_ERR_...","message":the core's text}.
//!
//!   hostile_driver OP SCHEMA TYPE INPUT [final]   (the operations of driver.py)
//!
//! Built by tests/hostile/run.py: `cargo build --release --example hostile_driver` in
//! bindings/rust with the test command's target directory (build/rust). Only the
//! crate's typed error becomes an "error" line: a panic, an abort or a stack overflow
//! ends the process as it would end any program, and the suite sees it as a crash.
//! Operations: decode, verify, reencode, from_json, receive, load, encode_chain,
//! deep_json, deep_eq, deep_repr (no deep_hash: a Message has no std::hash::Hash, and
//! key_hash reads only [key] fields, which Chain has none of).
use std::process::ExitCode;

use fbe::{Model, Receiver, Schema, StructType, Value};

const CHUNK: usize = 65536;

enum Failure {
    Fbe(fbe::Error),
    /// The driver's own check (reencode's bytes), as Python's AssertionError.
    Check(String),
}

impl From<fbe::Error> for Failure {
    fn from(e: fbe::Error) -> Failure {
        Failure::Fbe(e)
    }
}

/// `levels` bodies linked by `next`, built as a host value from the innermost out (no
/// recursion in the driver), then made a message by the crate (`from_value`).
fn build_chain<'s>(ty: &StructType<'s>, levels: usize) -> Result<fbe::Message<'s>, Failure> {
    let mut value = Value::Struct(vec![("v".into(), Value::Int(levels as i64 - 1))]);
    for i in (0..levels.saturating_sub(1)).rev() {
        value = Value::Struct(vec![("v".into(), Value::Int(i as i64)), ("next".into(), value)]);
    }
    Ok(ty.from_value(value)?)
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| {
        eprintln!("hostile_driver: {path}: {e}");
        std::process::exit(2)
    })
}

fn run(op: &str, schema_path: &str, type_name: &str, input: &str, model: Model) -> Result<String, Failure> {
    if op == "load" {
        Schema::load(input)?;
        return Ok("loaded".into());
    }
    let schema = Schema::load(schema_path)?;
    if op == "receive" {
        let data = read(input);
        let mut receiver = Receiver::new(&schema, Some(type_name), model, None)?;
        let mut count = 0usize;
        for chunk in data.chunks(CHUNK) {
            receiver.feed(chunk)?;
            count += receiver.drain().count();
        }
        return Ok(format!("{count} messages, {} bytes pending", receiver.pending()));
    }
    let ty = schema.struct_type(type_name)?;
    match op {
        "encode_chain" | "deep_eq" | "deep_repr" | "deep_json" => {
            let levels: usize = input.parse().expect("INPUT: a number of levels");
            let value = build_chain(&ty, levels)?;
            return Ok(match op {
                "encode_chain" => format!("{} bytes", value.encode(Model::Standard)?.len()),
                "deep_eq" => format!("equal {}", value == build_chain(&ty, levels)?),
                "deep_repr" => format!("{} characters", format!("{value:?}").len()),
                _ => format!("{} characters", value.to_json()?.len()),
            });
        }
        _ => {}
    }
    let data = read(input);
    match op {
        "decode" => {
            ty.decode(&data, model)?;
            Ok("decoded".into())
        }
        "verify" => Ok(format!("model size {}", ty.verify(&data, model)?)),
        "reencode" => {
            let again = ty.decode(&data, model)?.encode(model)?;
            if again != data {
                return Err(Failure::Check(format!(
                    "re-encoding gave other bytes ({}, not {})",
                    again.len(),
                    data.len()
                )));
            }
            Ok(format!("same {} bytes", again.len()))
        }
        "from_json" => {
            let text = String::from_utf8(data).expect("the JSON input is UTF-8");
            ty.from_json(&text)?;
            Ok("read".into())
        }
        _ => {
            eprintln!("hostile_driver: unknown op {op}");
            std::process::exit(2)
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 {
        eprintln!("usage: hostile_driver OP SCHEMA TYPE INPUT [final]");
        return ExitCode::from(2);
    }
    let model = if args.get(5).map(String::as_str) == Some("final") { Model::Final } else { Model::Standard };
    let line = match run(&args[1], &args[2], &args[3], &args[4], model) {
        Ok(detail) => serde_json::json!({"result": "ok", "detail": detail}),
        Err(Failure::Fbe(e)) => serde_json::json!({
            "result": "error",
            "type": e.status().class_name(),
            "status": e.status().name(),
            "message": e.to_string(),
        }),
        Err(Failure::Check(message)) => serde_json::json!({
            "result": "error", "type": "AssertionError", "status": null, "message": message,
        }),
    };
    println!("{line}");
    ExitCode::SUCCESS
}
