"""The exception classes, one per status code of the core, made from the core's status
table (FBE_STATUS_LIST in fbe/error.h): ``fbe_status_class(code)`` names each class and
``fbe_status_parent(code)`` is the status it derives from (FBE_OK's class, "Error", is
the root). Each also derives from the Python builtin that describes the same kind of
problem, so ``except TypeError`` or ``except KeyError`` work too: that is Python's idiom,
keyed here by status name. ``str()`` of any of them is the core's ``fbe_error_format``
text, "message at 'path' (offset N)", made by the core for the errors the C walk raises
and through ``_core.error_text`` for the ones Python code raises."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from . import _core
from . import core as _swig

# Python's own builtin bases, by status name.
_BUILTINS: Dict[str, Tuple[type, ...]] = {
    "FBE_OK": (ValueError,),
    "FBE_ERR_NOMEM": (MemoryError,),
    "FBE_ERR_NOT_FOUND": (KeyError, AttributeError),
    "FBE_ERR_TYPE": (TypeError,),
    "FBE_ERR_RANGE": (OverflowError,),
    "FBE_ERR_UNKNOWN_FIELD": (TypeError,),
    "FBE_ERR_TIMEOUT": (TimeoutError,),  # the builtin: `except TimeoutError` catches it too
}


def _init(self: Any, message: str, code: Optional[int] = None, path: str = "",
          offset: Optional[int] = None) -> None:
    BaseException.__init__(self, _core.error_text(message, path, offset))
    self.message = message
    self.code = type(self)._fbe_code if code is None else code
    self.status = _swig.fbe_status_name(self.code)
    self.path = path
    self.offset = offset


def _reduce(self: Any) -> Tuple[Any, ...]:
    return (type(self), (self.message, self.code, self.path, self.offset))


def _schema_init(self: Any, message: str, code: Optional[int] = None, path: str = "",
                 offset: Optional[int] = None, diagnostics: Optional[List[str]] = None) -> None:
    _init(self, message, code, path, offset)
    self.diagnostics = list(diagnostics or [])


def _schema_reduce(self: Any) -> Tuple[Any, ...]:
    return (type(self), (self.message, self.code, self.path, self.offset, self.diagnostics))


def _rejected_init(self: Any, message: Any, code: Optional[int] = None, path: str = "",
                   offset: Optional[int] = None, reject: Any = None) -> None:
    if not isinstance(message, str) and reject is None:  # RejectedError(schema.Reject(...))
        message, reject = str(message), message
    _init(self, message, code, path, offset)
    self.reject = reject


def _rejected_reduce(self: Any) -> Tuple[Any, ...]:
    return (type(self), (self.message, self.code, self.path, self.offset, self.reject))


# The root's methods (str(): BaseException's, the text, even for a KeyError), and the
# schema error's diagnostics.
_METHODS: Dict[str, Dict[str, Any]] = {
    "FBE_OK": {
        "__doc__": """Base of every libfbe error: the core's message, the value path where it
    happened (like ``orders[2].symbol``, "" for the root) and the byte offset in the input
    (None when none applies). ``code`` is the core's status code (by default the class's
    own), ``status`` its name; str() is the core's text of the three.""",
        "__init__": _init, "__str__": BaseException.__str__, "__reduce__": _reduce,
    },
    "FBE_ERR_SCHEMA": {
        "__doc__": """A schema that does not load; ``diagnostics`` lists every error and
    warning as ``file:line:col: message``.""",
        "__init__": _schema_init, "__reduce__": _schema_reduce,
    },
    "FBE_ERR_REJECTED": {
        "__doc__": """A request refused by the server (docs/CLIENT.md): ``reject`` is the reject
    message itself (an instance of one of the request's [reject(...)] types) and str() its
    text form. A server's handler raises ``RejectedError(reject_message)`` to answer with
    it.""",
        "__init__": _rejected_init, "__reduce__": _rejected_reduce, "reject": None,
    },
    "FBE_ERR_TIMEOUT": {
        "__doc__": """A request that got no answer within its timeout: "Timeout!" (the client's
    watchdog). Also the builtin TimeoutError.""",
    },
    "FBE_ERR_RESET": {
        "__doc__": """A request still pending when its client was reset or closed: "Reset client!".""",
    },
}

_classes: Dict[int, type] = {}


def _make(code: int) -> type:
    """The class of a status code, its parent's made first."""
    if code not in _classes:
        status = _swig.fbe_status_name(code)
        parent = () if code == _swig.FBE_OK else (_make(_swig.fbe_status_parent(code)),)
        ns: Dict[str, Any] = {"__module__": "fbe", "_fbe_code": code, **_METHODS.get(status, {})}
        ns["__doc__"] = ns.get("__doc__") or f"{_swig.fbe_status_text(code).capitalize()} ({status})."
        _classes[code] = type(_swig.fbe_status_class(code), parent + _BUILTINS.get(status, ()), ns)
    return _classes[code]


__all__: List[str] = []
for _code in range(_swig.FBE_STATUS_COUNT):
    _cls = _make(_code)
    globals()[_cls.__name__] = _cls
    __all__.append(_cls.__name__)

_core.set_error_classes(tuple(_classes[code] for code in range(_swig.FBE_STATUS_COUNT)))
