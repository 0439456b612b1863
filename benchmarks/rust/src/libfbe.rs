//! libfbe's Rust binding: the workloads' schemas loaded at run time, a `fbe::Message`
//! as the in-memory value (encode: `encode_into` a reused buffer; decode: verified,
//! `StructType::decode`), and `fbe::View` (decode: open, which verifies, and read one
//! field; decode_all: open and read every field). read_* read every field of a message
//! or a view into the plain struct.
use fbe::{Message, Model, Schema, StructType, Value, View};

use crate::{Account, Balance, Large, Order, Small};

/// A workload's schema: account (schemas/proto.fbe), small and large (schemas/bench/).
pub fn schema(workload: &str) -> Schema {
    let repo = crate::repo();
    let schemas = repo.join("schemas");
    let path = match workload {
        "account" => schemas.join("proto.fbe"),
        other => schemas.join("bench").join(format!("{other}.fbe")),
    };
    Schema::load_with(&path, &[&schemas]).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn struct_name(workload: &str) -> &'static str {
    match workload {
        "account" => "Account",
        "small" => "Small",
        _ => "Large",
    }
}

/// The data as a message (the core's JSON reader).
pub fn message<'s>(ty: &StructType<'s>, workload: &str) -> Message<'s> {
    ty.from_json(&crate::data_text(workload)).unwrap()
}

// ---- from a decoded message (its fields as fbe::Value) ----

fn member<'v>(fields: &'v [(String, Value)], name: &str) -> &'v Value {
    &fields.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no field {name}")).1
}
fn int(v: &Value) -> i64 {
    v.as_i64().unwrap_or_else(|| panic!("not an integer: {v:?}"))
}
fn text(v: &Value) -> String {
    v.as_str().unwrap().to_owned()
}
fn fields(v: &Value) -> &[(String, Value)] {
    match v {
        Value::Struct(f) => f,
        other => panic!("not a struct: {other:?}"),
    }
}
fn items(v: &Value) -> &[Value] {
    match v {
        Value::List(l) => l,
        other => panic!("not a list: {other:?}"),
    }
}
fn balance(v: &Value) -> Balance {
    let f = fields(v);
    Balance { currency: text(member(f, "currency")), amount: member(f, "amount").as_f64().unwrap() }
}

pub fn account_of(m: &Message) -> Account {
    let v = m.to_value();
    let f = fields(&v);
    let asset = member(f, "asset");
    Account {
        id: int(member(f, "id")) as i32,
        name: text(member(f, "name")),
        state: int(member(f, "state")) as i32,
        wallet: balance(member(f, "wallet")),
        asset: (!asset.is_null()).then(|| balance(asset)),
        orders: items(member(f, "orders"))
            .iter()
            .map(|o| {
                let f = fields(o);
                Order {
                    id: int(member(f, "id")) as i32,
                    symbol: text(member(f, "symbol")),
                    side: int(member(f, "side")) as i32,
                    kind: int(member(f, "type")) as i32,
                    price: member(f, "price").as_f64().unwrap(),
                    volume: member(f, "volume").as_f64().unwrap(),
                }
            })
            .collect(),
    }
}

pub fn small_of(m: &Message) -> Small {
    Small {
        name: m.get_str("name").unwrap().to_owned(),
        spouse: m.get_bool("spouse").unwrap(),
        siblings: m.get_i64("siblings").unwrap() as i32,
        money: m.get_f64("money").unwrap(),
        birthday: m.get_i64("birthday").unwrap(),
    }
}

pub fn large_of(m: &Message) -> Large {
    let v = m.to_value();
    let f = fields(&v);
    Large {
        ids: items(member(f, "ids")).iter().map(int).collect(),
        names: items(member(f, "names")).iter().map(text).collect(),
    }
}

// ---- from a view (read in place) ----

fn vbalance(v: View) -> Balance {
    Balance {
        currency: v.field("currency").unwrap().get_str().unwrap().to_owned(),
        amount: v.field("amount").unwrap().get_f64().unwrap(),
    }
}

pub fn account_in(v: &View) -> Account {
    let f = |name: &str| v.field(name).unwrap();
    Account {
        id: f("id").get_i64().unwrap() as i32,
        name: f("name").get_str().unwrap().to_owned(),
        state: f("state").get_i64().unwrap() as i32,
        wallet: vbalance(f("wallet")),
        asset: f("asset").value().map(vbalance),
        orders: f("orders")
            .iter()
            .map(|o| {
                let g = |name: &str| o.field(name).unwrap();
                Order {
                    id: g("id").get_i64().unwrap() as i32,
                    symbol: g("symbol").get_str().unwrap().to_owned(),
                    side: g("side").get_i64().unwrap() as i32,
                    kind: g("type").get_i64().unwrap() as i32,
                    price: g("price").get_f64().unwrap(),
                    volume: g("volume").get_f64().unwrap(),
                }
            })
            .collect(),
    }
}

pub fn small_in(v: &View) -> Small {
    let f = |name: &str| v.field(name).unwrap();
    Small {
        name: f("name").get_str().unwrap().to_owned(),
        spouse: f("spouse").get_bool().unwrap(),
        siblings: f("siblings").get_i64().unwrap() as i32,
        money: f("money").get_f64().unwrap(),
        birthday: f("birthday").get_i64().unwrap(),
    }
}

pub fn large_in(v: &View) -> Large {
    Large {
        ids: v.field("ids").unwrap().iter().map(|x| x.get_i64().unwrap()).collect(),
        names: v.field("names").unwrap().iter().map(|x| x.get_str().unwrap().to_owned()).collect(),
    }
}

/// The one field a view's (and FlatBuffers') decode reads: account `id`, small `name`
/// (its length), large the count of `ids`.
pub fn one_field(workload: &str, v: &View) -> u64 {
    match workload {
        "account" => v.field("id").unwrap().get_i64().unwrap() as u64,
        "small" => v.field("name").unwrap().get_str().unwrap().len() as u64,
        _ => v.field("ids").unwrap().len() as u64,
    }
}

pub const MODELS: [(Model, &str); 2] = [(Model::Standard, "standard"), (Model::Final, "final")];
