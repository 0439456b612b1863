//! Generates the FlatBuffers Rust code from benchmarks/schemas/bench.fbs with flatc
//! (Debian's flatbuffers-compiler) into OUT_DIR: no generated third-party code in the tree.
use std::path::PathBuf;
use std::process::Command;

fn main() {
    let fbs = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("../schemas/bench.fbs");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let status = Command::new("flatc")
        .args(["--rust", "-o"])
        .arg(&out)
        .arg(&fbs)
        .status()
        .expect("flatc (Debian: flatbuffers-compiler) runs");
    assert!(status.success(), "flatc --rust {} failed", fbs.display());
    println!("cargo:rerun-if-changed={}", fbs.display());
}
