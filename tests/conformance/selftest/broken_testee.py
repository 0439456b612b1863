#!/usr/bin/env python3
"""A deliberately broken testee for the runner's self-test: proxies every request to a
real testee (the command after MODE) and breaks its answers.

  broken_testee.py MODE COMMAND...
  MODE: wrong-bytes  flips the last byte of every encode/stream-encode result
        wrong-values changes the first number of every decoded value
        crash        exits (status 3) on the first encode request
        hang         stops answering on the first decode request
"""
import json
import subprocess
import sys
import time


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
        real.stdin.write(line)
        real.stdin.flush()
        response = json.loads(real.stdout.readline())
        if mode == "wrong-bytes" and response.get("hex") and op in ("encode", "stream-encode"):
            h = response["hex"]
            response["hex"] = h[:-2] + "%02x" % (int(h[-2:], 16) ^ 0xFF)
        if mode == "wrong-values" and "json" in response:
            response["json"], _ = bump_first_number(response["json"])
        sys.stdout.write(json.dumps(response) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
