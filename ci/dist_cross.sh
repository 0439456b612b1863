#!/usr/bin/env bash
# The cross-built artifacts of ci/dist.sh (which calls this after its linux-x86_64 ones),
# each checked where it runs: under wine (Windows) or qemu-user (linux-aarch64).
#   Windows (mingw-w64, cmake/toolchains/x86_64-w64-mingw32.cmake):
#     libfbe-V-Windows-x86_64.zip  bin/fbe.exe, bin/libfbe.dll, lib/libfbe.dll.a (import
#       library), lib/libfbe.a, include/fbe/, lib/cmake/fbe/, lib/pkgconfig/ (CPack ZIP)
#       -> the extracted bin/fbe.exe runs fbe conformance under wine, and a consumer built
#          against the extracted tree's import library runs against its DLL.
#   linux-aarch64 (cmake/toolchains/aarch64-linux-gnu.cmake):
#     libfbe-V-Linux-aarch64.tar.gz  (CPack TGZ)  -> bin/fbe conformance under qemu
#     fbe-V-cp3XX-cp3XX-linux_aarch64.whl  built from the sdist as the x86_64 wheel is,
#       cross-compiled (CPython's headers are the host's; Debian's pyconfig.h picks the
#       arm64 one of libpython3.11-dev:arm64)  -> the testee through the runner on an arm64 CPython
#       under qemu (libpython3.11:arm64 with a five-line main(); Debian cannot co-install
#       the arm64 python3 binary)
#     the npm tarball gains prebuilds/linux-arm64/fbe.napi.node (binding.gyp's sources,
#       compiled with the cross compiler against the Node-API headers)
#     the jar gains native/linux-aarch64/libfbejni.so (bindings/java/native, cross)
#       -> both dlopen()ed under qemu by an arm64 C program that finds their entry points
#          (napi_register_module_v1; JNI_OnLoad and the SWIG entry points): no arm64 node
#          or JVM can be co-installed on Debian (nodejs, openjdk are not Multi-Arch).
# Needs ci/setup.sh's cross packages; wine's prefix is ci/cross.sh's (build/wine).
#   ci/dist_cross.sh DIST_DIR WORK_DIR
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$PWD
dist=${1:-$repo/dist}
work=${2:-$repo/build/dist}/cross
version=$(bash ci/version.sh)
vectors=("$repo"/tests/conformance/{vectors,malformed,versioning}.jsonl)
schemas=$repo/schemas
arm=$repo/cmake/toolchains/aarch64-linux-gnu.cmake
win=$repo/cmake/toolchains/x86_64-w64-mingw32.cmake
step() { printf -- '-- dist (cross): %s\n' "$*"; }
scratch() { mktemp -d "${TMPDIR:-/tmp}/fbe-dist.XXXXXX"; }
runner() { python3 "$repo/tests/conformance/runner" --describe-testee none --testee "$1" -I "$schemas" "${vectors[@]}" | tail -n 1; }
tmps=()
wine_started=0
cleanup() {
  rm -rf "${tmps[@]}"
  ((wine_started == 0)) || wineserver -k 2>/dev/null || true
}
trap cleanup EXIT
rm -rf "$work"
mkdir -p "$work" "$dist"
t_all=$EPOCHSECONDS

# ---- Windows: the zip --------------------------------------------------------------
t0=$EPOCHSECONDS
step "Windows: mingw-w64 build, cpack ZIP"
cmake -S . -B "$work/windows" -DCMAKE_TOOLCHAIN_FILE="$win" -DCMAKE_BUILD_TYPE=Release \
  -DFBE_BUILD_CLI=ON -DFBE_BUILD_TESTS=OFF -DFBE_BUILD_BENCH=OFF >/dev/null
cmake --build "$work/windows" -j2 >/dev/null
(cd "$work/windows" && cpack -G ZIP -B "$work/windows/packages" >/dev/null)
zip=libfbe-$version-Windows-x86_64.zip
cp "$work/windows/packages/$zip" "$dist/"
t=$(scratch); tmps+=("$t")
(cd "$t" && unzip -q "$dist/$zip")
root=$t/libfbe-$version-Windows-x86_64
for f in bin/fbe.exe bin/libfbe.dll lib/libfbe.dll.a lib/libfbe.a include/fbe/fbe.h \
         lib/cmake/fbe/fbeConfig.cmake lib/cmake/fbe/fbeTargets.cmake; do
  [[ -f $root/$f ]] || { echo "dist: $zip has no $f" >&2; exit 1; }
