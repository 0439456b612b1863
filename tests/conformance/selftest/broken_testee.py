#!/usr/bin/env python3
"""A deliberately broken testee for the runner's self-test: proxies every request to a
real testee (the command after MODE) and breaks its answers.

  broken_testee.py MODE COMMAND...
  MODE: none           proxies unchanged
        wrong-bytes    flips the last byte of every encode/stream-encode result
        wrong-values   changes the first number of every decoded value
        crash          exits (status 3) on the first encode request
        hang           stops answering on the first decode request
        trusted-crash  exits (status 4) on the first trusted decode request (the decoder
                       alone, which the runner asks to read malformed bytes)
        int-off-by-one decodes 18446744073709551615 (2^64-1) as 18446744073709551614
        negative-zero  decodes every 0.0 as -0.0
        positive-zero  decodes every -0.0 as 0.0
        map-order      decodes every JSON object with its members reversed (structs and maps)
        decimal-scale  decodes every decimal-looking string "1.5" as "1.50" (the same value)
        non-utf8       answers the first decode request of the run (a marker file in
                       $BROKEN_STATE) with a line that is not UTF-8, then the real answer
                       too (a runner that does not restart the testee reads it for the
                       next request)
        whole-only     a receiver that works only when fed whole: a stream-decode with
                       "chunks" or "chunk_size" decodes only the first piece
        wrong-status   answers every error with another status (FBE_ERR_TYPE for
                       FBE_ERR_RANGE, FBE_ERR_RANGE for every other)
        no-status      answers every error without its status
        native-as-json ignores "native": true (encodes from JSON on both paths)
        no-native      answers "unknown op" to an encode with "native": true
        wrong-text     answers text with the first "=" written " = "
        no-text        answers "unknown op" to text
        wrong-view     answers a decode or text with "view": true with the first number of
                       the value changed, the text's first "=" written " = "
"""
import json
import math
import os
import re
import subprocess
import sys
import time

DECODES = ("decode", "stream-decode")


def bump_first_number(value):
    """(new value, changed?) with the first number (not bool) in the value changed."""
    if isinstance(value, bool):
        return value, False
    if isinstance(value, (int, float)):
        return value + 1, True
    if isinstance(value, list):
        for i, item in enumerate(value):
            new, changed = bump_first_number(item)
            if changed:
                return value[:i] + [new] + value[i + 1:], True
    if isinstance(value, dict):
        for key, item in value.items():
            new, changed = bump_first_number(item)
            if changed:
                return dict(value, **{key: new}), True
    return value, False


def rewrite(value, leaf):
    """The value with every non-container replaced by leaf(it) and objects by leaf(object)."""
    if isinstance(value, list):
        return leaf([rewrite(v, leaf) for v in value])
    if isinstance(value, dict):
        return leaf({k: rewrite(v, leaf) for k, v in value.items()})
    return leaf(value)


def is_zero(v, sign):
    return type(v) is float and v == 0.0 and math.copysign(1.0, v) == sign


LEAVES = {
    "int-off-by-one": lambda v: 2**64 - 2 if type(v) is int and v == 2**64 - 1 else v,
    "negative-zero": lambda v: -0.0 if is_zero(v, 1.0) else v,
    "positive-zero": lambda v: 0.0 if is_zero(v, -1.0) else v,
    "map-order": lambda v: dict(reversed(list(v.items()))) if isinstance(v, dict) else v,
    "decimal-scale": lambda v: v + "0" if isinstance(v, str) and re.fullmatch(r"-?[0-9]+\.[0-9]+", v) else v,
}


def first_piece(request):
    """A stream-decode request for only the first piece its chunking would feed."""
    data = request["hex"]
    n = request["chunks"][0] if request.get("chunks") else request["chunk_size"]
    return dict({k: v for k, v in request.items() if k not in ("chunks", "chunk_size")}, hex=data[:2 * n])


def first_decode_of_run():
    marker = os.path.join(os.environ["BROKEN_STATE"], "non-utf8-sent")
    if os.path.exists(marker):
        return False
    open(marker, "w").close()
    return True


def main():
    mode, command = sys.argv[1], sys.argv[2:]
    real = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    for line in sys.stdin:
        request = json.loads(line)
        op = request.get("op")
        if mode == "crash" and op == "encode":
            sys.exit(3)
        if mode == "hang" and op == "decode":
            time.sleep(3600)
        if mode == "trusted-crash" and op == "decode" and request.get("trusted") is True:
            sys.exit(4)
        if mode == "whole-only" and op == "stream-decode" and ("chunks" in request or "chunk_size" in request):
            line = json.dumps(first_piece(request)) + "\n"
        if mode == "native-as-json" and op == "encode":
            line = json.dumps({k: v for k, v in request.items() if k != "native"}) + "\n"
        if (mode == "no-native" and op == "encode" and request.get("native") is True) or (
                mode == "no-text" and op == "text"):
            sys.stdout.write('{"ok":false,"error":"unknown op"}\n')
            sys.stdout.flush()
            continue
        real.stdin.write(line)
        real.stdin.flush()
        response = json.loads(real.stdout.readline())
        if mode == "wrong-bytes" and response.get("hex") and op in ("encode", "stream-encode"):
            h = response["hex"]
            response["hex"] = h[:-2] + "%02x" % (int(h[-2:], 16) ^ 0xFF)
        if mode == "wrong-status" and "status" in response:
            response["status"] = "FBE_ERR_TYPE" if response["status"] == "FBE_ERR_RANGE" else "FBE_ERR_RANGE"
        if mode == "no-status":
            response.pop("status", None)
        if mode == "wrong-text" and op == "text" and "text" in response:
            response["text"] = response["text"].replace("=", " = ", 1)
        if mode == "wrong-view" and request.get("view") is True:
            if "json" in response:
                response["json"], _ = bump_first_number(response["json"])
            if "text" in response:
                response["text"] = response["text"].replace("=", " = ", 1)
        if mode == "wrong-values" and "json" in response:
            response["json"], _ = bump_first_number(response["json"])
        if mode in LEAVES and op in DECODES:
            for key in ("json", "messages"):
                if key in response:
                    response[key] = rewrite(response[key], LEAVES[mode])
        if mode == "non-utf8" and op == "decode" and first_decode_of_run():
            sys.stdout.buffer.write(b'{"ok":true,"json":"caf\xe9"}\n')  # Latin-1, not UTF-8
            sys.stdout.buffer.flush()
        sys.stdout.write(json.dumps(response) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
