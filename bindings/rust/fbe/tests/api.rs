//! The safe API: errors in the core's words, the status table, views, memory.
use fbe::{Model, Schema, Status, Value};

fn schemas() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../schemas")
}

fn proto() -> Schema {
    Schema::load_package("proto", &[schemas()]).unwrap()
}

/// The Account of the conformance vectors (pub-proto-Account-readme-standard).
const ACCOUNT_JSON: &str = r#"{"id":1,"name":"Test","state":6,"wallet":{"currency":"USD","amount":1000.0},"asset":{"currency":"EUR","amount":100.0},"orders":[{"id":1,"symbol":"EURUSD","side":0,"type":0,"price":1.23456,"volume":1000.0},{"id":2,"symbol":"EURUSD","side":1,"type":1,"price":1.0,"volume":100.0},{"id":3,"symbol":"EURUSD","side":0,"type":2,"price":1.5,"volume":10.0}]}"#;

fn vector_hex(id: &str) -> String {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../tests/conformance/vectors.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let line = text.lines().find(|l| l.contains(&format!("\"id\":\"{id}\""))).expect("record");
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    v["hex"].as_str().unwrap().to_owned()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn status_table_is_the_cores() {
    for (i, s) in Status::all().iter().enumerate() {
        assert_eq!(s.code(), i as i32 + 1);
        assert!(s.name().starts_with("FBE_ERR_"), "{}", s.name());
        assert_eq!(Status::from_code(s.code()), *s);
    }
    assert_eq!(Status::Malformed.name(), "FBE_ERR_MALFORMED");
    assert_eq!(Status::UnknownField.class_name(), "UnknownFieldError");
    // one past the table: a status this crate does not know
    assert_eq!(fbe::Status::from_code(Status::all().len() as i32 + 1).name(), "FBE_ERR_UNKNOWN");
}

#[test]
fn account_bytes_are_the_vectors() {
    let schema = proto();
    let account = schema.struct_type("Account").unwrap();
    let m = account.from_json(ACCOUNT_JSON).unwrap();
    let bytes = m.encode(Model::Standard).unwrap();
    assert_eq!(hex(&bytes), vector_hex("pub-proto-Account-readme-standard"));
    let back = account.decode(&bytes, Model::Standard).unwrap();
    assert_eq!(back, m);
    assert_eq!(back.get_str("name"), Some("Test"));
    assert_eq!(back.get_i64("id"), Some(1));
    assert!(back.to_string().starts_with("Account(id=1,name=\"Test\""));
    assert_eq!(account.verify(&bytes, Model::Standard).unwrap(), bytes.len());
}

#[test]
fn set_takes_host_values_and_refuses_in_the_cores_words() {
    let schema = proto();
    let order = schema.struct_type("Order").unwrap();
    let mut m = order.new_message().unwrap();
    m.set("id", 7).unwrap();
    m.set("symbol", "EURUSD").unwrap();
    m.set("side", "sell").unwrap();
    m.set("price", 1.5).unwrap();
    assert_eq!(m.get("side").unwrap(), Value::UInt(1));
    let e = m.set("id", "seven").unwrap_err();
    assert_eq!(e.status(), Status::Type);
    assert_eq!(e.path(), "id");
    assert!(e.to_string().contains("got a string"), "{e}");
    let e = m.set("symbl", "x").unwrap_err();
    assert_eq!(e.status(), Status::UnknownField);
    assert!(e.to_string().contains("did you mean 'symbol'"), "{e}");
    let e = m.set("side", "sideways").unwrap_err();
    assert_eq!(e.status(), Status::Argument);
    let e = m.set("id", Value::Wide(1 << 70)).unwrap_err();
    assert_eq!(e.status(), Status::Range);
    let e = order.from_json(r#"{"id":"x"}"#).unwrap_err();
    assert_eq!(e.status(), Status::Type);
    assert_eq!(schema.struct_type("Ordr").unwrap_err().status(), Status::NotFound);
}

#[test]
fn bad_bytes_are_refused_with_offset() {
    let schema = proto();
    let order = schema.struct_type("Order").unwrap();
    let e = order.decode(&[0x28, 0], Model::Final).unwrap_err();
    assert_eq!(e.status(), Status::Malformed);
    assert_eq!(e.offset(), Some(0));
    assert_eq!(e.to_string(), "2 bytes are too few for a final model (8 at least) (offset 0)");
    assert!(order.view(&[0x28, 0], Model::Final).is_err());
    assert!(!order.is_valid(&[0x28, 0], Model::Final));
    assert_eq!(Schema::load_str("package x\nstruct {", "x.fbe").unwrap_err().status(), Status::Schema);
}

#[test]
fn views_borrow_the_buffer() {
    let schema = proto();
    let account = schema.struct_type("Account").unwrap();
    let bytes = account.from_json(ACCOUNT_JSON).unwrap().encode(Model::Final).unwrap();
    let view = account.view(&bytes, Model::Final).unwrap();
    let name: &str = view.field("name").unwrap().get_str().unwrap();
    assert_eq!(name, "Test");
    let orders = view.field("orders").unwrap();
    assert_eq!(orders.len(), 3);
    let ids: Vec<i64> = orders.iter().map(|o| o.field("id").unwrap().get_i64().unwrap()).collect();
    assert_eq!(ids, [1, 2, 3]);
    assert_eq!(view.field("nope").unwrap_err().status(), Status::UnknownField);
    assert_eq!(view.to_message().unwrap(), account.decode(&bytes, Model::Final).unwrap());
    assert_eq!(view.to_string(), account.decode(&bytes, Model::Final).unwrap().to_string());
}

#[test]
fn schema_is_shared_between_threads() {
    let schema = proto();
    let bytes = schema.struct_type("Account").unwrap().from_json(ACCOUNT_JSON).unwrap().encode(Model::Standard).unwrap();
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                let account = schema.struct_type("Account").unwrap();
                for _ in 0..1000 {
                    assert_eq!(account.decode(&bytes, Model::Standard).unwrap().get_i64("id"), Some(1));
                }
            });
        }
    });
}

