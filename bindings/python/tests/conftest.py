"""Shared fixtures: the repository's schemas and conformance files, loaded schemas."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict, List

import pytest

import fbe

REPO = Path(os.environ.get("FBE_REPO", Path(__file__).resolve().parents[3]))
SCHEMAS = REPO / "schemas"
CONFORMANCE = REPO / "tests" / "conformance"


def records(name: str) -> List[Dict[str, Any]]:
    with open(CONFORMANCE / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture(scope="session")
def proto() -> fbe.Schema:
    return fbe.load(SCHEMAS / "proto.fbe", include=[SCHEMAS])


@pytest.fixture(scope="session")
def test_schema() -> fbe.Schema:
    return fbe.load_package("test", include=[SCHEMAS])


@pytest.fixture(scope="session")
def protoex() -> fbe.Schema:
    return fbe.load_package("protoex", include=[SCHEMAS])


@pytest.fixture(scope="session")
def enums_schema() -> fbe.Schema:
    return fbe.load_package("enums", include=[SCHEMAS])


def readme_account(s: fbe.Schema) -> Any:
    """The reference README's Account: three orders (the benchmark's value)."""
    return s.Account(
        id=1, name="Test", state=s.State.good,
        wallet=s.Balance(currency="USD", amount=1000.0),
        asset=s.Balance(currency="EUR", amount=100.0),
        orders=[
            s.Order(id=1, symbol="EURUSD", side=s.OrderSide.buy, type=s.OrderType.market,
                    price=1.23456, volume=1000.0),
            s.Order(id=2, symbol="EURUSD", side=s.OrderSide.sell, type=s.OrderType.limit,
                    price=1.0, volume=100.0),
            s.Order(id=3, symbol="EURUSD", side=s.OrderSide.buy, type=s.OrderType.stop,
                    price=1.5, volume=10.0),
        ])
