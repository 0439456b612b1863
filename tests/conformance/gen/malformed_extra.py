#!/usr/bin/env python3
"""Writes tests/conformance/malformed-extra.jsonl: bytes that break the value rules
(Python standard library only).

  malformed_extra.py [-o OUT.jsonl] [--check]

Every record starts from a valid record of vectors.jsonl (its `base`) and changes a few
bytes of one value (its `mutation`): a string that is not UTF-8 (overlong forms, UTF-16
surrogates, code points above U+10FFFF, sequences cut short, stray continuation bytes,
bytes UTF-8 never uses) or a decimal with a scale above 28 or a reserved bit set
(FORMAT.md 3.2). The value is found by its own bytes (a string's length and text, a
decimal's 16 bytes, worked out here from the JSON), never by a hand-written offset.
Every record has "verify": false: verify refuses it, and so does decode, in every
implementation alike. --check compares the output with the committed file instead of
writing it (exit 1 when they differ).
"""
import argparse
import decimal
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CONFORMANCE = os.path.dirname(HERE)
OUT = os.path.join(CONFORMANCE, "malformed-extra.jsonl")

# (bytes that replace Account.name's text "Test", what they are): 4 bytes each, so that
# no length changes.
UTF8_CASES = [
    (b"T\xc0\xaft", "an overlong 2-byte form (C0 AF)"),
    (b"\xe0\x80\xafT", "an overlong 3-byte form (E0 80 AF)"),
    (b"\xf0\x80\x80\xaf", "an overlong 4-byte form (F0 80 80 AF)"),
    (b"T\xed\xa0\x80", "a UTF-16 high surrogate U+D800 (ED A0 80)"),
    (b"T\xed\xbf\xbf", "a UTF-16 low surrogate U+DFFF (ED BF BF)"),
    (b"\xf4\x90\x80\x80", "a code point above U+10FFFF (F4 90 80 80)"),
    (b"\xf5\x80\x80\x80", "a lead byte above U+10FFFF (F5)"),
    (b"Te\xe2\x82", "a 3-byte sequence cut short by the end of the string (E2 82)"),
    (b"T\xe2\x82t", "a 3-byte sequence cut short by an ASCII byte (E2 82 74)"),
    (b"Tes\x80", "a stray continuation byte (80)"),
    (b"T\xffst", "the byte FF, which UTF-8 never uses"),
]


def load(name):
    with open(os.path.join(CONFORMANCE, name), encoding="utf-8") as f:
        return {r["id"]: r for r in map(json.loads, filter(str.strip, f))}


def string_bytes(text):
    data = text.encode("utf-8")
    return len(data).to_bytes(4, "little") + data


def decimal_bytes(text):
    sign, digits, exponent = decimal.Decimal(text).as_tuple()
    coefficient = int("".join(map(str, digits)) or "0")
    scale = -exponent if exponent < 0 else 0
    coefficient *= 10 ** max(exponent, 0)
    return coefficient.to_bytes(12, "little") + b"\0\0" + bytes([scale, 0x80 if sign else 0])


def find(data, what, occurrence=1):
    at = -1
    for _ in range(occurrence):
        at = data.find(what, at + 1)
        if at < 0:
            sys.exit("malformed_extra: value not found in its base record")
    if occurrence == 1 and data.find(what, at + 1) >= 0:
        sys.exit("malformed_extra: value is not unique in its base record")
    return at


def records():
    vectors = load("vectors.jsonl")
    out = []

    def add(base_id, data, mutation):
        base = vectors[base_id]
        out.append({"id": "ext-mal-%03d" % (len(out) + 1), "schema": base["schema"], "type": base["type"],
                    "format": base["format"], "hex": data.hex(), "size": len(data), "verify": False,
                    "mutation": mutation, "base": base_id})

    # strings that are not UTF-8: Account.name ("Test"), both models
    for model in ("standard", "final"):
        base_id = "pub-proto-Account-readme-" + model
        data = bytes.fromhex(vectors[base_id]["hex"])
        at = find(data, string_bytes("Test")) + 4
        for text, what in UTF8_CASES:
            mutated = data[:at] + text + data[at + 4:]
            add(base_id, mutated, "name: %s" % what)
    # in a collection element (orders[1].symbol "EURUSD"), a 2-byte character cut short
    # (StructSimple.f32 "Привет"), an optional string (StructOptional.f146)
    for model in ("standard", "final"):
        base_id = "pub-proto-Account-readme-" + model
        data = bytearray.fromhex(vectors[base_id]["hex"])
        at = find(bytes(data), string_bytes("EURUSD"), occurrence=2) + 4
        data[at + 3:at + 6] = b"\xed\xb0\x80"
        add(base_id, bytes(data), "orders[1].symbol: a UTF-16 low surrogate U+DC00 (ED B0 80)")
        base_id = "pub-test-StructSimple-filled-" + model
        data = bytearray.fromhex(vectors[base_id]["hex"])
        at = find(bytes(data), string_bytes("Привет")) + 4
        data[at + 1] = 0x28
        add(base_id, bytes(data), "f32: a 2-byte sequence cut short (D0 28)")
        base_id = "pub-test-StructOptional-filled-" + model
        data = bytearray.fromhex(vectors[base_id]["hex"])
        at = find(bytes(data), string_bytes("Initial string!")) + 4
        data[at] = 0xc1
        add(base_id, bytes(data), "f146: an overlong 2-byte form (C1 6E)")
    # decimals: StructSimple.f29 (-987654.321, scale 3, negative), StructOptional.f143
    for model in ("standard", "final"):
        base_id = "pub-test-StructSimple-filled-" + model
        data = bytes.fromhex(vectors[base_id]["hex"])
        at = find(data, decimal_bytes(vectors[base_id]["json"]["f29"]))
        for byte, value, what in ((14, 29, "scale 29"), (14, 255, "scale 255"),
                                  (12, 0x01, "reserved byte 12 = 01"), (13, 0x80, "reserved byte 13 = 80"),
                                  (15, 0x81, "sign byte 81 (a reserved bit besides the sign)"),
                                  (15, 0x01, "sign byte 01 (a reserved bit, no sign)")):
            mutated = bytearray(data)
            mutated[at + byte] = value
            add(base_id, bytes(mutated), "f29: decimal %s" % what)
        base_id = "pub-test-StructOptional-filled-" + model
        data = bytearray.fromhex(vectors[base_id]["hex"])
        at = find(bytes(data), decimal_bytes(vectors[base_id]["json"]["f143"]))
        data[at + 14] = 40
        add(base_id, bytes(data), "f143: decimal scale 40")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", default=OUT, help="output file (default: %(default)s)")
    ap.add_argument("--check", action="store_true", help="compare with the output file instead of writing it")
    args = ap.parse_args()
    text = "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in records())
    if args.check:
        with open(args.o, encoding="utf-8") as f:
            if f.read() != text:
                sys.exit("malformed_extra: %s is not what the generator writes; run it again" % args.o)
        return
    with open(args.o, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
