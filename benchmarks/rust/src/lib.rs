//! The three workloads (benchmarks/README.md) in every implementation's form, and for
//! each one the three operations the bench times: encode (from the implementation's
//! natural in-memory value into a reused buffer), decode (bytes to a usable value,
//! verified where the format verifies) and decode_all (decode, then every field read
//! once into Rust's owned values: the workload's plain struct). `check` proves every
//! implementation round-trips the data before anything is timed.
use serde::{Deserialize, Serialize};

pub mod flat;
pub mod libfbe;
pub mod proto;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Balance {
    pub currency: String,
    pub amount: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Order {
    pub id: i32,
    pub symbol: String,
    pub side: i32,
    #[serde(rename = "type")]
    pub kind: i32,
    pub price: f64,
    pub volume: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Account {
    pub id: i32,
    pub name: String,
    pub state: i32,
    pub wallet: Balance,
    pub asset: Option<Balance>,
    pub orders: Vec<Order>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Small {
    pub name: String,
    pub spouse: bool,
    pub siblings: i32,
    pub money: f64,
    pub birthday: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Large {
    pub ids: Vec<i64>,
    pub names: Vec<String>,
}

/// The repository's root (benchmarks/rust/../..).
pub fn repo() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A workload's data file, as text (benchmarks/data/NAME.json).
pub fn data_text(workload: &str) -> String {
    let path = repo().join("benchmarks/data").join(format!("{workload}.json"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn data<T: for<'de> Deserialize<'de>>(workload: &str) -> T {
    serde_json::from_str(&data_text(workload)).unwrap_or_else(|e| panic!("{workload}.json: {e}"))
}

/// The serde formats: bincode (its default, fixed-width integers) and rmp-serde
/// (MessagePack maps keyed by field name, the schema-less form users send).
pub mod serde_formats {
    use serde::{de::DeserializeOwned, Serialize};

    pub fn bincode_encode<T: Serialize>(v: &T, out: &mut Vec<u8>) {
        out.clear();
        bincode::serialize_into(&mut *out, v).unwrap();
    }
    pub fn bincode_decode<T: DeserializeOwned>(b: &[u8]) -> T {
        bincode::deserialize(b).unwrap()
    }
    pub fn rmp_encode<T: Serialize>(v: &T, out: &mut Vec<u8>) {
        out.clear();
        v.serialize(&mut rmp_serde::Serializer::new(&mut *out).with_struct_map()).unwrap();
    }
    pub fn rmp_decode<T: DeserializeOwned>(b: &[u8]) -> T {
        rmp_serde::from_slice(b).unwrap()
    }
}