#[test]
fn sender_and_receiver_over_io() {
    let schema = proto();
    let msg = schema.struct_type("OrderMessage").unwrap().from_json(r#"{"body":{"id":5,"symbol":"X"}}"#).unwrap();
    let mut sender = fbe::Sender::new(&schema, None, Model::Standard, Vec::new()).unwrap();
    sender.send(&msg).unwrap();
    sender.send(&msg).unwrap();
    let wire = sender.get_ref().clone();
    let mut receiver = fbe::Receiver::new(&schema, None, Model::Standard, None).unwrap();
    receiver.read_from(&mut &wire[..]).unwrap();
    let got: Vec<_> = receiver.drain().collect();
    assert_eq!(got.len(), 2);
    assert_eq!(got[0], msg);
    assert_eq!(receiver.pending(), 0);
    let e = receiver.feed(&[5, 0, 0, 0, 1]).unwrap_err();
    assert_eq!(e.status(), Status::Malformed);
}

#[test]
fn encode_to_reuses_one_buffer() {
    let schema = proto();
    let account = schema.struct_type("Account").unwrap();
    let want = vector_hex("pub-proto-Account-readme-standard");
    let record = account.decode(&hex_bytes(&want), Model::Standard).unwrap();
    let mut out = fbe::EncodeBuffer::new();
    for _ in 0..3 {
        assert_eq!(hex(record.encode_to(Model::Standard, &mut out).unwrap()), want);
    }
    let final_bytes = record.encode(Model::Final).unwrap();
    assert_eq!(record.encode_to(Model::Final, &mut out).unwrap(), &final_bytes[..]);
    out.clear();
    assert!(out.is_empty());
}

fn hex_bytes(h: &str) -> Vec<u8> {
    (0..h.len()).step_by(2).map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap()).collect()
}

/// `levels` Chain bodies linked by `next`, as a host value built from the innermost out.
fn chain_value(levels: usize) -> Value {
    let mut value = Value::Struct(vec![("v".into(), Value::Int(levels as i64 - 1))]);
    for i in (0..levels - 1).rev() {
        value = Value::Struct(vec![("v".into(), Value::Int(i as i64)), ("next".into(), value)]);
    }
    value
}

/// A host value nested past the core's 256 levels is refused with the core's error
/// when it is converted, before the conversion's recursion (or the value's drop glue)
/// can overflow the stack: 60,000 levels used to abort the process (the hostile suite,
/// deep60000_*). Run on a test thread's 2 MiB stack.
#[test]
fn values_nested_too_deep_are_refused_not_a_stack_overflow() {
    let schema = Schema::load_str("package p\nstruct Chain { int32 v; Chain? next; }", "p.fbe").unwrap();
    let chain = schema.struct_type("Chain").unwrap();
    let ok = chain.from_value(chain_value(257)).unwrap();
    assert_eq!(chain.decode(&ok.encode(Model::Standard).unwrap(), Model::Standard).unwrap(), ok);
    for levels in [258, 60_000] {
        let e = chain.from_value(chain_value(levels)).unwrap_err();
        assert_eq!(e.status(), Status::Limit);
        assert!(e.to_string().contains("value nested deeper than 256 levels"), "{e}");
        let mut m = chain.new_message().unwrap();
        let e = m.set("next", chain_value(levels)).unwrap_err();
        assert_eq!(e.status(), Status::Limit, "{e}");
    }
    // collections count as the core counts them; a refused field's siblings (deep
    // themselves) are dropped without recursion too
    let lists = Schema::load_str("package q\nstruct L { int32[] a; int32 b; }", "q.fbe").unwrap();
    let l = lists.struct_type("L").unwrap();
    let mut deep = Value::List(vec![]);
    for _ in 0..60_000 {
        deep = Value::List(vec![deep]);
    }
    let e = l.from_value(Value::Struct(vec![("a".into(), Value::Int(1)), ("b".into(), deep)])).unwrap_err();
    assert_eq!(e.status(), Status::Type, "{e}");
}
