#!/usr/bin/env python3
"""Generates extra conformance vectors of our own (Python standard library only).

  generate.py [--seed N] [--count N] [--fbe PATH] [-I DIR]... [-o OUT.jsonl] [PACKAGE...]

For every struct of the test schemas (default packages: enums proto protoex test), in
both models, COUNT (default 20) random values with edge cases in every type: min/max
integers, empty and very long strings and collections, non-ASCII text, optional
null/present, large and small decimals, timestamps at both ends, every enum value,
flag combinations. Each value is encoded by the C core (`fbe testee`: encode, then
decode for the value's canonical JSON, then verify for the model size) and written as a
record of the conformance format (docs/TESTEE.md). The same seed gives a
byte-identical file.
"""
import argparse
import base64
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))

INT_RANGES = {
    "byte": (0, 255), "char": (0, 255), "wchar": (0, 0x10FFFF),
    "int8": (-2**7, 2**7 - 1), "uint8": (0, 2**8 - 1),
    "int16": (-2**15, 2**15 - 1), "uint16": (0, 2**16 - 1),
    "int32": (-2**31, 2**31 - 1), "uint32": (0, 2**32 - 1),
    "int64": (-2**63, 2**63 - 1), "uint64": (0, 2**64 - 1),
    "timestamp": (0, 2**64 - 1),
}
TEXTS = ["", "a", "Hello, FBE!", "Привет, мир", "日本語のテキスト", "emoji \U0001F600\U0001F680", "tab\tnew\nline",
         "quote \" backslash \\ slash /", "\u0001\u001f control", "Ünïcödé ñ ß é", "\u00a0nbsp\u2028sep"]


