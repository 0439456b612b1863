#!/usr/bin/env bash
# The "ruby" stage of ci/test.sh: builds and tests the fbe gem.
#   1. gem build (tools/build_gem.sh: the core and the SWIG output copied into ext/fbe)
#   2. gem install into a fresh GEM_HOME, build/ruby/gems (offline, compiles the core)
#   3. the minitest suites (bindings/ruby/test) against the installed gem (among them the
#      testee, bin/fbe-testee, through the shared runner tests/conformance/runner)
#   4. the gem installed into an empty folder outside the repository, with a `swig`
#      that fails on the PATH (installing must not need it), and its testee (the
#      installed fbe-testee executable) run there through the shared runner (--view:
#      decode and text also answered through views; --conversations: the client, server
#      and proxy sessions)
# (The benchmark runs in ci/bench.sh: the test command's "bench (smoke)" stage runs it once.)
# Prints each step with its duration; exits non-zero when any step failed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
repo=$PWD
out=$repo/build/ruby
export MAKEFLAGS=${MAKEFLAGS:--j2}

now_us() { local t=$EPOCHREALTIME; echo "${t/[.,]/}"; }
step_t0=0
step() {
  step_t0=$(now_us)
  printf -- '-- ruby: %s\n' "$1"
}
done_step() {
  local us=$(($(now_us) - step_t0))
  printf -- '-- ruby: ... %d.%d s\n' $((us / 1000000)) $((us % 1000000 / 100000))
}

echo "ruby: $(ruby --version) at $(command -v ruby); $(swig -version | grep -m1 Version)"
system_gems=$(gem env gempath)

step "gem build (bindings/ruby/tools/build_gem.sh)"
rm -rf "$out/gems" "$out"/fbe-*.gem
gem_file=$(bash bindings/ruby/tools/build_gem.sh "$out")
echo "gem: $(basename "$gem_file") ($(tar -xOf "$gem_file" data.tar.gz | tar tz | wc -l) files, $(du -k "$gem_file" | cut -f1) KiB)"
done_step

step "gem install into build/ruby/gems"
GEM_HOME=$out/gems gem install --local --no-document "$gem_file" >/dev/null
export GEM_HOME=$out/gems GEM_PATH="$out/gems:$system_gems"
ruby -e 'require "fbe"; f = $LOADED_FEATURES.grep(%r{/fbe/core\.so\z}).first
  abort "fbe loaded from #{f.inspect}, not the installed gem" unless f&.start_with?(ENV["GEM_HOME"])
  puts "fbe #{FBE::VERSION} (core #{FBE::CORE_VERSION}) from #{File.dirname(f)}"'
done_step

step "minitest bindings/ruby/test"
# A fixed seed: the same test order on every run (SEED=... to try another order).
(cd "$out" && SEED=${SEED:-1} ruby -e 'ARGV.each { |f| require f }' "$repo"/bindings/ruby/test/test_*.rb)
done_step

step "gem installed outside the repository (no SWIG), run there"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$gem_file" "$tmp/"
cp -r schemas "$tmp/schemas"
cp tests/conformance/*.jsonl "$tmp/"
mkdir "$tmp/noswig"
printf '#!/bin/sh\necho "swig must not run when installing the gem" >&2\nexit 99\n' >"$tmp/noswig/swig"
chmod +x "$tmp/noswig/swig"
(cd "$tmp" && PATH="$tmp/noswig:$PATH" GEM_HOME="$tmp/gems" GEM_PATH="$tmp/gems:$system_gems" \
  gem install --local --no-document "./$(basename "$gem_file")" >/dev/null &&
  GEM_HOME="$tmp/gems" GEM_PATH="$tmp/gems:$system_gems" \
  python3 "$repo/tests/conformance/runner" --describe-testee none --view --testee "ruby=$tmp/gems/bin/fbe-testee" \
    --behaviour "$repo/tests/conformance/behaviour.jsonl" --conversations conversations.jsonl \
    -I schemas vectors.jsonl malformed.jsonl malformed-extra.jsonl versioning.jsonl)
done_step
