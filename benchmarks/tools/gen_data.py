#!/usr/bin/env python3
"""Writes the benchmark data every harness loads: benchmarks/data/{account,small,large}.json,
each the libfbe JSON form of one value (timestamps: integer nanoseconds since the epoch).

    python3 gen_data.py [-o DIR]

The values come from a fixed seed, so the files are the same on every run and every
machine; they are committed, and ci/bench.sh checks that this script still writes them.
"""
import argparse
import json
import os
import random
import string

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20261130

# The reference README's Account (schemas/proto.fbe), three orders.
ACCOUNT = {
    "id": 1, "name": "Test", "state": 6,
    "wallet": {"currency": "USD", "amount": 1000.0},
    "asset": {"currency": "EUR", "amount": 100.0},
    "orders": [
        {"id": 1, "symbol": "EURUSD", "side": 0, "type": 0, "price": 1.23456, "volume": 1000.0},
        {"id": 2, "symbol": "EURUSD", "side": 1, "type": 1, "price": 1.0, "volume": 100.0},
        {"id": 3, "symbol": "EURUSD", "side": 0, "type": 2, "price": 1.5, "volume": 10.0},
    ],
}


def text(rng: random.Random, low: int, high: int) -> str:
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(rng.randint(low, high)))


def small(rng: random.Random) -> dict:
    # schemas/bench/small.fbe; money has two decimals, birthday whole microseconds.
    return {"name": text(rng, 8, 16), "spouse": rng.random() < 0.5, "siblings": rng.randint(0, 5),
            "money": rng.randint(0, 10_000_000) / 100,
            "birthday": rng.randint(0, 2_000_000_000) * 1_000_000_000 + rng.randint(0, 999_999) * 1000}


def large(rng: random.Random) -> dict:
    # schemas/bench/large.fbe; ids above 32 bits but below 2**53, so every language's
    # JSON reads them exactly.
    return {"ids": [rng.randint(1 << 32, (1 << 53) - 1) for _ in range(1000)],
            "names": [text(rng, 20, 60) for _ in range(100)]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", dest="out", default=os.path.join(HERE, "..", "data"))
    args = ap.parse_args()
    rng = random.Random(SEED)
    os.makedirs(args.out, exist_ok=True)
    for name, value in (("account", ACCOUNT), ("small", small(rng)), ("large", large(rng))):
        with open(os.path.join(args.out, name + ".json"), "w") as f:
            f.write(json.dumps(value, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
