#!/usr/bin/env bash
# The version number lives in VERSION (read by CMakeLists.txt's project()). Package
# formats that need a literal carry a copy, which this script writes and checks:
#   ci/version.sh              print the version
#   ci/version.sh check        exit 1 (naming the file) when a copy differs from VERSION
#   ci/version.sh set X.Y.Z    write VERSION and every copy
# ci/dist.sh runs `check` before it builds anything.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# file|BEFORE|AFTER: the first line matching ^BEFORE<version>AFTER holds the copy
copies=(
  'core/include/fbe/version.h|#define FBE_VERSION_STRING "|"'
  'bindings/python/pyproject.toml|version = "|"'
  'bindings/python/src/fbe/__init__.py|__version__ = "|"'
  'bindings/node/package.json|  "version": "|",'
  'bindings/node/package-lock.json|  "version": "|",'
  'bindings/node/package-lock.json|      "version": "|",'
  'bindings/ruby/lib/fbe/version.rb|  VERSION = "|"'
  'bindings/java/pom.xml|  <version>|</version>'
  'bindings/go/version.go|const Version = "|"'
  'bindings/rust/Cargo.toml|version = "|"'
  'bindings/rust/fbe/Cargo.toml|version = "|"'
)

version=$(head -n 1 VERSION)

# The version a copy holds (empty when the line is missing).
copy_version() { # FILE BEFORE AFTER
  sed -nE "s%^$2([^\"<]*)$3.*%\\1%p" "$1" | sed -n 1p # (sed reads all: no SIGPIPE under pipefail)
}

case ${1:-} in
  "")
    echo "$version"
    ;;
  check)
    bad=0
    for c in "${copies[@]}"; do
      IFS='|' read -r file before after <<<"$c"
      [[ -f $file ]] || continue # e.g. a binding not in this tree
      v=$(copy_version "$file" "$before" "$after")
      if [[ $v != "$version" ]]; then
        echo "version: $file says '${v}', VERSION says $version (ci/version.sh set $version)" >&2
        bad=1
      fi
    done
    major=$(sed -nE 's/^#define FBE_VERSION_MAJOR ([0-9]+).*/\1/p' core/include/fbe/version.h)
    minor=$(sed -nE 's/^#define FBE_VERSION_MINOR ([0-9]+).*/\1/p' core/include/fbe/version.h)
    patch=$(sed -nE 's/^#define FBE_VERSION_PATCH ([0-9]+).*/\1/p' core/include/fbe/version.h)
    if [[ $major.$minor.$patch != "$version" ]]; then
      echo "version: core/include/fbe/version.h MAJOR.MINOR.PATCH is $major.$minor.$patch, VERSION says $version" >&2
      bad=1
    fi
    ((bad == 0)) && echo "version: $version everywhere"
    exit "$bad"
    ;;
  set)
    new=${2:-}
    [[ $new =~ ^([0-9]+)\.([0-9]+)\.([0-9]+)$ ]] || { echo "usage: ci/version.sh set X.Y.Z" >&2; exit 2; }
    echo "$new" >VERSION
    for c in "${copies[@]}"; do
      IFS='|' read -r file before after <<<"$c"
      [[ -f $file ]] || continue
      sed -i -E "0,\\%^${before}[^\"<]*${after}%s%%${before}${new}${after}%" "$file"
    done
    sed -i -E "s/^(#define FBE_VERSION_MAJOR )[0-9]+/\\1${BASH_REMATCH[1]}/;
               s/^(#define FBE_VERSION_MINOR )[0-9]+/\\1${BASH_REMATCH[2]}/;
               s/^(#define FBE_VERSION_PATCH )[0-9]+/\\1${BASH_REMATCH[3]}/" core/include/fbe/version.h
    exec bash "$0" check
    ;;
  *)
    echo "usage: ci/version.sh [check | set X.Y.Z]" >&2
    exit 2
    ;;
esac
