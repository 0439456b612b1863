"""The Python driver of the hostile suite (tests/hostile/README.md): runs ONE operation
with the default limits and prints one JSON line, {"result": "ok", "detail": ...} or
{"result": "error", "type": class, "status": the core's status or null, "message": ...}.

    python driver.py OP SCHEMA TYPE INPUT [final]

OP: decode, verify, reencode (decode, then encode: the same bytes), from_json,
receive (TYPE is the protocol's package; INPUT fed in 64 KiB chunks), load (INPUT is the
schema file), encode_chain / deep_hash / deep_eq / deep_repr / deep_json (INPUT is the
number of Chain bodies the program builds; TYPE the chain's struct)."""
import json
import sys

import fbe

CHUNK = 65536


def build_chain(cls, levels):
    """levels bodies linked by `next`, built from the innermost out (no recursion)."""
    value = cls(v=levels - 1)
    for i in range(levels - 2, -1, -1):
        value = cls(v=i, next=value)
    return value


def run(op, schema_path, type_name, input_path, final):
    if op == "load":
        fbe.load(input_path)
        return "loaded"
    schema = fbe.load(schema_path)
    cls = schema[type_name] if op != "receive" else None
    if op in ("encode_chain", "deep_hash", "deep_eq", "deep_repr", "deep_json"):
        levels = int(input_path)
        value = build_chain(cls, levels)
        if op == "encode_chain":
            return "%d bytes" % len(value.encode())
        if op == "deep_hash":  # a struct without [key] fields is unhashable (README "Equality")
            try:
                return "hash %d" % hash(value)
            except TypeError as e:
                return "unhashable: %s" % e
        if op == "deep_eq":
            return "equal %s" % (value == build_chain(cls, levels))
        if op == "deep_repr":
            return "%d characters" % len(repr(value))
        return "%d characters" % len(value.to_json())
    with open(input_path, "rb") as f:
        data = f.read()
    if op == "decode":
        cls.decode(data, final=final)
        return "decoded"
    if op == "verify":
        return "model size %d" % schema.validate(cls, data, final=final)
    if op == "reencode":
        again = cls.decode(data, final=final).encode(final=final)
        if again != data:
            raise AssertionError("re-encoding gave other bytes (%d, not %d)" % (len(again), len(data)))
        return "same %d bytes" % len(again)
    if op == "from_json":
        cls.from_json(data.decode())
        return "read"
    if op == "receive":
        count = [0]

        def handler(message):
            count[0] += 1

        receiver = fbe.Receiver(schema, handler, package=type_name, final=final)
        view = memoryview(data)
        for at in range(0, len(data), CHUNK):
            receiver.feed(view[at:at + CHUNK])
        return "%d messages, %d bytes pending" % (count[0], receiver.pending)
    raise SystemExit("unknown op " + op)


def main():
    op, schema_path, type_name, input_path = sys.argv[1:5]
    final = sys.argv[5:] == ["final"]
    try:
        line = {"result": "ok", "detail": run(op, schema_path, type_name, input_path, final)}
    except (fbe.Error, RecursionError, MemoryError, AssertionError) as e:
        line = {"result": "error", "type": type(e).__name__,
                "status": getattr(e, "status", None), "message": str(e)}
    sys.stdout.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
