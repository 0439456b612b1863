"""The exception classes, one per status code of the core (FBE_STATUS_LIST in
fbe/error.h), generated from the core's own table. Each also derives from the Python
builtin that describes the same kind of problem, so ``except TypeError`` or
``except KeyError`` work too."""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple, Type

from . import _core
from . import core as _swig

__all__ = [
    "Error",
    "OutOfMemoryError",
    "ArgumentError",
    "SchemaError",
    "NotFoundError",
    "TypeMismatchError",
    "RangeError",
    "MalformedError",
    "JSONError",
    "LimitError",
    "StreamError",
    "UnknownFieldError",
]


class Error(ValueError):
    """Base of every libfbe error: the core's message, the value path where it happened
    (like ``orders[2].symbol``, "" for the root) and the byte offset in the input (None
    when none applies). ``code`` is the core's status code, ``status`` its name."""

    message: str
    code: int
    status: str
    path: str
    offset: Optional[int]

    def __init__(self, message: str, code: int = 0, path: str = "", offset: Optional[int] = None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = _swig.fbe_status_name(code)
        self.path = path
        self.offset = offset

    def __str__(self) -> str:  # the core's fbe_error_format
        text = self.message
        if self.path:
            text += f" at '{self.path}'"
        if self.offset is not None:
            text += f" (offset {self.offset})"
        return text

    def __reduce__(self):  # type: ignore[override]
        return (type(self), (self.message, self.code, self.path, self.offset))


# status name -> (class name, extra builtin bases)
_NAMES: Dict[str, Tuple[str, Tuple[type, ...]]] = {
    "FBE_ERR_NOMEM": ("OutOfMemoryError", (MemoryError,)),
    "FBE_ERR_ARGUMENT": ("ArgumentError", ()),
    "FBE_ERR_SCHEMA": ("SchemaError", ()),
    "FBE_ERR_NOT_FOUND": ("NotFoundError", (KeyError, AttributeError)),
    "FBE_ERR_TYPE": ("TypeMismatchError", (TypeError,)),
    "FBE_ERR_RANGE": ("RangeError", (OverflowError,)),
    "FBE_ERR_MALFORMED": ("MalformedError", ()),
    "FBE_ERR_JSON": ("JSONError", ()),
    "FBE_ERR_LIMIT": ("LimitError", ()),
    "FBE_ERR_IO": ("StreamError", ()),
}

_by_code: Dict[int, Type[Error]] = {0: Error}
_code = 1
while True:
    _status = _swig.fbe_status_name(_code)
    if _status == "FBE_ERR_UNKNOWN":
        break
    _name, _extra = _NAMES.get(_status, ("".join(p.title() for p in _status[8:].split("_")) + "Error", ()))
    _doc = f"{_swig.fbe_status_text(_code).capitalize()} ({_status})."
    _by_code[_code] = type(_name, (Error,) + _extra, {"__doc__": _doc, "__module__": "fbe"})
    _code += 1

OutOfMemoryError: Type[Error] = _by_code[_swig.FBE_ERR_NOMEM]
ArgumentError: Type[Error] = _by_code[_swig.FBE_ERR_ARGUMENT]
NotFoundError: Type[Error] = _by_code[_swig.FBE_ERR_NOT_FOUND]
TypeMismatchError: Type[Error] = _by_code[_swig.FBE_ERR_TYPE]
RangeError: Type[Error] = _by_code[_swig.FBE_ERR_RANGE]
MalformedError: Type[Error] = _by_code[_swig.FBE_ERR_MALFORMED]
JSONError: Type[Error] = _by_code[_swig.FBE_ERR_JSON]
LimitError: Type[Error] = _by_code[_swig.FBE_ERR_LIMIT]
StreamError: Type[Error] = _by_code[_swig.FBE_ERR_IO]


class SchemaError(_by_code[_swig.FBE_ERR_SCHEMA]):  # type: ignore[misc,valid-type]
    """A schema that does not load; ``diagnostics`` lists every error and warning as
    ``file:line:col: message``."""

    diagnostics: List[str]

    def __init__(self, message: str, code: int = _swig.FBE_ERR_SCHEMA, path: str = "",
                 offset: Optional[int] = None, diagnostics: Optional[List[str]] = None):
        super().__init__(message, code, path, offset)
        self.diagnostics = list(diagnostics or [])

    def __reduce__(self):  # type: ignore[override]
        return (type(self), (self.message, self.code, self.path, self.offset, self.diagnostics))


SchemaError.__module__ = "fbe"
_by_code[_swig.FBE_ERR_SCHEMA] = SchemaError


class UnknownFieldError(NotFoundError, TypeError):  # type: ignore[misc,valid-type]
    """A keyword argument or dict key that names no field of the struct."""


UnknownFieldError.__module__ = "fbe"
Error.__module__ = "fbe"

_core.set_error_classes({**_by_code, _core.UNKNOWN_FIELD: UnknownFieldError})
