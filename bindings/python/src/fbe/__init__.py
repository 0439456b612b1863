"""fbe: Fast Binary Encoding with .fbe schemas loaded at run time.

A thin skin over the libfbe C core: SWIG wraps its schema API, and a hand-written C
walk turns Python objects into messages and back, crossing into C once per message.

    import fbe
    schema = fbe.load("schemas/proto.fbe", include=["schemas"])
    Account = schema.Account
    acc = Account(id=1, name="Test", wallet=schema.Balance(currency="USD", amount=1000.0))
    data = acc.encode()                  # standard model; encode(final=True): final model
    assert Account.decode(data) == acc   # deep equality (the core's); hash and < by [key] fields
    print(acc)                           # the text form: Account(id=1,name="Test",...)
"""
from __future__ import annotations

try:
    from . import _core

    _core.init_walk(_core)
except ImportError as _exc:  # no pure-Python fallback, on purpose
    raise ImportError(
        "fbe: the compiled extension fbe._core is missing or cannot be loaded "
        f"({_exc}). Reinstall with `pip install` so that it is built; fbe has no "
        "pure-Python fallback."
    ) from _exc

from . import core as _swig
from ._errors import (
    ArgumentError,
    Error,
    JSONError,
    LimitError,
    MalformedError,
    NotFoundError,
    OutOfMemoryError,
    RangeError,
    RejectedError,
    ResetError,
    SchemaError,
    StreamError,
    TimeoutError,
    TypeMismatchError,
    UnknownFieldError,
)
from ._enum import Enum, EnumType, Flags
from ._protocol import Frame, Proxy, Receiver, Sender
from ._client import AsyncClient, AsyncServer, Client, Server, open_client, start_server
from ._schema import Limits, Package, Schema, Struct, View, ViewList, asdict, load, load_package, loads

__version__ = "0.1.0"
#: Version of the C core compiled into the extension.
core_version: str = _swig.fbe_version()

__all__ = [
    "ArgumentError",
    "AsyncClient",
    "AsyncServer",
    "Client",
    "Frame",
    "Proxy",
    "RejectedError",
    "ResetError",
    "Server",
    "TimeoutError",
    "open_client",
    "start_server",
    "Enum",
    "EnumType",
    "Error",
    "JSONError",
    "LimitError",
    "Limits",
    "Flags",
    "MalformedError",
    "NotFoundError",
    "OutOfMemoryError",
    "Package",
    "RangeError",
    "Receiver",
    "Schema",
    "SchemaError",
    "Sender",
    "StreamError",
    "Struct",
    "TypeMismatchError",
    "UnknownFieldError",
    "View",
    "ViewList",
    "asdict",
    "core_version",
    "load",
    "load_package",
    "loads",
]
