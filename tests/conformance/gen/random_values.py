"""Random values for any schema, edge-biased (Python standard library only).

ValueGen(rng, structs, never_null) draws JSON values (the library's JSON form) of the
structs described by a testee's `describe` answers (structs: {"pkg.Name": described
struct}). On top of the edge cases of generate.py (the limits of every integer width,
empty, long, non-ASCII and escaped strings, null and present optionals, the largest and
smallest decimals, timestamps at both ends, uuids of all zeros and all ones, every enum
member, flag combinations) it draws enum and flags values no member has, -0.0 and
subnormal numbers, strings with NUL characters, and duplicates in sets and maps (which
the wire allows: FORMAT.md 5.9, readers must accept them). Maps whose key type has no
JSON form (bool, float, double, bytes) stay empty. Recursive types end: below
MAX_DEPTH optionals are null and collections empty. never_null holds the
(struct, field) pairs whose null would not read back deterministically (an optional
with a utc/uuid1/uuid4 default reads a null as a fresh default, FORMAT.md 5.10).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate import INT_RANGES, Generator  # noqa: E402

MAX_DEPTH = 4
NO_JSON_KEY = {"bool", "float", "double", "bytes"}
SIGNED = {"int8", "int16", "int32", "int64"}


class Pairs(dict):
    """A JSON object that may repeat a key: `pairs` is written (by the runner's dumps)."""

    def __init__(self, pairs):
        super().__init__(pairs)
        self.pairs = pairs


class ValueGen(Generator):
    def __init__(self, rng, structs, never_null=frozenset(), duplicates=0.05):
        super().__init__(rng, structs, None)
        self.never_null, self.duplicates = never_null, duplicates

    def text(self):
        if self.rng.random() < 0.05:
            return self.rng.choice(["\u0000", "a\u0000b", "\u0000\u0000end"])
        return super().text()

    def floating(self, kind):
        if self.rng.random() < 0.15:
            return self.rng.choice([-0.0, 5e-324 if kind == "double" else 1e-45, -1e-310 if kind == "double" else -1e-40,
                                    2.0 ** 53 + 2, 0.1, 1e16])
        return super().floating(kind)

    def enum(self, t):
        r = self.rng
        lo, hi = INT_RANGES.get(t["base"], (0, 2**64 - 1))
        if r.random() < 0.15 or not t["values"]:
            return r.choice([lo, hi, -1 if lo < 0 else hi, r.randint(lo, hi)])  # most likely no member
        if t["kind"] == "flags" and r.random() < 0.1:
            return r.randint(lo, hi)  # any bits
        return super().enum(t)

    def collection_size(self, elem):
        if self.depth >= MAX_DEPTH:
            return 0
        return super().collection_size(elem)

    def maybe_duplicate(self, items):
        if items and self.rng.random() < self.duplicates:
            items.insert(self.rng.randrange(len(items) + 1), self.rng.choice(items))

    def map_key_text(self, k, kind):
        return k if isinstance(k, str) else str(k)

    def value(self, t, nullable=True):
        kind = t["kind"]
        if kind == "optional":
            if nullable and (self.depth >= MAX_DEPTH or self.rng.random() < 0.35):
                return None
            return self.value(t["elem"])
        if kind in ("set", "map", "hash"):
            self.depth += 1
            try:
                n = self.collection_size(t["elem"])
                if kind == "set":
                    items, seen = [], set()
                    for _ in range(n):
                        v = self.value(t["elem"])
                        if repr(v) not in seen:
                            seen.add(repr(v))
                            items.append(v)
                    self.maybe_duplicate(items)
                    return items
                key = t["key"]
                if key["kind"] in NO_JSON_KEY:
                    return {}
                pairs, seen = [], set()
                for _ in range(n):
                    k = self.value(key)
                    if key["kind"] != "struct":
                        k = self.map_key_text(k, key["kind"])
                    if repr(k) not in seen:
                        seen.add(repr(k))
                        pairs.append((k, self.value(t["elem"])))
                dup = len(pairs)
                self.maybe_duplicate(pairs)
                if key["kind"] == "struct":
                    return [[k, v] for k, v in pairs]
                return Pairs(pairs) if len(pairs) != dup else dict(pairs)
            finally:
                self.depth -= 1
        return super().value(t)

    def struct(self, name):
        self.depth += 1
        try:
            return {f["name"]: self.value(f["type"], (name, f["name"]) not in self.never_null)
                    for f in self.structs[name]["fields"]}
        finally:
            self.depth -= 1