done
# Only Windows' own DLLs besides libfbe.dll (no libgcc or winpthread DLL to carry along).
imports=$(x86_64-w64-mingw32-objdump -p "$root/bin/fbe.exe" "$root/bin/libfbe.dll" |
  sed -nE 's/^\s*DLL Name: (.*)$/\1/p' | sort -u | tr '\n' ' ')
echo "imports: $imports"
for dll in $imports; do
  [[ ${dll,,} =~ ^(kernel32|msvcrt|advapi32|libfbe)\.dll$ ]] ||
    { echo "dist: $zip needs $dll, which Windows does not have" >&2; exit 1; }
done

step "Windows: the zip's fbe.exe under wine runs fbe conformance; a consumer uses its DLL"
export WINEPREFIX=$repo/build/wine WINEDEBUG=-all WINEDLLOVERRIDES='mscoree,mshtml='
mkdir -p "$WINEPREFIX"
wineserver -p 2>/dev/null || true # (fails when one already runs for this prefix)
wine_started=1
(cd "$t" && wine "$root/bin/fbe.exe" conformance -I "$schemas" "${vectors[@]}" | tr -d '\r' | tail -n 1)
# The DLL through its import library, as a MinGW user links it (-lfbe: libfbe.dll.a),
# FBE_STATIC not defined (dllimport): tests/consumer/main.c, told "shared".
x86_64-w64-mingw32-gcc -std=c11 -Wall -Wextra -Werror -o "$root/bin/consumer.exe" \
  "$repo/tests/consumer/main.c" -I"$root/include" -L"$root/lib" -lfbe
(cd "$t" && wine "$root/bin/consumer.exe" "$schemas/proto.fbe" shared | tr -d '\r' | tail -n 2)
x86_64-w64-mingw32-objdump -p "$root/bin/consumer.exe" | grep 'DLL Name: libfbe.dll' >/dev/null ||
  { echo "dist: the consumer did not link libfbe.dll" >&2; exit 1; }
echo "-- dist (cross): Windows: $((EPOCHSECONDS - t0)) s"

# ---- linux-aarch64: the C tarball ------------------------------------------------------
t0=$EPOCHSECONDS
step "linux-aarch64: cross build, cpack TGZ"
cmake -S . -B "$work/aarch64" -DCMAKE_TOOLCHAIN_FILE="$arm" -DCMAKE_BUILD_TYPE=Release \
  -DFBE_BUILD_CLI=ON -DFBE_BUILD_TESTS=OFF -DFBE_BUILD_BENCH=OFF >/dev/null
cmake --build "$work/aarch64" -j2 >/dev/null
(cd "$work/aarch64" && cpack -G TGZ -B "$work/aarch64/packages" >/dev/null)
tgz=libfbe-$version-Linux-aarch64.tar.gz
cp "$work/aarch64/packages/$tgz" "$dist/"
t=$(scratch); tmps+=("$t")
tar xzf "$dist/$tgz" -C "$t"
readelf -h "$t/libfbe-$version-Linux-aarch64/bin/fbe" | grep 'Machine:.*AArch64' >/dev/null ||
  { echo "dist: $tgz's fbe is not an AArch64 program" >&2; exit 1; }
(cd "$t" && qemu-aarch64 "libfbe-$version-Linux-aarch64/bin/fbe" conformance -I "$schemas" "${vectors[@]}" | tail -n 1)

# An arm64 C program that dlopen()s a module and finds its entry points (for the addon
# and the JNI library, whose hosts cannot run here): loads = the dynamic loader resolved
# every needed library and relocation it binds at load time, on the target's glibc.
probe=$work/dlprobe
cat >"$work/dlprobe.c" <<'EOF'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv) {
  void *h = dlopen(argv[1], RTLD_LAZY | RTLD_LOCAL);
  if (!h) { fprintf(stderr, "dlopen: %s\n", dlerror()); return 1; }
  for (int i = 2; i < argc; i++) {
    if (!dlsym(h, argv[i])) { fprintf(stderr, "%s: no symbol %s\n", argv[1], argv[i]); return 1; }
    printf("%s: %s found\n", argv[1], argv[i]);
  }
  return 0;
}
EOF
aarch64-linux-gnu-gcc -O1 -o "$probe" "$work/dlprobe.c" -ldl
# The newest glibc symbol version an aarch64 module needs (the oldest glibc it loads on).
check_glibc() {
  local newest
  newest=$(aarch64-linux-gnu-objdump -T "$1" | grep -oE 'GLIBC_[0-9.]+' | sort -uV | tail -n 1)
  echo "$(basename "$1"): aarch64, newest glibc symbol version ${newest:-none}"
}
echo "-- dist (cross): linux-aarch64 C: $((EPOCHSECONDS - t0)) s"

