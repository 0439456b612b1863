#!/usr/bin/env python3
"""Regenerates the seed corpora tests/fuzz/corpus/TARGET/ from the conformance vectors
(tests/conformance/*.jsonl) and the test schemas (schemas/*.fbe). Small on purpose: a
few dozen files per target, models of at most MAX_MODEL bytes; libFuzzer grows its own
working corpus from these (ci/fuzz.sh keeps that one in the build tree).

    python3 tests/fuzz/make_corpus.py     # rewrites tests/fuzz/corpus/

The input formats are the targets' own (see the comment at the top of each
tests/fuzz/fuzz_TARGET.c); the struct index table is read from fuzz_common.c."""
import json
import os
import re
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CONFORMANCE = os.path.join(ROOT, "tests", "conformance")
SCHEMAS = os.path.join(ROOT, "schemas")
OUT = os.path.join(HERE, "corpus")
MAX_MODEL = 1400  # bytes: keeps every committed seed small
PER_KIND = {"ok": 1, "mal": 8, "ver": 6}  # seeds per (struct, model), malformed, versioning


def struct_table():
    """The selector table of fuzz_common.c: full name -> index."""
    text = open(os.path.join(HERE, "fuzz_common.c")).read()
    names = re.findall(r'/\* (\d+) \*/ "([A-Za-z0-9_.]+)"', text)
    return {name: int(index) for index, name in names}


def records(name):
    with open(os.path.join(CONFORMANCE, name)) as f:
        return [json.loads(line) for line in f if line.strip()]


