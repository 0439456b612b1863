"""The Python types of a schema's enums and flags: fbe.Enum and fbe.Flags, int
subclasses made per schema type by the metaclass fbe.EnumType.

enum.IntEnum / enum.IntFlag cannot hold every FBE enum: the schema language allows any
member name (``mro``, ``_value_``, ``__init__``), empty enums, values no member has
(the wire carries them) and flags over a signed base (-2 is 0xfe for int8, which
IntFlag folds by its own mask). So a member here is just an int of the enum's class:

* ``E[name]`` finds any member by its schema name; ``E.name`` too when the name can be
  a class attribute (not a dunder, not an attribute every value has such as ``name``,
  ``value`` or ``real``).
* ``E(value)`` takes any value of the base type: the member when one has it (the first
  name of a value; later ones are aliases), else an unnamed value of the type.
* ``.name`` (None when no member has the value; flags: ``a|b`` when single-bit members
  make it up), ``.value``, iteration over the members (aliases excluded), ``len(E)``,
  ``E.__members__`` (every name, aliases included).
* ``str`` is the core's text of the value (fbe_text_write_enum: ``sell``,
  ``initialized|calculated|good``, ``7``), as a struct's text shows it; ``repr``
  ``<E.a: 1>`` around it; a format spec formats the int.
* Flags combine with ``|``, ``&``, ``^`` and ``~`` into the same type, in the bit
  pattern of the base (``~`` over all its bits; signed bases stay signed).

Nothing the schema names is looked up by attribute on the class: the metaclass keeps
its tables in dunder attributes (no member can be one) and works through them."""
from __future__ import annotations

import types
from typing import Any, Dict, Iterator, List, Optional, Tuple

from . import _core
from . import core as _swig
from ._errors import NotFoundError, RangeError, TypeMismatchError

# Base kinds of enums and flags: (bits, signed).
_WIDTH: Dict[int, Tuple[int, bool]] = {
    _swig.FBE_KIND_BYTE: (8, False), _swig.FBE_KIND_CHAR: (8, False), _swig.FBE_KIND_WCHAR: (32, False),
    _swig.FBE_KIND_INT8: (8, True), _swig.FBE_KIND_UINT8: (8, False),
    _swig.FBE_KIND_INT16: (16, True), _swig.FBE_KIND_UINT16: (16, False),
    _swig.FBE_KIND_INT32: (32, True), _swig.FBE_KIND_UINT32: (32, False),
    _swig.FBE_KIND_INT64: (64, True), _swig.FBE_KIND_UINT64: (64, False),
}


class EnumType(type):
    """The metaclass of every schema enum and flags class."""

    __fbe_name__: str
    __fbe_base__: str
    __fbe_range__: Tuple[int, int]
    __fbe_members__: Dict[str, Any]
    __fbe_by_value__: Dict[int, Any]
    __fbe_order__: Tuple[Any, ...]
    __fbe_names__: Dict[int, Tuple[str, ...]]

    def __call__(cls, value: Any) -> Any:
        """The member of value, or the unnamed value of this type (any value of the base)."""
        member = cls.__fbe_by_value__.get(value) if type(value) is int else None
        if member is not None:
            return member
        if not hasattr(type(value), "__index__"):  # an int, or what converts like one (not a float)
            raise TypeMismatchError(f"{cls.__fbe_name__}: expected int, got {type(value).__name__}",
                                    _swig.FBE_ERR_TYPE)
        value = value.__index__()
        member = cls.__fbe_by_value__.get(value)
        if member is not None:
            return member
        lo, hi = cls.__fbe_range__
        if not lo <= value <= hi:
            raise RangeError(f"value {value} does not fit {cls.__fbe_name__} ({cls.__fbe_base__})",
                             _swig.FBE_ERR_RANGE)
        return int.__new__(cls, value)

    def __getitem__(cls, name: str) -> Any:
        try:
            return cls.__fbe_members__[name]
        except (KeyError, TypeError):
            raise NotFoundError(f"{cls.__fbe_name__} has no member {name!r}", _swig.FBE_ERR_NOT_FOUND) from None

    def __iter__(cls) -> Iterator[Any]:
        return iter(cls.__fbe_order__)

    def __reversed__(cls) -> Iterator[Any]:
        return reversed(cls.__fbe_order__)

    def __len__(cls) -> int:
        return len(cls.__fbe_order__)

    def __bool__(cls) -> bool:  # an empty enum is still a type
        return True

    def __contains__(cls, value: object) -> bool:
        """True when a member has the value (a member, or a plain int)."""
        return isinstance(value, int) and int(value) in cls.__fbe_by_value__

    @property
    def __members__(cls) -> "types.MappingProxyType[str, Any]":
        return types.MappingProxyType(cls.__fbe_members__)

    def __repr__(cls) -> str:
        return f"<fbe {'flags' if issubclass(cls, Flags) else 'enum'} {cls.__fbe_name__}>"