class Generator:
    def __init__(self, rng, structs, enum_values):
        self.rng, self.structs = rng, structs
        self.depth = 0

    def integer(self, kind):
        lo, hi = INT_RANGES[kind]
        r = self.rng.random()
        if r < 0.3:
            return self.rng.choice([lo, hi, 0, 1, lo + 1, hi - 1])
        if r < 0.5:
            return self.rng.randint(max(lo, -100), min(hi, 100))
        return self.rng.randint(lo, hi)

    def text(self):
        r = self.rng.random()
        if r < 0.5:
            return self.rng.choice(TEXTS)
        if r < 0.56:
            return "long " + "x\u00e9\u4e2d" * self.rng.randint(300, 1500)
        alphabet = "abcXYZ019 _-é中Ж\U0001F600\"\\"
        return "".join(self.rng.choice(alphabet) for _ in range(self.rng.randint(1, 40)))

    def blob(self):
        r = self.rng.random()
        n = 0 if r < 0.2 else self.rng.randint(2000, 5000) if r < 0.25 else self.rng.randint(1, 64)
        return base64.b64encode(bytes(self.rng.getrandbits(8) for _ in range(n))).decode()

    def decimal(self):
        r = self.rng.random()
        if r < 0.3:
            return self.rng.choice(["0", "1", "-1", "0.5", "79228162514264337593543950335",
                                    "-79228162514264337593543950335", "0.0000000000000000000000000001",
                                    "-0.0000000000000000000000000001", "123456.123456", "7.9228162514264337593543950335"])
        digits = self.rng.randint(1, 28)
        mantissa = self.rng.randint(0, 10**digits - 1)
        scale = self.rng.randint(0, min(digits, 28))
        text = str(mantissa).rjust(scale + 1, "0")
        if scale:
            text = text[:-scale] + "." + text[-scale:]
        return ("-" if self.rng.random() < 0.5 else "") + text

    def floating(self, kind):
        r = self.rng.random()
        if r < 0.3:
            edges = [0.0, 1.0, -1.0, 0.5, 1e-300 if kind == "double" else 1e-30, 1.7976931348623157e308 if kind == "double"
                     else 3.4028234663852886e38, -2.5e-10, 5e-324 if kind == "double" else 1.401298464324817e-45]
            return self.rng.choice(edges)
        return self.rng.uniform(-1, 1) * 10 ** self.rng.randint(-20, 20)

    def uuid(self):
        h = "%032x" % self.rng.getrandbits(128)
        if self.rng.random() < 0.2:
            h = self.rng.choice(["0" * 32, "f" * 32])
        return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])

    def enum(self, t):
        values = t["values"]
        base = t["base"]
        lo, hi = INT_RANGES.get(base, (0, 2**64 - 1))

        def signed(v):
            return v - 2**64 if lo < 0 and v > hi else v

        if t["kind"] == "flags":
            acc = 0
            for v in values:
                if self.rng.random() < 0.4:
                    acc |= v
            return signed(acc)
        return signed(self.rng.choice(values)) if values else 0

    def collection_size(self, elem):
        if self.depth > 2:
            return self.rng.randint(0, 1)
        r = self.rng.random()
        if r < 0.25:
            return 0
        if r < 0.32 and self.depth <= 1 and elem["kind"] not in ("struct", "string", "bytes", "optional"):
            return self.rng.randint(100, 300)  # a very long collection (of small elements)
        return self.rng.randint(1, 3)

    def fix_nulls(self, sent, got, t):
        """Replaces, in `sent`, every null optional that decodes to a non-null value (a
        null optional with a default reads as the default in the standard model, as in
        the reference) by a drawn value. The number replaced."""
        kind = t["kind"]
        if kind == "struct":
            if not isinstance(sent, dict) or not isinstance(got, dict):
                return 0
            n = 0
            for f in self.structs[t["struct"]]["fields"]:
                name, ft = f["name"], f["type"]
                if ft["kind"] == "optional" and sent.get(name) is None and got.get(name) is not None:
                    sent[name] = self.value(ft["elem"])
                    n += 1
                elif name in sent and name in got:
                    n += self.fix_nulls(sent[name], got[name], ft)
            return n
        if kind == "optional":
            return 0 if sent is None or got is None else self.fix_nulls(sent, got, t["elem"])
        if kind in ("array", "vector", "list", "set") and isinstance(sent, list) and isinstance(got, list):
            return sum(self.fix_nulls(a, b, t["elem"]) for a, b in zip(sent, got))
        if kind in ("map", "hash"):
            if isinstance(sent, dict) and isinstance(got, dict):
                return sum(self.fix_nulls(sent[k], got[k], t["elem"]) for k in sent if k in got)
            if isinstance(sent, list) and isinstance(got, list):
                return sum(self.fix_nulls(a[1], b[1], t["elem"]) for a, b in zip(sent, got))
        return 0

    def value(self, t):
        kind = t["kind"]
        if kind == "bool":
            return self.rng.random() < 0.5
        if kind in INT_RANGES:
            return self.integer(kind)
        if kind in ("float", "double"):
            return self.floating(kind)
        if kind == "decimal":
            return self.decimal()
        if kind == "uuid":
            return self.uuid()
        if kind == "string":
            return self.text()
        if kind == "bytes":
            return self.blob()
        if kind in ("enum", "flags"):
            return self.enum(t)
        if kind == "struct":
            return self.struct(t["struct"])
        if kind == "optional":
            return None if self.rng.random() < 0.35 else self.value(t["elem"])
        self.depth += 1
        try:
            if kind == "array":
                return [self.value(t["elem"]) for _ in range(t["size"])]
            n = self.collection_size(t["elem"])
            if kind in ("vector", "list"):
                return [self.value(t["elem"]) for _ in range(n)]
            if kind == "set":
                items, seen = [], set()
                for _ in range(n):
                    v = self.value(t["elem"])
                    k = json.dumps(v, sort_keys=True)
                    if k not in seen:
                        seen.add(k)
                        items.append(v)
                return items
            if kind in ("map", "hash"):
                pairs, seen = [], set()
                for _ in range(n):
                    k = self.value(t["key"])
                    s = json.dumps(k, sort_keys=True)
                    if s not in seen:
                        seen.add(s)
                        pairs.append((k, self.value(t["elem"])))
                if t["key"]["kind"] == "struct":
                    return [[k, v] for k, v in pairs]
                return {(k if isinstance(k, str) else json.dumps(k)): v for k, v in pairs}
        finally:
            self.depth -= 1
        raise ValueError("unknown kind %r" % kind)

    def struct(self, name):
        self.depth += 1
        try:
            return {f["name"]: self.value(f["type"]) for f in self.structs[name]["fields"]}
        finally:
            self.depth -= 1


