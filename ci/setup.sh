#!/usr/bin/env bash
# Installs every dependency libfbe's build, tests, demo and benchmark need on a fresh
# Debian 12 machine. Idempotent: when every package is already installed it does
# nothing (no apt-get update), so repeated runs take a fraction of a second.
# Runs as root, or through sudo otherwise.
set -euo pipefail

# Debian packages, one per line. A new binding adds its own line here.
packages=(
  build-essential   # gcc, make, libc headers; gcc's AddressSanitizer/UBSan runtimes
  cmake
  pkg-config
  libcmocka-dev     # C unit tests
  clang
  libclang-rt-14-dev  # clang's sanitizer and libFuzzer runtimes (only recommended by clang)
  valgrind
  python3           # demo's JSON comparison, conformance tooling
  python3-venv      # the Python binding's test venvs (ci/test.sh "python" stage)
  python3-dev       # Python.h for building the fbe extension (pip install ./bindings/python)
  swig              # the Ruby and Java wrappers (the Python package takes SWIG from PyPI)
  ruby-dev          # Ruby, its headers, rubygems and minitest (bindings/ruby)
  ruby-msgpack      # a peer in benchmarks/ruby
  openjdk-17-jdk-headless  # the Java binding (bindings/java): javac, jni.h
  maven             # builds bindings/java; its plugins and libraries come from Maven Central
  libgtest-dev      # the C++ API's unit tests (bindings/cpp/tests, find_package(GTest))
  # the peers of ci/bench.sh (benchmarks/peers-c), with their schema compilers
  libprotobuf-c-dev protobuf-c-compiler libmsgpack-dev libavro-dev
  libflatbuffers-dev flatbuffers-compiler libcapnp-dev capnproto libprotobuf-dev protobuf-compiler
  # ci/cross.sh: big-endian 64-bit (s390x) and 32-bit (i386) builds run under qemu-user;
  # the target's libc and cmocka come from Debian multiarch (foreign_archs below)
  gcc-s390x-linux-gnu libc6-dev-s390x-cross libcmocka-dev:s390x
  gcc-i686-linux-gnu libc6-dev-i386-cross libcmocka-dev:i386
  # ci/cross.sh, ci/dist_cross.sh: linux-aarch64 under qemu-user (+ the arm64 libpython:
  # pyconfig.h for the cross-built wheel, and the interpreter its smoke test runs) and
  # 64-bit Windows (mingw-w64, run under wine; unzip opens the Windows zip)
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross libcmocka-dev:arm64 libpython3.11-dev:arm64
  gcc-mingw-w64-x86-64-win32 wine wine64 unzip
  qemu-user
  # the JavaScript package's WebAssembly build (bindings/node/scripts/build-wasm.js: clang
  # --target=wasm32-wasi) and its test in a headless browser (tests/browser, playwright-core)
  lld wasi-libc libclang-rt-14-dev-wasm32 chromium
)
foreign_archs=(s390x i386 arm64) # for the :ARCH packages above

# Node.js and npm for the JavaScript binding (bindings/node, ci/test.sh "node" stage):
# Debian's when no node is installed (an existing install, e.g. NodeSource's, which
# brings its npm and headers, is kept); libnode-dev has the Node headers the addon
# builds against (node-gyp, python3 and build-essential above do the build). npm
# packages come from the npm registry in the node stage (npm ci).
if ! command -v node >/dev/null 2>&1; then
  packages+=(nodejs npm libnode-dev)
fi

# Go for the Go binding (bindings/go, ci/test.sh "go" stage; go.mod asks for 1.19, which
# Debian 12's golang-go is): Debian's when no go is installed (a newer one from go.dev is
# kept). Modules (the benchmark's peers) come from the Go module proxy.
if ! command -v go >/dev/null 2>&1; then
  packages+=(golang-go)
fi

# Rust for bindings/rust and benchmarks/rust (ci/test.sh "rust" stage): a toolchain of
# Rust >= 1.74 with cargo and clippy, which Debian 12 does not package (its rustc is
# 1.63): kept as installed (rustup's), and named here when it is missing or too old.
# The crates come from crates.io in the stage (cargo); flatc (above) for the benchmark.
rust_minor=$(rustc --version 2>/dev/null | sed -nE 's/^rustc 1\.([0-9]+).*/\1/p' || true)
if [[ -z $rust_minor ]] || ((rust_minor < 74)); then
  echo "setup: Rust >= 1.74 with cargo and clippy is needed for bindings/rust (rustup: the stable toolchain)" >&2
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "setup: not a Debian-based system; install these yourself: ${packages[*]}" >&2
  exit 0
fi

missing=()
for pkg in "${packages[@]}"; do
  # The native architecture's package (other architectures may be installed too).
  if [[ $(dpkg-query -W -f='${Status}' "$pkg:$(dpkg --print-architecture)" 2>/dev/null ||
          dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null) != "install ok installed" ]]; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "setup: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
  sudo=(sudo)
fi

echo "setup: installing ${missing[*]}"
for arch in "${foreign_archs[@]}"; do
  dpkg --print-foreign-architectures | grep -x "$arch" >/dev/null || "${sudo[@]}" dpkg --add-architecture "$arch"
done
log=$(mktemp)
trap 'rm -f "$log"' EXIT
export DEBIAN_FRONTEND=noninteractive
# A mirror caught mid-sync fails `apt-get update` for one index now and then: try again,
# then go on with the indexes that did load (the install says whether they were enough).
update() {
  local try
  for try in 1 2; do
    "${sudo[@]}" apt-get update -q && return 0
    sleep 3
  done
  echo "setup: apt-get update kept failing; trying the install anyway"
}
if ! { update && "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  echo "setup: apt-get failed; its output:" >&2
  cat "$log" >&2
  exit 1
fi
echo "setup: done"
