# Sourced by ci/conformance.sh and ci/differential.sh (from the repository root, with
# `wanted` (a comma-separated list among c,python,node,ruby,java,go,rust,cpp and the names of
# FBE_EXTRA_TESTEES), `named` (1: a testee that cannot be built fails the run) and
# `jobs` set): builds what the wanted testees need — the fbe tool (build/release;
# always, as it also describes the field types and is the differential run's oracle),
# the Python package into build/python/venv, the Node addon, the gem, the jar, the Rust testee — and
# sets `testees` (--testee NAME=COMMAND arguments of every wanted testee that is built,
# plus those of FBE_EXTRA_TESTEES), `describe_options` (--describe-testee, when c is
# not a testee), `c_testee` (the fbe tool's testee command) and `missing` (1 when a
# named testee could not be built). With FBE_NO_BUILD=1 nothing is built: the testees
# built before (by an earlier run) are used as they are.
repo=$(pwd)
no_build() { [[ ${FBE_NO_BUILD:-0} == 1 ]]; }
all=c,python,node,ruby,java,go,rust,cpp

extra_names=()
while IFS= read -r spec; do
  if [[ -n $spec ]]; then extra_names+=("${spec%%=*}"); fi
done <<<"${FBE_EXTRA_TESTEES:-}"
IFS=, read -r -a names <<<"$wanted"
for name in "${names[@]}"; do
  if [[ ,$all, != *,$name,* && " ${extra_names[*]-} " != *" $name "* ]]; then
    echo "testees: unknown testee '$name' (ours: $all; FBE_EXTRA_TESTEES: ${extra_names[*]-none})" >&2
    exit 2
  fi
done
wants() { [[ ,$wanted, == *,$1,* ]]; }

testees=()
describe_options=()
missing=0
not_built() {
  echo "testees: $1; no $2 testee" >&2
  missing=$named
}

# c: the fbe tool (also the describer of field types when c is not among the testees)
if [[ ! -f build/release/CMakeCache.txt ]]; then
  cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DFBE_BUILD_CLI=ON -DFBE_WERROR=ON >/dev/null
fi
no_build && [[ -x build/release/bin/fbe ]] || cmake --build build/release -j"$jobs" --target fbe >/dev/null
c_testee="$repo/build/release/bin/fbe testee"
if wants c; then
  testees+=(--testee "c=$c_testee")
else
  describe_options+=(--describe-testee "c=$c_testee")
fi

# python: the package installed (from this tree) into build/python/venv
if wants python; then
  py=build/python/venv/bin/python
  if [[ ! -x $py ]] && command -v python3 >/dev/null; then
    python3 -m venv build/python/venv >/dev/null 2>&1 || true
  fi
  if [[ -x $py ]] && { no_build || $py -m pip install -q ./bindings/python >/dev/null 2>&1; }; then
    testees+=(--testee "python=$repo/$py -m fbe.testee")
  else
    not_built "the Python package could not be built" python
  fi
fi

# node: the addon built by npm ci (the package's install script)
if wants node; then
  if ! no_build && command -v node >/dev/null && [[ ! -f bindings/node/build/Release/fbe.node ]] && command -v npm >/dev/null; then
    (cd bindings/node && npm ci --no-audit --no-fund --loglevel=error >/dev/null 2>&1) || true
  fi
  if command -v node >/dev/null && [[ -f bindings/node/build/Release/fbe.node ]]; then
    testees+=(--testee "node=node $repo/bindings/node/testee.js")
  else
    not_built "the Node addon could not be built" node
  fi
fi

# ruby: the gem built (bindings/ruby/tools/build_gem.sh) and installed into build/ruby/gems
if wants ruby; then
  if command -v ruby >/dev/null && { { no_build && ls -d build/ruby/gems/gems/fbe-*/lib >/dev/null 2>&1; } ||
     { command -v gem >/dev/null && command -v swig >/dev/null &&
       gem_file=$(bash bindings/ruby/tools/build_gem.sh "$repo/build/ruby" 2>/dev/null) &&
       rm -rf build/ruby/gems &&
       GEM_HOME=$repo/build/ruby/gems MAKEFLAGS=-j"$jobs" gem install --local --no-document "$gem_file" >/dev/null 2>&1; }; }; then
    testees+=(--testee "ruby=ruby -I $(ls -d "$repo"/build/ruby/gems/gems/fbe-*/lib | tail -1) $repo/bindings/ruby/bin/fbe-testee")
  else
    not_built "the Ruby gem could not be built" ruby
  fi
fi

# java: the runnable jar built by mvn (bindings/java)
if wants java; then
  if command -v java >/dev/null && { { no_build && ls bindings/java/target/fbe-*.jar >/dev/null 2>&1; } ||
     { command -v mvn >/dev/null && mvn -B -q -ntp -f bindings/java package -DskipTests -Dfbe.werror=ON >/dev/null 2>&1; }; }; then
    testees+=(--testee "java=java -jar $(ls "$repo"/bindings/java/target/fbe-*.jar | grep -v -E 'sources|javadoc' | head -1) testee")
  else
    not_built "the Java jar could not be built" java
  fi
fi

# go: the testee built by go build (bindings/go, cgo over the core vendored by tools/vendor.sh)
if wants go; then
  if command -v go >/dev/null && { { no_build && [[ -x build/go/fbe-testee ]]; } ||
     { bash bindings/go/tools/vendor.sh >/dev/null 2>&1 &&
       (cd bindings/go && go build -o "$repo/build/go/fbe-testee" ./cmd/fbe-testee) >/dev/null 2>&1; }; }; then
    testees+=(--testee "go=$repo/build/go/fbe-testee")
  else
    not_built "the Go testee could not be built" go
  fi
fi

# cpp: fbe-cpp-testee, the C++ API's testee (bindings/cpp), built in build/cpp
if wants cpp; then
  if ! no_build && command -v c++ >/dev/null; then
    { [[ -f build/cpp/CMakeCache.txt ]] ||
        cmake -S . -B build/cpp -DCMAKE_BUILD_TYPE=Release -DFBE_BUILD_CPP=ON -DFBE_WERROR=ON >/dev/null; } &&
      cmake --build build/cpp -j"$jobs" --target fbe-cpp-testee >/dev/null || true
  fi
  if [[ -x build/cpp/bin/fbe-cpp-testee ]]; then
    testees+=(--testee "cpp=$repo/build/cpp/bin/fbe-cpp-testee")
  else
    not_built "the C++ testee could not be built" cpp
  fi
fi

# rust: the fbe-testee binary of the fbe crate (bindings/rust), built by cargo into
# build/rust (one target directory: the core is compiled once)
if wants rust; then
  rust_testee=$repo/build/rust/release/fbe-testee
  if command -v cargo >/dev/null && { { no_build && [[ -x $rust_testee ]]; } ||
     (cd bindings/rust && CARGO_TARGET_DIR=$repo/build/rust cargo build -q --release -j"$jobs" -p fbe --bin fbe-testee >/dev/null 2>&1); }; then
    testees+=(--testee "rust=$rust_testee")
  else
    not_built "the Rust crate could not be built" rust
  fi
fi

# outside implementations
while IFS= read -r spec; do
  if [[ -n $spec ]]; then testees+=(--testee "$spec"); fi
done <<<"${FBE_EXTRA_TESTEES:-}"
