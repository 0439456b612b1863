"""Loading a schema and making its Python types: one class per struct (a real class
with __slots__, made by the C metaclass fbe._core.StructMeta over fbe.Struct), one
fbe.Enum / fbe.Flags class per enum and flags (fbe/_enum.py). Introspection goes
through the SWIG module (fbe.core); the C side then records the slot offsets and value
tables.

Schema names never break a class (README "Names"): a field is an attribute unless its
name starts with "__" (Python's private and special names); every field is reachable
as ``value[name]``, by keyword and through ``fbe.asdict``. A field whose name is no
attribute is stored in a slot of a made-up name that is removed from the class once
the C side has its offset.
"""
from __future__ import annotations

import collections.abc
import copy
import os
import weakref
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple, Union

from . import _core
from . import core as _swig
from ._enum import make_enum
from ._errors import NotFoundError, SchemaError

Struct = _core.Struct
View = _core.View
ViewList = _core.ViewList
collections.abc.Sequence.register(ViewList)  # a read-only sequence (len, index, slices, iteration)


class Limits(_core.Limits):
    """Limits(*, max_depth=0, max_model_size=0, max_memory=0): the limits against hostile
    input of decode, verify, validate, from_json and the Receiver (0: the default). The
    core checks each value (fbe_limits_set): out of range raises fbe.RangeError."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        raise TypeError("fbe.Limits is an immutable value, not a base class")

    def _members(self) -> Tuple[int, int, int]:
        return (self.max_depth, self.max_model_size, self.max_memory)

    def __repr__(self) -> str:
        return "fbe.Limits(max_depth=%d, max_model_size=%d, max_memory=%d)" % self._members()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Limits):
            return NotImplemented
        return self._members() == other._members()

    def __hash__(self) -> int:
        return hash(self._members())


Limits.__module__ = "fbe"

# Every class any loaded schema made, by full name ("proto.Account"), in load order:
# unpickling finds the class of the last load still alive, so a fresh interpreter can
# load a pickle after loading the schema.
_registry: "Dict[str, List[weakref.ReferenceType[Any]]]" = {}


def _register(full_name: str, cls: Any) -> None:
    refs = [ref for ref in _registry.get(full_name, []) if ref() is not None]
    refs.append(weakref.ref(cls))
    _registry[full_name] = refs


def _registered(full_name: str) -> Any:
    for ref in reversed(_registry.get(full_name, [])):
        cls = ref()
        if cls is not None:
            return cls
    return None


def _restore(full_name: str, fields: Dict[str, Any]) -> Any:
    cls = _registered(full_name)
    if cls is None:
        raise NotFoundError(f"unpickling {full_name}: load a schema that defines it first",
                            _swig.FBE_ERR_NOT_FOUND)
    return cls(**fields)


def _restore_subclass(cls: Any, fields: Dict[str, Any]) -> Any:
    return cls(**fields)


def _restore_enum(full_name: str, value: int) -> Any:
    cls = _registered(full_name)
    if cls is None:
        raise NotFoundError(f"unpickling {full_name}: load a schema that defines it first",
                            _swig.FBE_ERR_NOT_FOUND)
    try:
        return cls(value)
    except ValueError:
        return value


def _struct_fields(self: Any) -> Dict[str, Any]:
    out = {}
    for name in type(self).__fbe_fields__:
        try:
            out[name] = self[name]
        except KeyError:
            pass
    return out


def asdict(value: Any) -> Dict[str, Any]:
    """The fields of a struct value by schema name, in schema order, as a new dict, deep:
    nested structs become dicts (in lists, tuples, dict values and optionals too), dict
    keys and set elements stay as they are (a dict cannot be one), other values are
    shared, not copied. A field deleted from the value is left out. Reaches every field,
    also those no attribute can name (README "Names"). ``Cls.from_dict`` reads it back."""
    return _core.asdict(value)


def _struct_reduce(self: Any) -> Tuple[Any, Tuple[Any, ...]]:
    cls = type(self)
    if cls.__dict__.get("__fbe_name__") is None:  # a user's subclass: pickled by reference
        return (_restore_subclass, (cls, _struct_fields(self)))
    return (_restore, (cls.__fbe_name__, _struct_fields(self)))


def _struct_copy(self: Any) -> Any:
    return type(self)(**_struct_fields(self))


def _struct_deepcopy(self: Any, memo: Dict[int, Any]) -> Any:
    cls = type(self)
    out = cls.__new__(cls)
    memo[id(self)] = out
    for name, value in _struct_fields(self).items():
        out[name] = copy.deepcopy(value, memo)
    return out


class Package:
    """The types of one package of a schema, as attributes (``schema.proto.Account``)."""

    def __init__(self, name: str, types: Dict[str, Any], core: Any, root: bool):
        self.name = name
        self._types = types
        self._core = core
        self._prefix = "" if root else name + "."  # the name a lookup in the schema takes

    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        if "_prefix" not in d:  # not made yet: no type lookup
            raise AttributeError(name)
        if name in d["_types"]:
            return d["_types"][name]
        raise _core.type_not_found(d["_core"], d["_prefix"] + name, "type")

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | set(self._types))

    def __repr__(self) -> str:
        return f"<fbe package {self.name}: {', '.join(self._types)}>"


class Schema:
    """A loaded schema: the root package and every package it imports.

    Types are attributes (``schema.Account``, root package) and items
    (``schema["proto.Account"]`` or ``schema["Account"]``); imported packages are
    attributes too (``schema.proto.Account``). Immutable: share it between threads."""

    name: str
    packages: Tuple[str, ...]
    warnings: List[str]

    def __init__(self, swig_schema: Any, warnings: List[str]):
        self._swig = swig_schema
        self.warnings = warnings
        root = _swig.fbe_schema_root(swig_schema)
        self.name = _swig.fbe_package_name(root)
        pkgs = [_swig.fbe_schema_package_at(swig_schema, i)
                for i in range(_swig.fbe_schema_package_count(swig_schema))]
        self.packages = tuple(_swig.fbe_package_name(p) for p in pkgs)
        self._types: Dict[str, Any] = {}  # full name -> class
        by_package: Dict[str, Dict[str, Any]] = {name: {} for name in self.packages}
        enums: List[Tuple[str, Any]] = []
        for pkg in pkgs:
            pname = _swig.fbe_package_name(pkg)
            for i in range(_swig.fbe_package_enum_count(pkg)):
                e = _swig.fbe_package_enum_at(pkg, i)
                cls = make_enum(e, pname)
                full = _swig.fbe_enum_full_name(e)
                self._types[full] = cls
                by_package[pname][_swig.fbe_enum_name(e)] = cls
                enums.append((full, cls))
        structs: List[Tuple[str, Any]] = []
        for pkg in pkgs:
            pname = _swig.fbe_package_name(pkg)
            for i in range(_swig.fbe_package_struct_count(pkg)):
                st = _swig.fbe_package_struct_at(pkg, i)
                cls = self._make_struct(st, structs)
                by_package[pname][_swig.fbe_struct_name(st)] = cls
        self._core = _core.bind(swig_schema, structs, enums)
        for _, cls in structs:  # the C side has their offsets: no attribute by a made-up name
            for slot in cls.__dict__["__fbe_hidden__"]:
                type.__delattr__(cls, slot)
        self._packages = {name: Package(name, types, self._core, name == self.name)
                          for name, types in by_package.items()}
        self._root_types = by_package[self.name]
        for full, cls in list(structs) + enums:
            _register(full, cls)

    def _make_struct(self, st: Any, made: List[Tuple[str, Any]]) -> Any:
        full = _swig.fbe_struct_full_name(st)
        if full in self._types:
            return self._types[full]
        base_st = _swig.fbe_struct_base(st)
        base = self._make_struct(base_st, made) if base_st is not None else Struct
        name = _swig.fbe_struct_name(st)
        count = _swig.fbe_struct_field_count(st)
        fields = [_swig.fbe_struct_field_at(st, i) for i in range(count)]
        names = tuple(_swig.fbe_field_name(f) for f in fields)
        inherited = _swig.fbe_struct_inherited_count(st)
        keys = tuple(_swig.fbe_field_name(f) for f in fields if _swig.fbe_field_is_key(f))
        slots = _slot_names(names, inherited, base)
        first_hidden = next((i for i, (n, slot) in enumerate(zip(names, slots)) if n != slot), len(names))
        ns = {
            "__slots__": slots[inherited:],
            "__fbe_slots__": slots,
            "__fbe_hidden__": tuple(s for s, n in zip(slots[inherited:], names[inherited:]) if s != n),
            "__module__": f"fbe.schema.{full.rsplit('.', 1)[0]}",
            "__qualname__": name,
            "__doc__": f"{'message' if _swig.fbe_struct_is_message(st) else 'struct'} {full}"
                       f" (type id {_swig.fbe_struct_type_id(st)}): {', '.join(names) or 'no fields'}",
            "__fbe_name__": full,
            "__fbe_fields__": names,
            "__fbe_keys__": keys,
            "__fbe_type_id__": _swig.fbe_struct_type_id(st),
            "__fbe_message__": bool(_swig.fbe_struct_is_message(st)),
            # positional patterns: the fields up to the first one no attribute names
            "__match_args__": names[:first_hidden],
            "__reduce__": _struct_reduce,
            "__copy__": _struct_copy,
            "__deepcopy__": _struct_deepcopy,
        }
        # hash() is the [key] fields' (fbe_msg_key_hash): a struct without them has none
        ns["__hash__"] = Struct.__hash__ if keys else None
        cls = _core.StructMeta(name, (base,), ns)
        self._types[full] = cls
        made.append((full, cls))
        return cls

    # ---- lookup

    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        if "_root_types" not in d:  # not made yet (or being unpickled): no type lookup
            raise AttributeError(name)
        if name in d["_root_types"]:
            return d["_root_types"][name]
        if name in d["_packages"]:
            return d["_packages"][name]
        raise _core.type_not_found(d["_core"], name, "type")  # (or a package: the core's words)

    def __getitem__(self, name: str) -> Any:
        cls = self._types.get(name) or self._root_types.get(name)
        if cls is None:
            raise _core.type_not_found(self._core, str(name), "type")
        return cls

    def __contains__(self, name: object) -> bool:
        return name in self._types or name in self._root_types

    def __iter__(self) -> Iterator[str]:
        return iter(self._types)

    def __len__(self) -> int:
        return len(self._types)

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | set(self._root_types) | set(self._packages))

    def __repr__(self) -> str:
        return f"<fbe schema {self.name} ({len(self._types)} types in {', '.join(self.packages)})>"

    def types(self) -> Dict[str, Any]:
        """Every struct, message, enum and flags class by full name."""
        return dict(self._types)

    def _cls(self, type: Any) -> Any:
        cls = (self._types.get(type) or self._root_types.get(type)) if isinstance(type, str) else type
        if not (isinstance(cls, _core.StructMeta) and getattr(cls, "__fbe_name__", None)):
            if isinstance(type, str):
                raise _core.type_not_found(self._core, type, "struct")
            raise NotFoundError(f"{type!r} is not a struct of this schema", _swig.FBE_ERR_NOT_FOUND)
        return cls

    # ---- operations on plain values (dicts or instances)

    def encode(self, type: Any, value: Any, final: bool = False) -> bytes:
        """Encodes value (an instance or a dict of fields) as a model of type."""
        return _core.encode(self._cls(type), value, final)

    def decode(self, type: Any, data: Any, final: bool = False, ordered: bool = False, *,
               trusted: bool = False, limits: Optional[Limits] = None) -> Any:
        """Decodes a model of type, verified first (verify's reason is raised);
        trusted=True decodes without verifying, for bytes you trust. limits: an
        fbe.Limits (None: the defaults)."""
        return _core.decode(self._cls(type), data, final, ordered, trusted=trusted, limits=limits)

    def view(self, type: Any, data: Any, model: str = "standard", *, ordered: bool = False,
             limits: Optional[Limits] = None) -> Any:
        """A view of a model of type (an fbe.View): data verified once (raising what
        decode raises), then each field read from it on access (README "Views")."""
        return _core.view(self._cls(type), data, model, ordered=ordered, limits=limits)

    def verify(self, type: Any, data: Any, final: bool = False, *, limits: Optional[Limits] = None) -> bool:
        return _core.verify(self._cls(type), data, final, limits=limits)

    def validate(self, type: Any, data: Any, final: bool = False, *, limits: Optional[Limits] = None) -> int:
        """The model size of data; raises fbe.Error (reason, path, offset) when invalid."""
        return int(_core.model_size(self._cls(type), data, final, limits=limits))

    def to_json(self, type: Any, value: Any, pretty: bool = False) -> str:
        return _core.to_json(self._cls(type), value, pretty)

    def from_json(self, type: Any, text: Union[str, bytes], ordered: bool = False, *,
                  limits: Optional[Limits] = None, ignore_unknown: bool = False) -> Any:
        """A value of type from its JSON text; members the struct does not have raise
        fbe.UnknownFieldError unless ignore_unknown=True (JSON of a newer schema)."""
        return _core.from_json(self._cls(type), text, ordered, limits=limits, ignore_unknown=ignore_unknown)

    def from_dict(self, type: Any, data: Dict[str, Any], ordered: bool = False) -> Any:
        """A value of type from a dict of its fields (nested dicts for structs), as
        ``Cls.from_dict`` makes it."""
        return _core.from_dict(self._cls(type), data, ordered)

    def sender(self, sink: Any, package: Optional[str] = None, final: bool = False) -> Any:
        from ._protocol import Sender
        return Sender(self, sink, package=package, final=final)

    def receiver(self, handler: Any = None, package: Optional[str] = None, final: bool = False,
                 ordered: bool = False, *, limits: Optional[Limits] = None) -> Any:
        from ._protocol import Receiver
        return Receiver(self, handler, package=package, final=final, ordered=ordered, limits=limits)


def _attribute_field(name: str) -> bool:
    """Whether a field is also an attribute: names starting with "__" are Python's private
    (mangled) and special names, which a slot cannot carry as they stand."""
    return not name.startswith("__")


def _slot_names(names: Tuple[str, ...], inherited: int, base: Any) -> Tuple[str, ...]:
    """The __slots__ names of the fields: the field's own name when it is an attribute,
    else a made-up one that names no field and no attribute of the class. (A field
    named like a made-up slot of its base is no attribute either.)"""
    out = list(getattr(base, "__fbe_slots__", ()))[:inherited]
    taken = set(names) | set(dir(base)) | set(out)
    for name in names[inherited:]:
        if _attribute_field(name) and name not in out:
            out.append(name)
            continue
        slot = f"_fbe_field_{len(out)}"
        while slot in taken:
            slot += "_"
        taken.add(slot)
        out.append(slot)
    return tuple(out)


def _includes(include: Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]], None]) -> List[str]:
    if include is None:
        return []
    if isinstance(include, (str, os.PathLike)):
        return [os.fspath(include)]
    return [os.fspath(d) for d in include]


def _load(how: str, arg: str, include: Any, name: Optional[str] = None) -> Schema:
    loader = _swig.fbe_loader()
    for d in _includes(include):
        if loader.add_include(d):
            raise MemoryError("out of memory")
    if how == "file":
        sw = loader.load_file(arg)
    elif how == "string":
        sw = loader.load_string(arg, name or "<string>")
    else:
        sw = loader.load_package(arg)
    diags = [loader.diagnostic(i) for i in range(loader.diagnostic_count())]
    if sw is None:
        errors = [loader.diagnostic(i) for i in range(loader.diagnostic_count())
                  if loader.diagnostic_is_error(i)]
        what = {"file": arg, "string": name or "<string>", "package": f"package {arg}"}[how]
        first = errors[0] if errors else "schema did not load"
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise SchemaError(f"cannot load {what}: {first}{more}", _swig.FBE_ERR_SCHEMA, diagnostics=diags)
    return Schema(sw, diags)


def load(path: Union[str, "os.PathLike[str]"], include: Any = None) -> Schema:
    """Loads a .fbe file and its imports (found next to it, then on the include dirs).

    A relative ``path`` that does not exist as given is looked up on the include dirs too."""
    return _load("file", os.fspath(path), include)


def loads(text: str, include: Any = None, name: str = "<string>") -> Schema:
    """Loads a schema from text; ``name`` appears in diagnostics."""
    if "\0" in text:
        raise SchemaError("schema text contains a NUL character", _swig.FBE_ERR_SCHEMA)
    return _load("string", text, include, name)


def load_package(package: str, include: Any = None) -> Schema:
    """Loads package PACKAGE by finding PACKAGE.fbe on the include directories."""
    return _load("package", package, include)
