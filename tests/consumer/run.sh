#!/usr/bin/env bash
# The install_consumer test (registered by the top-level CMakeLists.txt): installs a
# libfbe build tree into a temporary prefix and uses it the way a user would.
#
#   run.sh --build-dir DIR [--config Release] [--cmake cmake] [--cc cc] [--flags "..."]
#          --version X.Y.Z [--libdir lib] [--includedir include] [--bindir bin]
#          [--tool fbe] [--schema schemas/proto.fbe]
#
#  1. cmake --install into <tmp>/staging, then moves it to <tmp>/prefix: everything
#     after that proves the package is relocatable.
#  2. Checks the layout: headers, libfbe.so.X.Y.Z with its SONAME and symlinks,
#     libfbe.a, the CMake package, fbe.pc and fbe-static.pc, bin/fbe, and that no
#     installed file names the build tree, the source tree or the staging prefix.
#  3. check_exports.sh: libfbe.so exports exactly the FBE_API functions.
#  4. Runs the installed `fbe version`.
#  5. Builds tests/consumer/ with CMake (find_package(fbe X.Y CONFIG), CMAKE_PREFIX_PATH
#     = the prefix), runs consumer_shared (fbe::fbe) and consumer_static
#     (fbe::fbe_static), and checks that an incompatible version is refused.
#  6. Builds main.c with cc and pkg-config (fbe, then fbe-static) and runs both.
# --flags are added to every compile and link of the consumer: the sanitizer flags of
# an FBE_SANITIZE tree, whose libraries need the sanitizer runtime in the program.
# FBE_KEEP_TMP=1 keeps the temporary directory. Exit 0 when everything passed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=$(cd "$here/../.." && pwd)

build_dir="" config=Release cmake_cmd=cmake cc=${CC:-cc} flags="" version=""
libdir=lib includedir=include bindir=bin tool=fbe schema="$source_dir/schemas/proto.fbe"
while (($#)); do
  case $1 in
    --build-dir) build_dir=$2 ;;
    --config) config=$2 ;;
    --cmake) cmake_cmd=$2 ;;
    --cc) cc=$2 ;;
    --flags) flags=$2 ;;
    --version) version=$2 ;;
    --libdir) libdir=$2 ;;
    --includedir) includedir=$2 ;;
    --bindir) bindir=$2 ;;
    --tool) tool=$2 ;;
    --schema) schema=$2 ;;
    *) echo "run.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
  shift 2
done
if [[ -z $build_dir || -z $version ]]; then
  echo "usage: run.sh --build-dir DIR --version X.Y.Z [options] (see the header)" >&2
  exit 2
