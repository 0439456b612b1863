#!/usr/bin/env bash
# Builds the fbe gem: copies the libfbe core (sources and headers) into ext/fbe/core and
# the binding's C (native/) into ext/fbe/native, runs SWIG there (fbe_wrap.c from
# swig/ruby.i + swig/fbe.i), then `gem build`. The gem is self-contained: installing it
# compiles everything without the repository or SWIG.
#   bindings/ruby/tools/build_gem.sh [OUT_DIR]     (default: build/ruby)
# Prints the path of the gem it made: OUT_DIR/fbe-VERSION.gem.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
repo=$(cd "$here/../.." && pwd)
out=${1:-$repo/build/ruby}
ext=$here/ext/fbe
mkdir -p "$out"

# The previous copies and build products: everything in ext/fbe but extconf.rb.
find "$ext" -mindepth 1 -maxdepth 1 ! -name extconf.rb -exec rm -rf {} +

python3 "$repo/core/vendor.py" "$ext" >/dev/null   # ext/fbe/core: the one way packages copy it
cp -r "$here/native" "$ext/native"
cp "$repo/LICENSE" "$here/LICENSE"
swig -ruby -I"$repo/swig" -I"$repo/core/include" -o "$ext/fbe_wrap.c" "$repo/swig/ruby.i"

cd "$here"
gem_file=$out/fbe-$(ruby -Ilib -rfbe/version -e 'print FBE::VERSION').gem
gem build --silent fbe.gemspec --output "$gem_file" >/dev/null
echo "$gem_file"
