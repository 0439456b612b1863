//! criterion: account, small and large (benchmarks/data/) through libfbe (messages and
//! views, both models) and prost, bincode, rmp-serde and flatbuffers. Ids are
//! WORKLOAD/OP/IMPL/MODEL; run.sh reads criterion's estimates into results/rust.md.
//! Every implementation must round-trip the data before anything is timed, and its
//! encoded size goes to the file FBE_BENCH_SIZES names (one JSON object a line).
use std::hint::black_box;
use std::io::Write;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use fbe::{Message, View};
use fbe_benchmarks::{flat, libfbe, proto, serde_formats as sf, Account, Large, Small};
use flatbuffers::FlatBufferBuilder;
use serde::{de::DeserializeOwned, Serialize};

struct Workload<T, P> {
    name: &'static str,
    flat_encode: fn(&mut FlatBufferBuilder<'static>, &T),
    flat_read: fn(&[u8]) -> T,
    flat_one: fn(&[u8]) -> u64,
    fbe_of: fn(&Message) -> T,
    fbe_in: fn(&View) -> T,
    _proto: std::marker::PhantomData<P>,
}

fn sizes_line(workload: &str, imp: &str, model: &str, size: usize) {
    if let Ok(path) = std::env::var("FBE_BENCH_SIZES") {
        let mut f = std::fs::OpenOptions::new().create(true).append(true).open(path).unwrap();
        writeln!(f, r#"{{"workload":"{workload}","impl":"{imp}","model":"{model}","size":{size}}}"#).unwrap();
    }
}

fn run<T, P>(c: &mut Criterion, w: Workload<T, P>)
where
    T: PartialEq + std::fmt::Debug + Serialize + DeserializeOwned,
    P: prost::Message + Default + for<'a> From<&'a T>,
    T: for<'a> From<&'a P>,
{
    let data: T = fbe_benchmarks::data(w.name);
    let schema = libfbe::schema(w.name);
    let ty = schema.struct_type(libfbe::struct_name(w.name)).unwrap();
    let msg = libfbe::message(&ty, w.name);
    let pmsg = P::from(&data);
    let mut fbb = FlatBufferBuilder::with_capacity(1024);

    // every implementation round-trips the data (and its size is recorded) first
    let mut buf = Vec::new();
    for (model, mname) in libfbe::MODELS {
        let bytes = msg.encode(model).unwrap();
        assert_eq!((w.fbe_of)(&ty.decode(&bytes, model).unwrap()), data, "libfbe {mname}");
        assert_eq!((w.fbe_in)(&ty.view(&bytes, model).unwrap()), data, "libfbe-view {mname}");
        sizes_line(w.name, "libfbe", mname, bytes.len());
        sizes_line(w.name, "libfbe-view", mname, bytes.len());
    }
    let pbytes = pmsg.encode_to_vec();
    assert_eq!(T::from(&P::decode(&pbytes[..]).unwrap()), data, "prost");
    sizes_line(w.name, "prost", "", pbytes.len());
    sf::bincode_encode(&data, &mut buf);
    assert_eq!(sf::bincode_decode::<T>(&buf), data, "bincode");
    sizes_line(w.name, "bincode", "", buf.len());
    sf::rmp_encode(&data, &mut buf);
    assert_eq!(sf::rmp_decode::<T>(&buf), data, "rmp-serde");
    sizes_line(w.name, "rmp-serde", "", buf.len());
    (w.flat_encode)(&mut fbb, &data);
    let fbytes = fbb.finished_data().to_vec();
    assert_eq!((w.flat_read)(&fbytes), data, "flatbuffers");
    sizes_line(w.name, "flatbuffers", "", fbytes.len());

    let mut g = c.benchmark_group(w.name);
    g.throughput(Throughput::Elements(1));
    let name = w.name;

    // encode: from each one's in-memory value into a reused buffer
    for (model, mname) in libfbe::MODELS {
        let mut out = fbe::EncodeBuffer::new();
        g.bench_function(format!("encode/libfbe/{mname}"), |b| b.iter(|| black_box(msg.encode_to(model, &mut out).unwrap().len())));
    }
    let mut out = Vec::new();
    g.bench_function("encode/prost/", |b| {
        b.iter(|| {
            out.clear();
            pmsg.encode(&mut out).unwrap();
            black_box(out.len())
        })
    });
    g.bench_function("encode/bincode/", |b| {
        b.iter(|| {
            sf::bincode_encode(&data, &mut out);
            black_box(out.len())
        })
    });
    g.bench_function("encode/rmp-serde/", |b| {
        b.iter(|| {
            sf::rmp_encode(&data, &mut out);
            black_box(out.len())
        })
    });
    g.bench_function("encode/flatbuffers/", |b| {
        b.iter(|| {
            (w.flat_encode)(&mut fbb, &data);
            black_box(fbb.finished_data().len())
        })
    });

    // decode (verified) and decode_all (decode, then every field read into the struct)
    for (model, mname) in libfbe::MODELS {
        let bytes = msg.encode(model).unwrap();
        g.bench_function(format!("decode/libfbe/{mname}"), |b| b.iter(|| black_box(ty.decode(black_box(&bytes), model).unwrap())));
        g.bench_function(format!("decode_trusted/libfbe/{mname}"), |b| {
            b.iter(|| black_box(ty.decode_trusted(black_box(&bytes), model).unwrap()))
        });
        g.bench_function(format!("decode_all/libfbe/{mname}"), |b| {
            b.iter(|| black_box((w.fbe_of)(&ty.decode(black_box(&bytes), model).unwrap())))
        });
        g.bench_function(format!("decode/libfbe-view/{mname}"), |b| {
            b.iter(|| black_box(libfbe::one_field(name, &ty.view(black_box(&bytes), model).unwrap())))
        });
        g.bench_function(format!("decode_all/libfbe-view/{mname}"), |b| {
            b.iter(|| black_box((w.fbe_in)(&ty.view(black_box(&bytes), model).unwrap())))
        });
    }
    g.bench_function("decode/prost/", |b| b.iter(|| black_box(P::decode(black_box(&pbytes[..])).unwrap())));
    g.bench_function("decode_all/prost/", |b| b.iter(|| black_box(T::from(&P::decode(black_box(&pbytes[..])).unwrap()))));
    let bbytes = bincode::serialize(&data).unwrap();
    g.bench_function("decode/bincode/", |b| b.iter(|| black_box(sf::bincode_decode::<T>(black_box(&bbytes)))));
    g.bench_function("decode_all/bincode/", |b| b.iter(|| black_box(sf::bincode_decode::<T>(black_box(&bbytes)))));
    let mut rbytes = Vec::new();
    sf::rmp_encode(&data, &mut rbytes);
    g.bench_function("decode/rmp-serde/", |b| b.iter(|| black_box(sf::rmp_decode::<T>(black_box(&rbytes)))));
    g.bench_function("decode_all/rmp-serde/", |b| b.iter(|| black_box(sf::rmp_decode::<T>(black_box(&rbytes)))));
    g.bench_function("decode/flatbuffers/", |b| b.iter(|| black_box((w.flat_one)(black_box(&fbytes)))));
    g.bench_function("decode_all/flatbuffers/", |b| b.iter(|| black_box((w.flat_read)(black_box(&fbytes)))));
    g.finish();
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(600))
        .sample_size(20)
        .configure_from_args();
    run::<Account, proto::PAccount>(
        &mut c,
        Workload {
            name: "account",
            flat_encode: flat::encode_account,
            flat_read: |b| flat::read_account(flatbuffers::root::<flat::fb::Account>(b).unwrap()),
            flat_one: |b| flatbuffers::root::<flat::fb::Account>(b).unwrap().id() as u64,
            fbe_of: libfbe::account_of,
            fbe_in: libfbe::account_in,
            _proto: Default::default(),
        },
    );
    run::<Small, proto::PSmall>(
        &mut c,
        Workload {
            name: "small",
            flat_encode: flat::encode_small,
            flat_read: |b| flat::read_small(flatbuffers::root::<flat::fb::Small>(b).unwrap()),
            flat_one: |b| flatbuffers::root::<flat::fb::Small>(b).unwrap().name().map_or(0, str::len) as u64,
            fbe_of: libfbe::small_of,
            fbe_in: libfbe::small_in,
            _proto: Default::default(),
        },
    );
    run::<Large, proto::PLarge>(
        &mut c,
        Workload {
            name: "large",
            flat_encode: flat::encode_large,
            flat_read: |b| flat::read_large(flatbuffers::root::<flat::fb::Large>(b).unwrap()),
            flat_one: |b| flatbuffers::root::<flat::fb::Large>(b).unwrap().ids().map_or(0, |v| v.len()) as u64,
            fbe_of: libfbe::large_of,
            fbe_in: libfbe::large_in,
            _proto: Default::default(),
        },
    );
    c.final_summary();
}