# ---- linux-aarch64: the Python wheel ---------------------------------------------------
t0=$EPOCHSECONDS
step "linux-aarch64: the wheel, cross-compiled from the sdist"
pyver=$(python3 -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
multiarch=/usr/include/aarch64-linux-gnu/python$pyver/pyconfig.h # libpython3.11-dev:arm64
[[ -f $multiarch ]] || { echo "dist: no $multiarch (libpython$pyver-dev:arm64)" >&2; exit 1; }
python3 -m venv "$work/pybuild"
# The build requirements installed for the host beforehand (--no-isolation): with
# _PYTHON_HOST_PLATFORM set, an isolated build would fetch swig's aarch64 wheel.
mapfile -t reqs < <(python3 -c 'import sys, tomllib; print("\n".join(tomllib.load(open(sys.argv[1], "rb"))["build-system"]["requires"]))' bindings/python/pyproject.toml)
"$work/pybuild/bin/pip" install -q --disable-pip-version-check build "${reqs[@]}"
# Debian's Python.h, whose pyconfig.h picks the arm64 one (not the build interpreter's).
# _PYTHON_HOST_PLATFORM: the platform scikit-build-core tags the wheel with. FindPython
# cannot ask an arm64 interpreter for its SOABI here, so the module is _core.so, a name
# every CPython accepts (the tag says cp3XX).
_PYTHON_HOST_PLATFORM=linux-aarch64 \
  "$work/pybuild/bin/python" -m build --no-isolation --wheel --outdir "$work/wheel" \
    -C cmake.define.CMAKE_TOOLCHAIN_FILE="$arm" -C cmake.define.Python_INCLUDE_DIR="/usr/include/python$pyver" \
    "$dist/fbe-$version.tar.gz" >"$work/wheel.log" 2>&1 ||
  { cat "$work/wheel.log"; exit 1; }
whl=$(cd "$work/wheel" && ls fbe-"$version"-*-linux_aarch64.whl) # cp3XX-cp3XX (or abi3)
cp "$work/wheel/$whl" "$dist/"
t=$(scratch); tmps+=("$t")
(cd "$t" && mkdir site && cd site && unzip -q "$dist/$whl")
so=$(ls "$t"/site/fbe/_core*.so)
readelf -h "$so" | grep 'Machine:.*AArch64' >/dev/null || { echo "dist: $whl's $so is not AArch64" >&2; exit 1; }
check_glibc "$so"
# An arm64 CPython: the interpreter's main() over Debian's arm64 libpython (multiarch).
printf '#include <Python.h>\nint main(int argc, char **argv) { return Py_BytesMain(argc, argv); }\n' >"$work/py.c"
aarch64-linux-gnu-gcc -O1 -I"/usr/include/python$pyver" -o "$t/python3" "$work/py.c" -lpython"$pyver"
arm_python="env PYTHONHOME=/usr PYTHONPATH=$t/site qemu-aarch64 $t/python3"
$arm_python -c 'import platform, fbe._core as c; print("CPython", platform.python_version(), platform.machine(), "loads", c.__file__)'
(cd "$t" && runner "python-aarch64=$arm_python -m fbe.testee")
echo "-- dist (cross): linux-aarch64 wheel: $((EPOCHSECONDS - t0)) s"

# ---- linux-aarch64: the npm prebuild -------------------------------------------------
t0=$EPOCHSECONDS
step "linux-aarch64: prebuilds/linux-arm64/fbe.napi.node into the npm tarball"
pkg=$repo/bindings/node
napi=$(dirname "$(node -p 'require.resolve("node-api-headers/package.json", {paths: [process.argv[1]]})' "$pkg" 2>/dev/null || true)")
nodeinc=$(node -p 'require("path").resolve(process.execPath, "..", "..", "include", "node")')
[[ -f $nodeinc/node_api.h ]] || nodeinc=$napi/include
[[ -f $nodeinc/node_api.h ]] || { echo "dist: no Node-API headers (node_api.h) for the arm64 addon" >&2; exit 1; }
# binding.gyp's sources, defines and flags (its one list; core-dir.js expands the core's)
mapfile -t addon_src < <(cd "$pkg" && python3 - <<'EOF'
import ast, re, subprocess
text = re.sub(r"#.*", "", open("binding.gyp").read())
target = ast.literal_eval(text)["targets"][0]
for s in target["sources"]:
    if s.startswith("<!@("):
        print("\n".join(subprocess.run(s[4:-1].split(), capture_output=True, text=True, check=True).stdout.split()))
    else:
        print(s)
EOF
)
mkdir -p "$work/napi/linux-arm64"
addon=$work/napi/linux-arm64/fbe.napi.node
(cd "$pkg" && aarch64-linux-gnu-gcc -std=c11 -O3 -fPIC -shared -fvisibility=hidden \
  -DNAPI_VERSION=8 -DFBE_STATIC -DBUILDING_NODE_EXTENSION -I"$nodeinc" -I../../core/include -I../../core/src \
  -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -Wno-sign-compare \
  -o "$addon" "${addon_src[@]}" -lm)
aarch64-linux-gnu-strip --strip-unneeded "$addon"
check_glibc "$addon"
qemu-aarch64 "$probe" "$addon" napi_register_module_v1
tarball=$(cd "$dist" && ls fbe-"$version".tgz)
t=$(scratch); tmps+=("$t")
tar xzf "$dist/$tarball" -C "$t"
mkdir -p "$t/package/prebuilds/linux-arm64"
cp "$addon" "$t/package/prebuilds/linux-arm64/"
tar czf "$dist/$tarball" -C "$t" package
tar tzf "$dist/$tarball" | grep -E '^package/prebuilds/linux-(x64|arm64)/fbe.napi.node$'
[[ $(tar tzf "$dist/$tarball" | grep -cE '^package/prebuilds/linux-(x64|arm64)/fbe.napi.node$') == 2 ]] ||
  { echo "dist: $tarball does not carry both prebuilds" >&2; exit 1; }
# the repacked tarball still installs here and its linux-x64 addon runs the testee
t=$(scratch); tmps+=("$t")
(cd "$t" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error "$dist/$tarball" >/dev/null &&
  runner "node=node $t/node_modules/fbe/testee.js")
echo "-- dist (cross): linux-aarch64 npm prebuild: $((EPOCHSECONDS - t0)) s"

# ---- linux-aarch64: the jar's native library -----------------------------------------
t0=$EPOCHSECONDS
step "linux-aarch64: native/linux-aarch64/libfbejni.so into the jar"
cmake -S bindings/java/native -B "$work/jni" -DCMAKE_TOOLCHAIN_FILE="$arm" -DCMAKE_BUILD_TYPE=Release \
  -DFBE_ROOT="$repo" -DFBE_JAVA_OUT="$work/jni/java" -DFBE_NATIVE_OUT="$work/jni/native" \
  -DFBE_WERROR=ON >/dev/null
cmake --build "$work/jni" -j2 >/dev/null
jni=$work/jni/native/linux-aarch64/libfbejni.so
check_glibc "$jni"
qemu-aarch64 "$probe" "$jni" JNI_OnLoad "$(aarch64-linux-gnu-nm -D --defined-only "$jni" | awk '/ T Java_/ {print $3; exit}')"
jar=fbe-$version.jar
(cd "$work/jni" && jar uf "$dist/$jar" native/linux-aarch64/libfbejni.so)
jar tf "$dist/$jar" | grep -E '^native/linux-(x86_64|aarch64)/libfbejni.so$'
[[ $(jar tf "$dist/$jar" | grep -cE '^native/linux-(x86_64|aarch64)/libfbejni.so$') == 2 ]] ||
  { echo "dist: $jar does not carry both native libraries" >&2; exit 1; }
echo "-- dist (cross): linux-aarch64 jar: $((EPOCHSECONDS - t0)) s"
echo "-- dist (cross): all $((EPOCHSECONDS - t_all)) s"