def write(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def schema_text(package):
    with open(os.path.join(SCHEMAS, package + ".fbe"), "rb") as f:
        return f.read()


def main():
    table = struct_table()
    shutil.rmtree(OUT, ignore_errors=True)
    vectors = records("vectors.jsonl")
    malformed = records("malformed.jsonl")
    versioning = records("versioning.jsonl")

    # decode_standard / decode_final: selector byte + model, from every kind of record.
    taken = {}
    models = [(r, r["schema"], r["type"]) for r in vectors + malformed]
    models += [(r, r["reader_schema"], r["reader_type"]) for r in versioning]
    for r, schema, type_ in models:
        fmt = r["format"].replace("-versioning", "")
        if fmt not in ("standard", "final"):
            continue
        full = schema + "." + type_
        data = bytes.fromhex(r["hex"])
        kind = "mal" if "mutation" in r else "ver" if "reader_type" in r else "ok"
        key = (full, fmt) if kind == "ok" else (kind, fmt)
        if full not in table or len(data) > MAX_MODEL or taken.get(key, 0) >= PER_KIND[kind]:
            continue
        taken[key] = taken.get(key, 0) + 1
        write("decode_" + fmt, r["id"], bytes([table[full]]) + data)

    # A crafted one: 200 pointers of a StructVector's f9 share one StructSimple body.
    # Each pointer is charged the whole value it stands for (codec.h: the memory
    # budget), so verify refuses it, as decode does.
    simple = bytes.fromhex(next(r for r in vectors if r["id"] ==
                                "pub-test-StructSimple-default-standard")["hex"])
    n, body_at, block_at = 200, 8, 56
    shared_at = block_at + 4 + 4 * n
    body = struct.pack("<II", 48, 130) + bytes(32) + struct.pack("<I", block_at - body_at) + bytes(4)
    block = struct.pack("<I", n) + struct.pack("<I", shared_at - body_at) * n
    model = struct.pack("<I", 8) + body + block + simple[8:]  # simple's body and children
    model = struct.pack("<I", len(model) + 4) + model
    write("decode_standard", "crafted-shared-bodies-over-budget",
          bytes([table["test.StructVector"]]) + model)

    # The budget's shapes (tests/fuzz/schemas/budget.fbe): empty structs in the final
    # model (no byte each: only the budget bounds their count) and bodies shared by many
    # pointers; selector + 3 x count picks the max_memory 4096 limits of the targets.
    count = len(table)

    def empties_final(n):
        fields = struct.pack("<I", n) + struct.pack("<I", 0) + struct.pack("<I", 0) + b"\x00"
        fields += struct.pack("<I", 0)  # pad: no bytes
        return struct.pack("<II", 8 + len(fields), 2) + fields

    write("decode_final", "crafted-empty-structs-2m", bytes([table["budget.Empties"]]) + empties_final(2000000))
    write("decode_final", "crafted-empty-structs-60k", bytes([table["budget.Empties"]]) + empties_final(60000))

    def fanout_standard(a, b):
        # Fanout body [21]: lists -> a pointers to ONE Empties body, whose items -> b
        # pointers to ONE Empty body (its fixed array too); the rest empty or absent.
        top, lists = 8, 8 + 21
        mid = lists + 4 + 4 * a
        items = mid + 45
        empty = items + 4 + 4 * b
        out = struct.pack("<II", 21, 3) + struct.pack("<II", lists - top, 0) + bytes(5)
        out += struct.pack("<I", a) + struct.pack("<I", mid - top) * a
        out += struct.pack("<II", 45, 2) + struct.pack("<III", items - mid, 0, 0)
        out += struct.pack("<I", empty - mid) * 4 + bytes(5) + struct.pack("<I", 0)
        out += struct.pack("<I", b) + struct.pack("<I", empty - mid) * b
        out += struct.pack("<II", 8, 1)
        return struct.pack("<II", 8 + len(out), 8) + out

    fan = fanout_standard(20, 20)
    write("decode_standard", "crafted-fanout-shared", bytes([table["budget.Fanout"]]) + fan)
    write("decode_standard", "crafted-fanout-over-small-budget",
          bytes([table["budget.Fanout"] + 3 * count]) + fan)

    # json: selector byte + the record's JSON text (json_form when the record has one).
    seen = set()
    for r in vectors:
        full = r["schema"] + "." + r["type"]
        if full not in table or "json" not in r:
            continue
        text = json.dumps(r["json"], separators=(",", ":")).encode()
        if len(text) > MAX_MODEL or (full, text) in seen:
            continue
        seen.add((full, text))
        write("json", r["id"].replace("-standard", "").replace("-final", ""),
              bytes([table[full]]) + text)

    # schema: the test schemas, plus small ones for the forms they do not use.
    for package in ("proto", "protoex", "enums", "test"):
        write("schema", package + ".fbe", schema_text(package))
    small = {
        "forms.fbe": b"package forms offset 50\nimport proto\n"
                     b"enum E : int16 { a = -1; b; c = 0x10; }\n"
                     b"flags F : uint8 { x = 1; y = 2; xy = x | y; }\n"
                     b"struct Base(+1) { [key] int32 id = 7; string s = \"x\"; }\n"
                     b"struct Node : Base { Node? next; Node[] kids; E e = E.b; F f = F.xy;\n"
                     b"  byte[3] a; decimal d = 1.5; uuid u = uuid4; timestamp t = utc;\n"
                     b"  double{string} m; proto.Order<E> o; bytes b; wchar w = 'q'; }\n"
                     b"message M { Node n; float x = 2.5; bool? flag = true; }\n",
        "errors.fbe": b"package errors\nstruct A { B b; }\nstruct B { A a; }\n"
                      b"enum E { x = 1; x = 2; }\nstruct C { int32[0] z; unknown u; }\n",
        "empty.fbe": b"package empty\n",
        # collections of empty structs and bodies shared by many pointers (the budget)
        "budget.fbe": open(os.path.join(HERE, "schemas", "budget.fbe"), "rb").read(),
        # constant defaults stored in 16-byte optional elements (string, decimal, uuid)
        "optional_defaults.fbe": b"package optdef\n"
                                 b"struct S { string? a = \"abc\"; string? b = \"defgh\";\n"
                                 b"  decimal? c = 1.5; uuid? d = \"123e4567-e89b-12d3-a456-426655440000\";\n"
                                 b"  int64? e = min; double? f = -0.5; }\n"
                                 b"message M : S { uuid? g = uuid0; string? h = \"\"; }\n",
    }
    for name, text in small.items():
        write("schema", name, text)

    # schema_bytes: schema text, NUL, selector (struct index * 2 + final), model.
    for r in vectors:
        fmt = r["format"]
        if r["schema"] not in ("proto", "protoex", "enums") or fmt not in ("standard", "final"):
            continue
        if not r["id"].endswith(("readme-" + fmt, "filled-" + fmt, "mixed-" + fmt)):
            continue
        order = {"proto": ["Order", "Balance", "Account", "OrderMessage", "BalanceMessage",
                           "AccountMessage"],
                 "protoex": ["Order", "Balance", "Account", "OrderMessage", "BalanceMessage",
                             "AccountMessage"],
                 "enums": ["Enums"]}[r["schema"]]
        selector = order.index(r["type"]) * 2 + (fmt == "final")
        write("schema_bytes", r["id"], schema_text(r["schema"]) + b"\0" + bytes([selector]) +
              bytes.fromhex(r["hex"]))
    forms = small["forms.fbe"]
    write("schema_bytes", "forms-empty-standard", forms + b"\0\x04")
    write("schema_bytes", "forms-empty-final", forms + b"\0\x05")

    # receiver: config, chunk-size count, chunk sizes, stream.
    #   config bits 0-1 package (0 proto, 1 protoex, 2 test), bit 2 final, bits 3-4 stops
    configs = [(b"\x00", b"\x00"), (b"\x08", b"\x01\x01"), (b"\x10", b"\x03\x07\x00\x1d"),
               (b"\x02", b"\x02\x40\x05")]
    for r in vectors:
        if not r["format"].startswith("stream-"):
            continue
        final = r["format"] == "stream-final"
        package = {"proto": 0, "protoex": 1}[r["schema"]]
        stream = bytes.fromhex(r["hex"])
        for i, (config, chunks) in enumerate(configs):
            c = (config[0] & ~3 & ~4) | package | (4 if final else 0)
            if i == 3:
                c = (c & ~3) | 2  # the test package receives proto's messages
            write("receiver", "%s-%d" % (r["id"], i), bytes([c]) + chunks + stream)
    for name, total in sorted(count_files().items()):
        print("%-16s %3d files" % (name, total))


def count_files():
    return {d: len(os.listdir(os.path.join(OUT, d))) for d in os.listdir(OUT)}


if __name__ == "__main__":
    main()
