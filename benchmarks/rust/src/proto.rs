//! protobuf through prost: the messages of benchmarks/schemas/bench.proto written by
//! hand with `#[derive(prost::Message)]` (the same tags; no protoc needed), and the
//! conversions from and to the workloads' plain structs.
use crate::{Account, Balance, Large, Order, Small};

#[derive(Clone, PartialEq, prost::Message)]
pub struct PBalance {
    #[prost(string, tag = "1")]
    pub currency: String,
    #[prost(double, tag = "2")]
    pub amount: f64,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct POrder {
    #[prost(int32, tag = "1")]
    pub id: i32,
    #[prost(string, tag = "2")]
    pub symbol: String,
    #[prost(int32, tag = "3")]
    pub side: i32,
    #[prost(int32, tag = "4")]
    pub kind: i32,
    #[prost(double, tag = "5")]
    pub price: f64,
    #[prost(double, tag = "6")]
    pub volume: f64,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct PAccount {
    #[prost(int32, tag = "1")]
    pub id: i32,
    #[prost(string, tag = "2")]
    pub name: String,
    #[prost(int32, tag = "3")]
    pub state: i32,
    #[prost(message, optional, tag = "4")]
    pub wallet: Option<PBalance>,
    #[prost(message, optional, tag = "5")]
    pub asset: Option<PBalance>,
    #[prost(message, repeated, tag = "6")]
    pub orders: Vec<POrder>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct PSmall {
    #[prost(string, tag = "1")]
    pub name: String,
    #[prost(bool, tag = "2")]
    pub spouse: bool,
    #[prost(int32, tag = "3")]
    pub siblings: i32,
    #[prost(double, tag = "4")]
    pub money: f64,
    #[prost(int64, tag = "5")]
    pub birthday: i64,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct PLarge {
    #[prost(int64, repeated, tag = "1")]
    pub ids: Vec<i64>,
    #[prost(string, repeated, tag = "2")]
    pub names: Vec<String>,
}

fn balance(b: &Balance) -> PBalance {
    PBalance { currency: b.currency.clone(), amount: b.amount }
}
fn balance_back(b: &PBalance) -> Balance {
    Balance { currency: b.currency.clone(), amount: b.amount }
}

impl From<&Account> for PAccount {
    fn from(a: &Account) -> PAccount {
        PAccount {
            id: a.id,
            name: a.name.clone(),
            state: a.state,
            wallet: Some(balance(&a.wallet)),
            asset: a.asset.as_ref().map(balance),
            orders: a
                .orders
                .iter()
                .map(|o| POrder {
                    id: o.id,
                    symbol: o.symbol.clone(),
                    side: o.side,
                    kind: o.kind,
                    price: o.price,
                    volume: o.volume,
                })
                .collect(),
        }
    }
}

impl From<&PAccount> for Account {
    fn from(a: &PAccount) -> Account {
        Account {
            id: a.id,
            name: a.name.clone(),
            state: a.state,
            wallet: a.wallet.as_ref().map(balance_back).unwrap_or(Balance { currency: String::new(), amount: 0.0 }),
            asset: a.asset.as_ref().map(balance_back),
            orders: a
                .orders
                .iter()
                .map(|o| Order {
                    id: o.id,
                    symbol: o.symbol.clone(),
                    side: o.side,
                    kind: o.kind,
                    price: o.price,
                    volume: o.volume,
                })
                .collect(),
        }
    }
}

impl From<&Small> for PSmall {
    fn from(s: &Small) -> PSmall {
        PSmall { name: s.name.clone(), spouse: s.spouse, siblings: s.siblings, money: s.money, birthday: s.birthday }
    }
}
impl From<&PSmall> for Small {
    fn from(s: &PSmall) -> Small {
        Small { name: s.name.clone(), spouse: s.spouse, siblings: s.siblings, money: s.money, birthday: s.birthday }
    }
}
impl From<&Large> for PLarge {
    fn from(l: &Large) -> PLarge {
        PLarge { ids: l.ids.clone(), names: l.names.clone() }
    }
}
impl From<&PLarge> for Large {
    fn from(l: &PLarge) -> Large {
        Large { ids: l.ids.clone(), names: l.names.clone() }
    }
}