fi
build_dir=$(cd "$build_dir" && pwd)
for dir in "$libdir" "$includedir" "$bindir"; do
  if [[ $dir == /* ]]; then
    echo "run.sh: absolute install directories ($dir) cannot go to a temporary prefix;" \
      "configure with relative CMAKE_INSTALL_*DIR" >&2
    exit 1
  fi
done
for prog in "$cmake_cmd" "$cc" pkg-config nm readelf ldd perl; do
  command -v "$prog" >/dev/null || { echo "run.sh: $prog not found" >&2; exit 1; }
done

# Version -> SONAME, as CMakeLists.txt decides it: libfbe.so.0.MINOR while the major
# version is 0, libfbe.so.MAJOR from 1.0 on. Also a version the package must refuse.
IFS=. read -r major minor patch <<<"$version"
if ((major == 0)); then
  soversion="0.$minor"
  incompatible="0.$((minor + 1))"
else
  soversion="$major"
  incompatible="$((major + 1)).0"
fi
read -r -a flag_array <<<"$flags"

t0=$EPOCHREALTIME
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fbe-install-consumer.XXXXXX")
cleanup() {
  if [[ ${FBE_KEEP_TMP:-0} == 1 ]]; then
    echo "run.sh: kept $tmp"
  else
    rm -rf "$tmp"
  fi
}
trap cleanup EXIT

step() { printf '== %s\n' "$*"; }
die() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }
# Runs a command with its output in $tmp/NAME.log, shown only when it fails.
logged() {
  local name=$1
  shift
  if ! "$@" >"$tmp/$name.log" 2>&1; then
    cat "$tmp/$name.log" >&2
    die "$name: $*"
  fi
}
# The programs must load the installed libfbe, not whatever LD_LIBRARY_PATH names.
run() { env -u LD_LIBRARY_PATH "$@"; }
soname_of() { readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p'; }
needed_of() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p'; }
# Checks that PROGRAM loads libfbe from the prefix (shared) or not at all (static).
check_loads() { # PROGRAM shared|static
  local needed resolved
  needed=$(needed_of "$1" | grep '^libfbe' || true)
  if [[ $2 == static ]]; then
    [[ -z $needed ]] || die "$1 is linked statically but needs $needed"
    return
  fi
  [[ $needed == "libfbe.so.$soversion" ]] || die "$1 needs '$needed', not libfbe.so.$soversion"
  resolved=$(run ldd "$1" | awk '$1 ~ /^libfbe/ { print $3 }')
  [[ $resolved == "$prefix/$libdir/"* ]] || die "$1 loads libfbe from '$resolved', not the prefix"
}

# ---- 1. install, then move -----------------------------------------------------

step "install $build_dir ($config) into a temporary prefix"
logged install "$cmake_cmd" --install "$build_dir" --config "$config" --prefix "$tmp/staging"
mv "$tmp/staging" "$tmp/prefix"
prefix=$tmp/prefix
echo "installed, then moved to $prefix"

# ---- 2. layout -------------------------------------------------------------------

step "layout"
lib="$prefix/$libdir"
for file in "$prefix/$includedir/fbe/fbe.h" "$prefix/$includedir/fbe/version.h" \
  "$prefix/$includedir/fbe/export.h" "$lib/libfbe.so.$version" "$lib/libfbe.a" \
  "$lib/cmake/fbe/fbeConfig.cmake" "$lib/cmake/fbe/fbeConfigVersion.cmake" \
  "$lib/cmake/fbe/fbeTargets.cmake" "$lib/pkgconfig/fbe.pc" "$lib/pkgconfig/fbe-static.pc"; do
  [[ -f $file && ! -L $file ]] || die "not installed: ${file#"$prefix/"}"
done
for src in "$source_dir"/core/include/fbe/*.h; do
  cmp -s "$src" "$prefix/$includedir/fbe/$(basename "$src")" ||
    die "header not installed (or differs): fbe/$(basename "$src")"
  name=$(basename "$src")
  if [[ $name != fbe.h ]] && ! grep -q "^#include \"fbe/$name\"" "$prefix/$includedir/fbe/fbe.h"; then
    die "the umbrella header fbe/fbe.h does not include fbe/$name"
  fi
done
[[ $(readlink "$lib/libfbe.so") == "libfbe.so.$soversion" ]] ||
  die "libfbe.so -> $(readlink "$lib/libfbe.so"), expected libfbe.so.$soversion"
[[ $(readlink "$lib/libfbe.so.$soversion") == "libfbe.so.$version" ]] ||
  die "libfbe.so.$soversion -> $(readlink "$lib/libfbe.so.$soversion"), expected libfbe.so.$version"
soname=$(soname_of "$lib/libfbe.so.$version")
[[ $soname == "libfbe.so.$soversion" ]] || die "SONAME is '$soname', expected libfbe.so.$soversion"
binaries=("$lib/libfbe.so.$version")
if [[ -n $tool ]]; then
  [[ -x $prefix/$bindir/$tool ]] || die "not installed: $bindir/$tool"
  binaries+=("$prefix/$bindir/$tool")
fi
for bin in "${binaries[@]}"; do
  if readelf -d "$bin" | grep -Eq '\((RPATH|RUNPATH)\)'; then
    die "${bin#"$prefix/"} keeps an RPATH/RUNPATH: $(readelf -d "$bin" | grep -E 'R(UN)?PATH')"
  fi
done
# Relocatable: no installed text file may name the trees it came from.
if leaks=$(grep -rIl -e "$build_dir" -e "$source_dir" -e "$tmp" "$prefix"); then
  die "absolute paths in installed files: ${leaks//$'\n'/ }"
fi
echo "SONAME $soname, libfbe.so -> libfbe.so.$soversion -> libfbe.so.$version, libfbe.a," \
  "$(find "$prefix/$includedir/fbe" -name '*.h' | wc -l) headers, CMake package, fbe.pc," \
  "fbe-static.pc${tool:+, $bindir/$tool}; no absolute paths"

# ---- 3. exported symbols ------------------------------------------------------------

step "exported symbols of libfbe.so.$version"
bash "$here/check_exports.sh" "$lib/libfbe.so.$version" "$prefix/$includedir"

# ---- 4. the tool ----------------------------------------------------------------------

if [[ -n $tool ]]; then
  step "$bindir/$tool version"
  out=$(run "$prefix/$bindir/$tool" version)
  echo "$out"
  [[ $out == "fbe $version" ]] || die "'$tool version' printed '$out', expected 'fbe $version'"
else
  step "fbe tool: not built in this tree (FBE_BUILD_CLI off), not checked"
fi

# ---- 5. CMake consumer ----------------------------------------------------------------

cmake_consumer() { # BUILD_DIR VERSION
  "$cmake_cmd" -S "$here" -B "$1" -DCMAKE_BUILD_TYPE="$config" \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" \
    -DCMAKE_PREFIX_PATH="$prefix" -DFBE_CONSUMER_VERSION="$2" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF
}

step "CMake consumer: find_package(fbe $major.$minor CONFIG), fbe::fbe and fbe::fbe_static"
logged cmake-configure cmake_consumer "$tmp/cmake-build" "$major.$minor"
fbe_dir=$(sed -n 's/^fbe_DIR:PATH=//p' "$tmp/cmake-build/CMakeCache.txt")
[[ $fbe_dir == "$lib/cmake/fbe" ]] || die "find_package found fbe in '$fbe_dir', not in the prefix"
logged cmake-build "$cmake_cmd" --build "$tmp/cmake-build"
echo "found $fbe_dir; built consumer_shared and consumer_static"
for kind in shared static; do
  check_loads "$tmp/cmake-build/consumer_$kind" "$kind"
  run "$tmp/cmake-build/consumer_$kind" "$schema" "$kind"
done

step "CMake consumer: find_package(fbe $incompatible) must be refused"
if cmake_consumer "$tmp/cmake-refused" "$incompatible" >"$tmp/cmake-refused.log" 2>&1; then
  cat "$tmp/cmake-refused.log" >&2
  die "find_package(fbe $incompatible) accepted version $version"
fi
grep -q 'considered but not accepted' "$tmp/cmake-refused.log" ||
  { cat "$tmp/cmake-refused.log" >&2; die "find_package(fbe $incompatible) failed for another reason"; }
echo "refused, as it should be"

# ---- 6. pkg-config consumer -------------------------------------------------------------

# Only the prefix's .pc files: a system-wide fbe.pc must not answer.
export PKG_CONFIG_PATH="$lib/pkgconfig" PKG_CONFIG_LIBDIR="$lib/pkgconfig"
unset PKG_CONFIG_SYSROOT_DIR
for pc in fbe fbe-static; do
  step "pkg-config consumer: cc main.c \$(pkg-config --cflags --libs $pc)"
  pc_version=$(pkg-config --modversion "$pc")
  [[ $pc_version == "$version" ]] || die "pkg-config --modversion $pc: '$pc_version'"
  read -r -a pc_flags <<<"$(pkg-config --cflags --libs "$pc")"
  echo "pkg-config --cflags --libs $pc: ${pc_flags[*]}"
  kind=shared
  extra=(-Wl,-rpath,"$(pkg-config --variable=libdir "$pc")")
  if [[ $pc == fbe-static ]]; then
    kind=static
    extra=()
  fi
  logged "cc-$pc" "$cc" "${flag_array[@]}" -std=c11 -Wall -Wextra -Wpedantic -Werror \
    "$here/main.c" "${pc_flags[@]}" "${extra[@]}" -o "$tmp/pc_$kind"
  check_loads "$tmp/pc_$kind" "$kind"
  run "$tmp/pc_$kind" "$schema" "$kind"
done

us=$((${EPOCHREALTIME/[.,]/} - ${t0/[.,]/}))
step "install_consumer: ok ($((us / 1000000)).$((us % 1000000 / 100000)) s)"
