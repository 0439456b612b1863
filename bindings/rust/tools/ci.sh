#!/usr/bin/env bash
# bindings/rust/tools/ci.sh: the Rust binding's stage of the test command (ci/test.sh).
# Builds the workspace, runs clippy (-D warnings) when it is installed, the cargo tests
# (the testee through the shared runner over every conformance file, the API, memory),
# then installs the crate the way a Rust user does, outside the repository: `cargo new`
# + `cargo add --path bindings/rust/fbe`; that consumer encodes the Account and checks
# its bytes against the conformance vector, and the testee built from there runs
# through the runner. One target directory (build/rust): the core is compiled once.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
repo=$(cd "$here/../.." && pwd)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$repo/build/rust}
jobs=-j${FBE_JOBS:-$(nproc 2>/dev/null || echo 2)}
cd "$here"

cargo build --release "$jobs"
if cargo clippy --version >/dev/null 2>&1; then
  cargo clippy --release "$jobs" --all-targets -- -D warnings
else
  echo "rust: clippy is not installed; skipping the lint" >&2
fi
cargo test --release "$jobs"

# a consumer in an empty folder outside the repository
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cargo new --quiet --vcs none consumer
cd consumer
cargo add --quiet --path "$here/fbe"
record=$(grep '"id":"pub-proto-Account-readme-standard"' "$repo/tests/conformance/vectors.jsonl")
cat >src/main.rs <<'RUST'
//! Encodes the conformance vectors' Account and checks the bytes.
use fbe::{Model, Schema};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (schemas, json, want) = (&args[1], &args[2], &args[3]);
    let schema = Schema::load_package("proto", &[schemas])?;
    let account = schema.struct_type("Account")?;
    let bytes = account.from_json(json)?.encode(Model::Standard)?;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    if &hex != want {
        return Err(format!("Account bytes differ:\n got  {hex}\n want {want}").into());
    }
    let back = account.decode(&bytes, Model::Standard)?;
    println!("{back}");
    Ok(())
}
RUST
json=$(python3 -c 'import json,sys; print(json.dumps(json.loads(sys.argv[1])["json"]))' "$record")
want=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["hex"])' "$record")
cargo run --quiet --release "$jobs" -- "$repo/schemas" "$json" "$want"
cargo build --quiet --release "$jobs" -p fbe --bin fbe-testee
python3 "$repo/tests/conformance/runner" --testee "rust=$CARGO_TARGET_DIR/release/fbe-testee" \
  -I "$repo/schemas" --behaviour "$repo/tests/conformance/behaviour.jsonl" \
  "$repo/tests/conformance/vectors.jsonl" | tail -1
