//! FlatBuffers: the code flatc writes from benchmarks/schemas/bench.fbs (build.rs, into
//! OUT_DIR). Encode builds the message from the plain struct (a builder is the only
//! writable form) in a reused builder (`finished_data()` is the bytes); decode verifies the buffer (`flatbuffers::root`)
//! and reads one field, as a view does; read_* reads every field into the plain struct.
#![allow(clippy::all, unused_imports, dead_code, non_snake_case, unsafe_op_in_unsafe_fn, mismatched_lifetime_syntaxes)]
include!(concat!(env!("OUT_DIR"), "/bench_generated.rs"));

use crate::{Account, Balance, Large, Order, Small};
use flatbuffers::FlatBufferBuilder;
pub use fbebench as fb;

fn balance<'a>(b: &mut FlatBufferBuilder<'a>, v: &Balance) -> flatbuffers::WIPOffset<fb::Balance<'a>> {
    let currency = b.create_string(&v.currency);
    fb::Balance::create(b, &fb::BalanceArgs { currency: Some(currency), amount: v.amount })
}

pub fn encode_account(b: &mut FlatBufferBuilder<'static>, a: &Account) {
    b.reset();
    let orders: Vec<_> = a
        .orders
        .iter()
        .map(|o| {
            let symbol = b.create_string(&o.symbol);
            fb::Order::create(
                b,
                &fb::OrderArgs { id: o.id, symbol: Some(symbol), side: o.side, type_: o.kind, price: o.price, volume: o.volume },
            )
        })
        .collect();
    let orders = b.create_vector(&orders);
    let name = b.create_string(&a.name);
    let wallet = balance(b, &a.wallet);
    let asset = a.asset.as_ref().map(|x| balance(b, x));
    let root = fb::Account::create(
        b,
        &fb::AccountArgs { id: a.id, name: Some(name), state: a.state, wallet: Some(wallet), asset, orders: Some(orders) },
    );
    b.finish_minimal(root);
}

pub fn encode_small(b: &mut FlatBufferBuilder<'static>, s: &Small) {
    b.reset();
    let name = b.create_string(&s.name);
    let root = fb::Small::create(
        b,
        &fb::SmallArgs { name: Some(name), spouse: s.spouse, siblings: s.siblings, money: s.money, birthday: s.birthday },
    );
    b.finish_minimal(root);
}

pub fn encode_large(b: &mut FlatBufferBuilder<'static>, l: &Large) {
    b.reset();
    let names: Vec<_> = l.names.iter().map(|n| b.create_string(n)).collect();
    let names = b.create_vector(&names);
    let ids = b.create_vector(&l.ids);
    let root = fb::Large::create(b, &fb::LargeArgs { ids: Some(ids), names: Some(names) });
    b.finish_minimal(root);
}

fn balance_back(b: fb::Balance) -> Balance {
    Balance { currency: b.currency().unwrap_or("").to_owned(), amount: b.amount() }
}

pub fn read_account(a: fb::Account) -> Account {
    Account {
        id: a.id(),
        name: a.name().unwrap_or("").to_owned(),
        state: a.state(),
        wallet: a.wallet().map(balance_back).unwrap_or(Balance { currency: String::new(), amount: 0.0 }),
        asset: a.asset().map(balance_back),
        orders: a
            .orders()
            .map(|v| {
                v.iter()
                    .map(|o| Order {
                        id: o.id(),
                        symbol: o.symbol().unwrap_or("").to_owned(),
                        side: o.side(),
                        kind: o.type_(),
                        price: o.price(),
                        volume: o.volume(),
                    })
                    .collect()
            })
            .unwrap_or_default(),
    }
}

pub fn read_small(s: fb::Small) -> Small {
    Small {
        name: s.name().unwrap_or("").to_owned(),
        spouse: s.spouse(),
        siblings: s.siblings(),
        money: s.money(),
        birthday: s.birthday(),
    }
}

pub fn read_large(l: fb::Large) -> Large {
    Large {
        ids: l.ids().map(|v| v.iter().collect()).unwrap_or_default(),
        names: l.names().map(|v| v.iter().map(str::to_owned).collect()).unwrap_or_default(),
    }
}