class CTestee:
    def __init__(self, fbe, includes):
        self.proc = subprocess.Popen([fbe, "testee"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, encoding="utf-8")
        self.ask({"op": "load", "include": includes})

    def ask(self, request):
        self.proc.stdin.write(json.dumps(request, ensure_ascii=False) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            sys.exit("generate: the C testee died")
        return json.loads(line)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=20240607)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--fbe", default=os.path.join(REPO, "build", "release", "bin", "fbe"))
    ap.add_argument("-I", "--include", action="append", default=[])
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("packages", nargs="*", default=["enums", "proto", "protoex", "test"])
    args = ap.parse_args()
    includes = [os.path.abspath(d) for d in (args.include or [os.path.join(REPO, "schemas")])]
    c = CTestee(args.fbe, includes)
    out = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8", newline="\n")
    total = 0
    for package in args.packages:
        rng = random.Random("%d/%s" % (args.seed, package))
        described = c.ask({"op": "describe", "package": package})
        if not described.get("ok"):
            sys.exit("generate: describe %s: %s" % (package, described.get("error")))
        structs = {s["name"]: s for s in described["structs"]}
        for other in ("proto", "test", "enums", "protoex"):  # structs the fields may reference
            if other != package:
                d = c.ask({"op": "describe", "package": other})
                for s in d.get("structs", []):
                    structs.setdefault(s["name"], s)
        gen = Generator(rng, structs, None)
        for s in described["structs"]:
            full = s["name"]
            short = full[len(package) + 1:]
            for model in ("standard", "final"):
                made = attempts = 0
                while made < args.count:
                    attempts += 1
                    if attempts > args.count * 20:
                        sys.exit("generate: %s %s: too many values the core rejects" % (full, model))
                    value = gen.struct(full)
                    base = {"package": package, "type": short, "model": model}
                    for _ in range(10):
                        enc = c.ask(dict(base, op="encode", json=value))
                        if not enc.get("ok"):
                            break  # a value the core cannot encode (e.g. over a limit): draw another
                        dec = c.ask(dict(base, op="decode", hex=enc["hex"]))
                        if not dec.get("ok") or not gen.fix_nulls(value, dec["json"], {"kind": "struct", "struct": full}):
                            break
                    if not enc.get("ok"):
                        continue
                    again = c.ask(dict(base, op="encode", json=dec.get("json")))
                    if again.get("hex") != enc["hex"]:
                        continue  # the value does not come back to the same bytes: draw another
                    ver = c.ask(dict(base, op="verify", hex=enc["hex"]))
                    if not dec.get("ok") or not ver.get("valid"):
                        sys.exit("generate: %s %s: the core's own bytes do not read back: %s" % (full, model, dec or ver))
                    record = {"id": "gen-%s-%s-%02d-%s" % (package, short, made, model), "schema": package,
                              "type": short, "format": model, "json": dec["json"], "hex": enc["hex"],
                              "size": ver["size"]}
                    out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
                    made += 1
                    total += 1
    c.close()
    if out is not sys.stdout:
        out.close()
    print("generate: %d records (seed %d)" % (total, args.seed), file=sys.stderr)


if __name__ == "__main__":
    main()