class Enum(int, metaclass=EnumType):
    """Base of every schema enum: its members and values are ints of the enum's class."""

    __slots__ = ()
    __fbe_name__ = "fbe.Enum"
    __fbe_base__ = "int32"
    __fbe_range__ = (0, -1)
    __fbe_members__: Dict[str, Any] = {}
    __fbe_by_value__: Dict[int, Any] = {}
    __fbe_order__: Tuple[Any, ...] = ()
    __fbe_names__: Dict[int, Tuple[str, ...]] = {}

    @property
    def name(self) -> Optional[str]:
        """The schema name of the value (the first one, for aliases); None when none has it."""
        names = type(self).__fbe_names__.get(int(self))
        return names[0] if names else None

    @property
    def value(self) -> int:
        return int(self)

    def __str__(self) -> str:
        """The core's text of the value (docs/TEXT.md), as a struct's text shows it:
        ``buy``, ``initialized|calculated|good``, ``7`` for a value no member names."""
        return str(_core.enum_text(self))

    def __repr__(self) -> str:
        """``<OrderSide.sell: 1>``, ``<State.initialized|calculated|good: 6>``, ``<OrderSide: 7>``
        (no name); a [hidden] part keeps the number out too: ``<Secret.***>``."""
        text = str(self)
        cls = type(self).__qualname__
        if "***" in text:
            return f"<{cls}.{text}>"
        named = not (text[:1].isdigit() or text[:1] == "-")
        return f"<{cls}.{text}: {int(self)}>" if named else f"<{cls}: {int(self)}>"

    def __format__(self, spec: str) -> str:
        """f"{v}" is str(v); a format spec (``:d``, ``:04x``) formats the int."""
        return str(self) if not spec else int.__format__(self, spec)

    def __reduce_ex__(self, protocol: Any) -> Tuple[Any, Tuple[Any, ...]]:
        from ._schema import _restore_enum
        return (_restore_enum, (type(self).__fbe_name__, int(self)))

    def __copy__(self) -> Any:  # immutable: a copy keeps its class (a pickle finds it by name)
        return self

    def __deepcopy__(self, memo: Any) -> Any:
        return self


class Flags(Enum):
    """Base of every schema flags type: combine values with | & ^ ~ (the same type)."""

    __slots__ = ()
    __fbe_bits__: Tuple[Any, ...] = ()  # the single-bit members, for composite names

    @property
    def name(self) -> Optional[str]:
        """The schema name of the value; for a value no member has, the names of the
        single-bit members that make it up (``a|b``), or None when they do not."""
        cls = type(self)
        value = int(self)
        own = cls.__fbe_names__.get(value)
        if own:
            return own[0]
        names, rest = [], value
        for bit in cls.__fbe_bits__:
            if value & bit == bit:
                names.append(cls.__fbe_names__[int(bit)][0])
                rest &= ~int(bit)
        return "|".join(names) if names and rest == 0 else None

    def _combine(self, result: int) -> Any:
        cls = type(self)
        lo, hi = cls.__fbe_range__
        return cls(result) if lo <= result <= hi else result

    def __or__(self, other: Any) -> Any:
        if not isinstance(other, int):
            return NotImplemented
        return self._combine(int(self) | int(other))

    def __and__(self, other: Any) -> Any:
        if not isinstance(other, int):
            return NotImplemented
        return self._combine(int(self) & int(other))

    def __xor__(self, other: Any) -> Any:
        if not isinstance(other, int):
            return NotImplemented
        return self._combine(int(self) ^ int(other))

    __ror__ = __or__
    __rand__ = __and__
    __rxor__ = __xor__

    def __invert__(self) -> Any:
        cls = type(self)
        lo, hi = cls.__fbe_range__
        # Every bit of the base flipped: -x-1 for a signed base, hi ^ x for an unsigned one.
        return cls(~int(self) if lo < 0 else hi ^ int(self))


def _attribute_name(base: type, name: str) -> bool:
    """Whether a member may also be a class attribute: not a dunder (the class's own
    machinery) and not an attribute every value has (``name``, ``value``, ``real``, ...),
    which a class attribute would hide on every value."""
    return not (name.startswith("__") and name.endswith("__")) and \
        not any(name in vars(k) for k in base.__mro__)


def make_enum(e: Any, package: str) -> Any:
    """The class of one schema enum or flags type (e: the SWIG fbe_enum)."""
    name = _swig.fbe_enum_name(e)
    full = _swig.fbe_enum_full_name(e)
    base_kind = _swig.fbe_enum_base(e)
    bits, signed = _WIDTH[base_kind]
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    base = Flags if _swig.fbe_enum_is_flags(e) else Enum
    ns: Dict[str, Any] = {
        "__slots__": (),
        "__module__": f"fbe.schema.{package}",
        "__qualname__": name,
        "__doc__": f"{'flags' if base is Flags else 'enum'} {full} : {_swig.fbe_kind_name(base_kind)}",
        "__fbe_name__": full,
        "__fbe_base__": _swig.fbe_kind_name(base_kind),
        "__fbe_range__": (lo, hi),
    }
    cls = EnumType(name, (base,), ns)
    members: Dict[str, Any] = {}
    by_value: Dict[int, Any] = {}
    names_of: Dict[int, List[str]] = {}
    order: List[Any] = []
    for i in range(_swig.fbe_enum_value_count(e)):
        value = _swig.fbe_enum_value_at(e, i)
        if signed and value >= 1 << 63:
            value -= 1 << 64
        member_name = _swig.fbe_enum_value_name(e, i)
        member = by_value.get(value)
        if member is None:
            member = by_value[value] = int.__new__(cls, value)
            order.append(member)
        names_of.setdefault(value, []).append(member_name)
        members[member_name] = member
    type.__setattr__(cls, "__fbe_members__", members)
    type.__setattr__(cls, "__fbe_by_value__", by_value)
    type.__setattr__(cls, "__fbe_order__", tuple(order))
    # The names of each value, the canonical one first (values have no instance dict).
    type.__setattr__(cls, "__fbe_names__", {v: tuple(n) for v, n in names_of.items()})
    if base is Flags:
        single = tuple(m for m in order if int(m) > 0 and int(m) & (int(m) - 1) == 0) + \
            tuple(m for m in order if signed and int(m) == lo)  # the sign bit of a signed base
        type.__setattr__(cls, "__fbe_bits__", single)
    for member_name, member in members.items():
        if _attribute_name(base, member_name):
            type.__setattr__(cls, member_name, member)
    return cls
