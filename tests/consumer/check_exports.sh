#!/usr/bin/env bash
# Checks that a libfbe shared library exports exactly the public API:
#
#   check_exports.sh LIBFBE.so INCLUDEDIR
#
# The public API is every function the headers INCLUDEDIR/fbe/*.h declare with FBE_API.
# Fails when the library exports a symbol that is not in that list (an internal
# function leaking out, or one not starting with fbe_), when a declared FBE_API
# function is not exported (not defined, or its .c does not see the declaration), or
# when a header declares a function without FBE_API (it would be hidden in libfbe.so).
# Needs nm (binutils) and perl. ELF only.
set -euo pipefail

if (($# != 2)); then
  echo "usage: $0 LIBFBE.so INCLUDEDIR" >&2
  exit 2
fi
lib=$1
incdir=$2
[[ -f $lib ]] || { echo "check_exports: no such library: $lib" >&2; exit 1; }
headers=("$incdir"/fbe/*.h)
[[ -f ${headers[0]} ]] || { echo "check_exports: no headers in $incdir/fbe" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Exported: defined dynamic symbols, without the linker's own (_init, _edata, ...).
nm -D --defined-only "$lib" | awk 'NF >= 3 { sub(/@.*/, "", $3); print $3 }' |
  grep -Ev '^(_init|_fini|_edata|_end|__bss_start|_DYNAMIC|_GLOBAL_OFFSET_TABLE_)$' |
  sort -u >"$work/exported"

# Declared: the function names of FBE_API declarations, after removing comments and
# preprocessor lines; every other function declaration is reported as missing FBE_API
# (statements of static inline bodies, which start with a keyword, are not ones).
perl -e '
  local $/;
  for my $file (@ARGV) {
    open my $fh, "<", $file or die "$file: $!";
    my $text = <$fh>;
    $text =~ s{/\*.*?\*/}{ }gs;           # block comments
    $text =~ s{//[^\n]*}{}g;              # line comments
    $text =~ s{^[ \t]*#(?:[^\n]*\\\n)*[^\n]*}{}gm;  # preprocessor lines, continued too
    for my $piece (split /[;{}]/, $text) {
      $piece =~ s/\s+/ /g;
      $piece =~ s/^ | $//g;
      next if $piece eq "";
      if ($piece =~ /\bFBE_API\b/) {
        if ($piece =~ /\b([A-Za-z_]\w*)\s*\(/) { print "api $1\n" }
        else { print "bad $file: cannot read the FBE_API declaration: $piece\n" }
      } elsif ($piece !~ /^(typedef|static|return|extern "C"|else|if|for|while|do|switch)\b/ &&
               $piece =~ /^(?:[A-Za-z_]\w*[\s\*]+)+([A-Za-z_]\w*)\s*\([^()]*\)$/) {
        print "bad $file: $1 is declared without FBE_API\n";
      }
    }
  }' "${headers[@]}" >"$work/parsed"
awk '$1 == "api" { print $2 }' "$work/parsed" | sort -u >"$work/declared"

problems=0
report() { # TITLE FILE
  if [[ -s $2 ]]; then
    echo "check_exports: $1:"
    sed 's/^/  /' "$2"
    problems=1
  fi
}

grep '^bad ' "$work/parsed" | sed 's/^bad //' >"$work/bad" || true
grep -v '^fbe_' "$work/exported" >"$work/not_prefixed" || true
comm -23 "$work/exported" "$work/declared" >"$work/extra"
comm -13 "$work/exported" "$work/declared" >"$work/missing"
report "header problems" "$work/bad"
report "exported symbols without the fbe_ prefix" "$work/not_prefixed"
report "exported but not declared FBE_API in a public header (internal symbols leaking)" \
  "$work/extra"
report "declared FBE_API but not exported by $(basename "$lib")" "$work/missing"

if ((problems)); then
  exit 1
fi
echo "check_exports: ok: $(wc -l <"$work/exported") exported symbols, all fbe_*, exactly" \
  "the $(wc -l <"$work/declared") FBE_API functions of ${#headers[@]} public headers"
