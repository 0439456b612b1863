#!/usr/bin/env python3
"""Random valid .fbe schemas (Python standard library only), for the differential run.

  random_schema.py [--seed N] [--count N] [-o DIR]          # write schema sets
  random_schema.py --self-test [--seed N] [--count N] [--fbe PATH]

A schema set is one to three packages, the later ones importing earlier ones, that use
every construct of docs/SCHEMA.md: every type form (T, T?, T~, T[N], T?[N], T[],
T?[], T(), T?(), T!, V<K>, V?<K>, V{K}, V?{K}) over every base type, enums and flags,
structs; enums and flags over every base with implicit, integer (decimal, hex,
negative), character and alias values and | expressions; struct numbering (none, (+N),
(N), (base)), package offsets, inheritance chains (across packages too), [key] and [id]
fields, attributes, request annotations, every default form, domain and version lines,
comments, and names that collide with the keywords, builtins and API names of the
host languages. The same seed gives the same schemas. `--self-test` checks every
generated set with `fbe check` (each must load without an error) and prints how often
every construct occurred; it fails when any construct never did.

As a module: SchemaGen(rng).schema_set() gives a SchemaSet (a model the shrinker of
differential.py edits), SchemaSet.texts() its {package: text}, and COVERAGE the
constructs counted.
"""
import argparse
import collections
import copy
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))

BASE_TYPES = ["bool", "byte", "bytes", "char", "wchar", "int8", "uint8", "int16", "uint16", "int32", "uint32",
              "int64", "uint64", "float", "double", "decimal", "string", "timestamp", "uuid"]
ENUM_BASES = ["byte", "char", "wchar", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
FLAGS_BASES = ["byte", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
INT_RANGES = {
    "byte": (0, 255), "char": (0, 255), "wchar": (0, 2**32 - 1), "int8": (-2**7, 2**7 - 1), "uint8": (0, 255),
    "int16": (-2**15, 2**15 - 1), "uint16": (0, 2**16 - 1), "int32": (-2**31, 2**31 - 1), "uint32": (0, 2**32 - 1),
    "int64": (-2**63, 2**63 - 1), "uint64": (0, 2**64 - 1), "timestamp": (0, 2**64 - 1),
}
MINMAX_TYPES = ["byte", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
# The forms of a field type: T is the element (value), K the key.
FORMS = ["", "?", "~", "[N]", "?[N]", "[]", "?[]", "()", "?()", "!", "<K>", "?<K>", "{K}", "?{K}"]
OPTIONAL_ELEMENT = {"?[N]", "?[]", "?()", "?<K>", "?{K}"}
INLINE_FORMS = {"", "[N]"}  # forms that hold a struct inline (plain containment must not cycle)

RESERVED = set(BASE_TYPES) | {"enum", "flags", "struct", "message", "base", "true", "false", "null", "epoch", "utc",
                              "uuid0", "uuid1", "uuid4"}
# Words that are keywords of the schema language in their positions but allowed as names.
FBE_SOFT = ["domain", "package", "offset", "import", "version", "request", "response", "reject", "min", "max"]
# Names a binding might trip over: keywords, builtins and members of the host languages and
# the bindings' own API.
HOST_NAMES = {
    "python": ["class", "def", "import", "from", "lambda", "yield", "None", "True", "False", "self", "cls", "is",
               "not", "and", "or", "in", "pass", "global", "nonlocal", "async", "await", "print", "list", "dict",
               "str", "int", "len", "type", "id", "hash", "object", "super", "property", "staticmethod", "mro",
               "_missing_", "_value_", "_name_", "name", "value", "__init__", "__class__", "__dict__", "__slots__",
               "__module__", "__doc__", "__eq__", "__hash__", "__repr__", "__new__", "__getattr__", "__fbe_name__",
               "__x", "_"],
    "javascript": ["constructor", "prototype", "__proto__", "toString", "valueOf", "hasOwnProperty", "length",
                   "caller", "arguments", "then", "toJSON", "Object", "Array", "Map", "Set", "Symbol",
                   "undefined", "NaN", "Infinity", "new", "delete", "typeof", "instanceof", "function", "var",
                   "let", "const", "this", "eval"],
    "ruby": ["initialize", "send", "object_id", "method", "methods", "inspect", "freeze", "frozen", "dup",
             "clone", "then", "end", "begin", "nil", "self", "to_s", "to_h", "to_a", "Kernel", "BasicObject",
             "Integer", "Comparable", "Struct", "ensure", "rescue", "yield", "alias", "undef", "__method__"],
    "java": ["class", "equals", "hashCode", "getClass", "wait", "notify", "public", "static", "void", "final",
             "interface", "extends", "implements", "throws", "synchronized", "transient", "volatile", "native",
             "String", "Integer", "Long", "Math", "System", "java", "lang", "var", "record", "yield"],
    "c": ["auto", "register", "sizeof", "typedef", "union", "return", "goto", "default", "switch", "case",
          "errno", "NULL", "stdin", "main", "restrict", "inline", "_Bool", "signed", "unsigned", "short", "long"],
    "api": ["encode", "decode", "verify", "validate", "to_json", "from_json", "toJson", "fromJson",
            "toJsonString", "fromJsonString", "json", "fields", "schema", "copy", "keys", "values", "items",
            "get", "set", "size", "fbe_name", "fbe_type", "type_id", "model", "final", "ordered", "trusted",
            "Schema", "Message", "Sender", "Receiver", "Error", "FbeError", "fbe", "struct_", "Enum", "Flags",
            "pending", "feed", "send", "send_message", "onMessage", "write"],
}
STRING_ESCAPES = ["\\\\", "\\\"", "\\'", "\\n", "\\r", "\\t", "\\x41", "\\u00e9", "\\u0444", "\\u4e2d"]
CHAR_LITERALS = ["'a'", "'Z'", "'0'", "'!'", "' '", "'\\n'", "'\\t'", "'\\\\'", "'\\''", "'\\\"'", "'\\0'",
                 "'\\x41'", "'\\x7f'"]
WCHAR_LITERALS = ["'\\u0444'", "'\\u4e2d'", "'é'", "'Ж'", "'\\uffff'"]

COVERAGE = collections.Counter()


def cover(tag):
    COVERAGE[tag] += 1


# ---- the model ----

class TypeRef:
    """A simple type: a base type keyword, or an enum/flags/struct of a package."""

    def __init__(self, kind, name, package=None, qualified=False):
        self.kind, self.name, self.package = kind, name, package  # kind: base, enum, struct
        self.qualified = qualified  # written `package.Name` in its own package too

    def same(self, other):
        return (self.kind, self.name, self.package) == (other.kind, other.name, other.package)


class FieldType:
    def __init__(self, form, elem, key=None, size=None):
        self.form, self.elem, self.key, self.size = form, elem, key, size

    def refs(self):
        return [t for t in (self.elem, self.key) if t is not None]


class Field:
    def __init__(self, name, ftype, key=False, is_id=False, default=None, attrs=()):
        self.name, self.type, self.key, self.is_id = name, ftype, key, is_id
        self.default = default  # None, ("text", TEXT, dynamic) or ("enum", pkg, enum, [member names])
        self.attrs = list(attrs)

    def names(self):
        """The JSON members this field gives (T~ adds NAMEReset)."""
        return [self.name, self.name + "Reset"] if self.type.form == "~" else [self.name]


class Struct:
    def __init__(self, name, message):
        self.name, self.message = name, message
        self.numbering = None  # None, ("+", N), ("=", N), ("base",)
        self.base = None       # (package, name)
        self.fields, self.attrs = [], []
        self.request = None    # {"response": ref or None, "reject": [refs], "star": bool}
        self.comment = None


class Member:
    def __init__(self, name, value=None, attrs=()):
        self.name, self.value, self.attrs = name, value, list(attrs)  # value: None or ("int"|"char"|"alias"|"or", x)


class Enum:
    def __init__(self, name, flags, base):
        self.name, self.flags, self.base = name, flags, base  # base None: the default (int32)
        self.members, self.attrs = [], []
        self.comment = None

    def base_kind(self):
        return self.base or "int32"


class Package:
    def __init__(self, name):
        self.name = name
        self.offset = None
        self.domain = self.version = None
        self.imports = []
        self.decls = []   # Enum and Struct, in declaration order
        self.header_comment = None

    def structs(self):
        return [d for d in self.decls if isinstance(d, Struct)]

    def enums(self):
        return [d for d in self.decls if isinstance(d, Enum)]

    def find(self, name):
        for d in self.decls:
            if d.name == name:
                return d
        return None


class SchemaSet:
    """Packages in dependency order: each imports only earlier ones."""

    def __init__(self, packages):
        self.packages = packages

    def package(self, name):
        for p in self.packages:
            if p.name == name:
                return p
        return None

    def decl(self, package, name):
        p = self.package(package)
        return p.find(name) if p else None

    def texts(self):
        return {p.name: render_package(p) for p in self.packages}

    def flat_fields(self, package, name):
        """The fields of a struct with the inherited ones first: [(struct, field)]."""
        s = self.decl(package, name)
        if s is None:
            return []
        out = self.flat_fields(*s.base) if s.base else []
        return out + [(s, f) for f in s.fields]

    def copy(self):
        return copy.deepcopy(self)


# ---- rendering ----

def ref_text(ref, package):
    if ref.kind == "base":
        return ref.name
    if ref.package == package.name and not ref.qualified:
        return ref.name
    return "%s.%s" % (ref.package, ref.name)


def type_text(ft, package):
    t = ref_text(ft.elem, package)
    form = ft.form
    if form == "[N]":
        return "%s[%d]" % (t, ft.size)
    if form == "?[N]":
        return "%s?[%d]" % (t, ft.size)
    if "K" in form:
        return t + form.replace("K", ref_text(ft.key, package))
    return t + form


def default_text(d, package):
    if d[0] == "text":
        return d[1]
    _, pkg, enum, members = d
    qual = enum if pkg == package.name else "%s.%s" % (pkg, enum)
    return " | ".join("%s.%s" % (qual, m) for m in members)


def attrs_text(attrs):
    return "".join(attrs)


def render_enum(e, package):
    lines = []
    if e.comment:
        lines.append(e.comment)
    head = "%s%s %s" % (attrs_text(e.attrs) + (" " if e.attrs else ""), "flags" if e.flags else "enum", e.name)
    if e.base:
        head += " : " + e.base
    lines.append(head + " {")
    for m in e.members:
        text = "    %s%s" % (attrs_text(m.attrs) + (" " if m.attrs else ""), m.name)
        if m.value is not None:
            kind, x = m.value
            text += " = " + (" | ".join(x) if kind == "or" else x)
        lines.append(text + ";")
    lines.append("}")
    return "\n".join(lines)


def render_struct(s, package):
    lines = []
    if s.comment:
        lines.append(s.comment)
    if s.request is not None:
        r = s.request
        ann = "[request]"
        if r.get("response"):
            ann += "[response(%s)]" % ref_text(r["response"], package)
        if r.get("reject"):
            ann += "[reject(%s%s)]" % ("*" if r.get("star") else "",
                                       ", ".join(ref_text(x, package) for x in r["reject"]))
        lines.append(ann)
    head = "%s%s %s" % (attrs_text(s.attrs) + (" " if s.attrs else ""), "message" if s.message else "struct", s.name)
    if s.numbering:
        n = s.numbering
        head += "(base)" if n[0] == "base" else "(+%d)" % n[1] if n[0] == "+" else "(%d)" % n[1]
    if s.base:
        head += " : " + ref_text(TypeRef("struct", s.base[1], s.base[0]), package)
    lines.append(head + " {")
    for f in s.fields:
        text = "    " + attrs_text(f.attrs) + ("[key] " if f.key else "") + type_text(f.type, package)
        text += " [id]" if f.is_id else " " + f.name
        if f.default is not None:
            text += " = " + default_text(f.default, package)
        lines.append(text + ";")
    lines.append("}")
    return "\n".join(lines)


def render_package(p):
    lines = []
    if p.header_comment:
        lines.append(p.header_comment)
    if p.domain:
        lines.append("domain " + p.domain)
    lines.append("package %s%s" % (p.name, "" if p.offset is None else " offset %d" % p.offset))
    if p.version:
        lines.append("version " + p.version)
    lines += ["import " + i for i in p.imports]
    lines.append("")
    for d in p.decls:
        lines.append(render_enum(d, p) if isinstance(d, Enum) else render_struct(d, p))
    return "\n".join(lines) + "\n"


# ---- type ids (SCHEMA.md 6.2) ----

def type_ids(schema):
    """{(package, struct): type id} of every struct, by the numbering rules."""
    ids = {}
    for p in schema.packages:
        c, offset = 0, p.offset or 0
        for s in p.structs():
            n = s.numbering
            if n is None or (n[0] == "+" and n[1] == 0):
                c += 1
                ids[(p.name, s.name)] = c + offset
            elif n[0] == "+":
                c = n[1]
                ids[(p.name, s.name)] = n[1] + offset
            elif n[0] == "=":
                ids[(p.name, s.name)] = n[1] if n[1] or not s.base else ids.get(tuple(s.base), 0)
            else:  # (base)
                ids[(p.name, s.name)] = ids.get(tuple(s.base), 0)
    return ids


# ---- the generator ----

class SchemaGen:
    def __init__(self, rng):
        self.rng = rng

    # -- names --
    def word(self, used, capital=False):
        """A fresh name for `used` (a set of names already taken in the scope)."""
        r = self.rng
        for _ in range(100):
            x = r.random()
            if x < 0.40:
                name = ("%s%d" % (r.choice("ABCDEFGHKMNPRSTVWXYZ" if capital else "abcdefghkmnprstvwxyz"),
                                  r.randint(0, 99)))
                tag = "name:plain"
            elif x < 0.80:
                lang = r.choice(sorted(HOST_NAMES))
                name = r.choice(HOST_NAMES[lang])
                tag = "name:host-" + lang
            elif x < 0.86:
                name, tag = r.choice(FBE_SOFT), "name:fbe-keyword-as-name"
            elif x < 0.90:
                length = r.choice([63, 64, 65, 95, 96, 97, 200])
                name = (r.choice("Ll") + "ong_" + "x" * length)[:length]
                tag = "name:long"
            elif x < 0.95 and used:
                base = r.choice(sorted(used))
                name = base.swapcase() if base.swapcase() != base else base + "_"
                tag = "name:case-variant"
            else:
                name = r.choice(["_", "_x", "__x", "x__", "A_1", "_0", "a_b_c", "X", "xX", "__"])
                tag = "name:odd"
            if name not in used and name not in RESERVED:
                cover(tag)
                used.add(name)
                return name
        name = "n%d" % len(used)
        while name in used:
            name += "_"
        used.add(name)
        return name

    # -- literals --
    def int_text(self, v, hex_ok=True):
        r = self.rng
        if hex_ok and r.random() < 0.25:
            cover("literal:hex")
            return ("-" if v < 0 else "") + r.choice(["0x%x", "0X%X", "0x%04x"]) % abs(v)
        if v < 0:
            cover("literal:negative")
        return str(v)

    def int_in(self, kind):
        lo, hi = INT_RANGES[kind]
        r = self.rng
        x = r.random()
        if x < 0.3:
            return r.choice([lo, hi, 0, 1, lo + 1, hi - 1])
        return r.randint(max(lo, -1000), min(hi, 1000)) if x < 0.6 else r.randint(lo, hi)

    def float_text(self, kind):
        r = self.rng
        forms = ["0.0", "1.5", "-2.25", "123.456", "1.", ".5", "1e3", "-1.5e-3", "2.5E+2", "0.1",
                 "3.4028234e38" if kind == "float" else "1.7976931348623157e308", "-0.0", "1e-40", "7"]
        text = r.choice(forms)
        cover("default:float-literal" if "." in text or "e" in text.lower() else "default:float-int")
        return text

    def decimal_text(self):
        r = self.rng
        text = r.choice(["0", "1", "-1", "0.5", "1.5", "-0.0001", "123456.123456", "7922816251426433759354395033.5",
                         "0.0000000000000000000000000001", "9223372036854775807", "-9223372036854775808",
                         "1e3", "1.5E-5", ".25", "10."])
        cover("default:decimal")
        return text

    def string_text(self):
        r = self.rng
        x = r.random()
        if x < 0.2:
            text = ""
        elif x < 0.5:
            text = r.choice(["abc", "Hello, FBE!", "defgh", "Привет", "日本語", "emoji \U0001F600", "a b"])
        else:
            text = "".join(r.choice(["a", "Z", " ", "é", "中"] + STRING_ESCAPES) for _ in range(r.randint(1, 12)))
            cover("default:string-escapes")
        return '"%s"' % text

    def uuid_text(self):
        h = "%032x" % self.rng.getrandbits(128)
        return '"%s-%s-%s-%s-%s"' % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])

    # -- enums and flags --
    def enum_decl(self, package, used, flags):
        r = self.rng
        base = r.choice([None] + (FLAGS_BASES if flags else ENUM_BASES))
        e = Enum(self.word(used, capital=r.random() < 0.7), flags, base)
        cover(("flags-base:" if flags else "enum-base:") + (base or "default"))
        kind = e.base_kind()
        lo, hi = INT_RANGES[kind]
        names, values = set(), []
        for _ in range(r.choice([0, 1, 2, 3, 4, 6]) if r.random() < 0.9 else 0):
            m = Member(self.word(names))
            if r.random() < 0.1:
                m.attrs = [r.choice(["[hidden]", "[deprecated]"])]
                cover("attribute:member")
            if flags:
                if values and r.random() < 0.3:
                    picks = r.sample(e.members, min(len(e.members), r.randint(1, 3)))
                    m.value = ("or", [p.name for p in picks])
                    v = 0
                    for p in picks:
                        v |= values[e.members.index(p)]
                    cover("flags-value:or")
                else:
                    bit = 1 << r.randint(0, 7)
                    v = r.choice([bit if bit <= hi else lo, 0, lo, hi, -1 if lo < 0 else hi, self.int_in(kind)])
                    if lo < 0 and v < 0:
                        cover("flags-value:negative")
                    m.value = ("int", self.int_text(v))
                    cover("flags-value:int")
            else:
                prev = values[-1] if values else -1
                x = r.random()
                if values and x < 0.2:
                    target = r.choice(e.members)
                    m.value, v = ("alias", target.name), values[e.members.index(target)]
                    cover("enum-value:alias")
                elif x < 0.45 and lo <= prev + 1 <= hi:
                    m.value, v = None, prev + 1
                    cover("enum-value:implicit")
                    if e.members and e.members[-1].value and e.members[-1].value[0] == "alias":
                        cover("enum-value:implicit-after-alias")
                elif x < 0.6 and kind in ("char", "wchar"):
                    text = r.choice(CHAR_LITERALS + (WCHAR_LITERALS if kind == "wchar" else []))
                    m.value, v = ("char", text), char_value(text)
                    cover("enum-value:char")
                else:
                    v = self.int_in(kind)
                    m.value = ("int", self.int_text(v))
                    cover("enum-value:int")
            e.members.append(m)
            values.append(v)
        if not e.members:
            cover("enum:empty")
        e.values = values
        return e

    # -- types --
    def simple_type(self, ctx, inline, allow_struct=True):
        """A simple type usable in package ctx.package: inline=True when the field holds it
        inline (then only a struct declared before, so that plain containment cannot cycle)."""
        r = self.rng
        x = r.random()
        enums, structs = ctx.visible_enums(), ctx.visible_structs(inline)
        if x < 0.15 and enums:
            p, e = r.choice(enums)
            cover("type:flags" if e.flags else "type:enum")
            if p != ctx.package.name:
                cover("type:imported-enum")
            return self.qualify(TypeRef("enum", e.name, p), ctx)
        if x < 0.30 and structs and allow_struct:
            p, s = r.choice(structs)
            cover("type:struct")
            if p != ctx.package.name:
                cover("type:imported-struct")
            if not inline and (p, s.name) not in ctx.earlier:
                cover("type:forward-or-self-struct")
            return self.qualify(TypeRef("struct", s.name, p), ctx)
        name = r.choice(BASE_TYPES)
        cover("base:" + name)
        return TypeRef("base", name)

    def qualify(self, ref, ctx):
        if ref.package == ctx.package.name and self.rng.random() < 0.1:
            ref.qualified = True
            cover("type:self-qualified")
        return ref

    def field_type(self, ctx):
        r = self.rng
        form = r.choice(FORMS + ["", "", "?"])  # plain and optional fields are the most common
        cover("form:" + form if form else "form:T")
        inline = form in INLINE_FORMS
        elem = self.simple_type(ctx, inline)
        ft = FieldType(form, elem)
        if "N" in form:
            small = elem.kind == "base" and elem.name not in ("string", "bytes")
            ft.size = r.choice([1, 2, 3, 5] + ([16] if small else []))
        if "K" in form:
            ft.key = self.simple_type(ctx, False)
            cover("key:" + (ft.key.name if ft.key.kind == "base" else ft.key.kind))
        return ft

    # -- defaults --
    def default(self, ctx, ft):
        """A default value for a field of type ft, or None."""
        r = self.rng
        if ft.form not in ("", "?", "~") or r.random() < 0.35:
            return None
        optional = ft.form in ("?", "~")
        if optional and r.random() < 0.2:
            cover("default:null")
            return ("text", "null", False)
        t = ft.elem
        if t.kind == "struct":
            return None
        if t.kind == "enum":
            e = ctx.schema.decl(t.package, t.name)
            if not e.members:
                return None
            picks = r.sample([m.name for m in e.members], min(len(e.members), r.randint(1, 3) if e.flags else 1))
            cover("default:flags-or" if len(picks) > 1 else "default:flags" if e.flags else "default:enum")
            if t.package != ctx.package.name:
                cover("default:imported-enum")
            return ("enum", t.package, t.name, picks)
        name = t.name
        if optional:
            cover("default:optional-" + ("text" if name in ("string", "decimal", "uuid") else "value"))
        if name == "bool":
            cover("default:bool")
            return ("text", r.choice(["true", "false"]), False)
        if name in MINMAX_TYPES and r.random() < 0.3:
            word = r.choice(["min", "max"])
            cover("default:" + word)
            return ("text", word, False)
        if name in INT_RANGES and name != "timestamp":
            if name in ("char", "wchar") and r.random() < 0.5:
                cover("default:char-literal")
                return ("text", r.choice(CHAR_LITERALS + (WCHAR_LITERALS if name == "wchar" else [])), False)
            cover("default:int")
            hi = 255 if name == "char" else INT_RANGES[name][1]
            return ("text", self.int_text(min(self.int_in(name), hi)), False)
        if name in ("float", "double"):
            return ("text", self.float_text(name), False)
        if name == "decimal":
            return ("text", self.decimal_text(), False)
        if name == "string":
            cover("default:string")
            return ("text", self.string_text(), False)
        if name == "timestamp":
            word = r.choice(["epoch", "utc", "int"])
            cover("default:timestamp-" + word)
            if word == "int":
                return ("text", self.int_text(r.choice([0, 1, 1543145597933000000, 2**63, 2**64 - 1])), False)
            return ("text", word, word == "utc")
        if name == "uuid":
            word = r.choice(["uuid0", "uuid1", "uuid4", "text"])
            cover("default:uuid-" + word)
            return ("text", self.uuid_text() if word == "text" else word, word in ("uuid1", "uuid4"))
        return None  # bytes

    # -- structs --
    def struct_decl(self, ctx, used):
        r = self.rng
        s = Struct(self.word(used, capital=r.random() < 0.7), r.random() < 0.4)
        cover("message" if s.message else "struct")
        ctx.current = s
        bases = ctx.visible_structs(inline=True)
        if bases and r.random() < 0.35:
            # prefer bases that derive themselves: chains
            derived = [b for b in bases if b[1].base]
            p, b = r.choice(derived if derived and r.random() < 0.5 else bases)
            s.base = (p, b.name)
            cover("inherit")
            if p != ctx.package.name:
                cover("inherit:cross-package")
            depth = 1 + len(ctx.chain(s.base))
            if depth >= 3:
                cover("inherit:chain-3")
        inherited = set()
        if s.base:
            for _, f in ctx.schema.flat_fields(*s.base):
                inherited.update(f.names())
        x = r.random()
        if s.base and x < 0.2:
            s.numbering = ("base",)
        elif x < 0.45:
            s.numbering = ("+", r.choice([1, 5, 10, 100, 1000, r.randint(1, 10**6)]))
        elif x < 0.6:
            s.numbering = ("=", r.randint(1, 10**6))
        cover("numbering:" + ("none" if not s.numbering else s.numbering[0]))
        if r.random() < 0.1:
            s.attrs = r.choice([["[hidden]"], ["[deprecated]"], ["[hidden]", "[deprecated]"]])
            cover("attribute:struct")
        names = set(inherited)
        has_id = "id" in inherited
        for _ in range(r.choice([0, 1, 2, 3, 4, 5, 6, 8])):
            ft = self.field_type(ctx)
            if not has_id and "id" not in names and r.random() < 0.05 and ft.form in ("", "?"):
                has_id, name = True, "id"
                is_id = True
                cover("field:[id]")
            else:
                is_id = False
                name = self.word(names)
            if ft.form == "~":
                if name + "Reset" in names or name == "id":
                    ft.form = "?"
                else:
                    names.add(name + "Reset")
            if name in names and not is_id:
                pass  # word() added it
            names.add(name)
            f = Field(name, ft, is_id=is_id)
            if r.random() < 0.15 and not is_id:
                f.key = True
                cover("field:[key]")
            if r.random() < 0.08:
                f.attrs = [r.choice(["[hidden]", "[deprecated]"])]
                cover("attribute:field")
            f.default = self.default(ctx, ft)
            s.fields.append(f)
        if not s.fields:
            cover("struct:empty")
        if s.message and r.random() < 0.2:
            targets = [TypeRef("struct", x.name, p) for p, x in ctx.visible_structs(False)]  # itself too
            s.request = {"response": r.choice(targets) if r.random() < 0.7 else None, "reject": [], "star": False}
            if r.random() < 0.5:
                rejects = r.sample(targets, min(len(targets), r.randint(1, 2)))
                s.request["reject"], s.request["star"] = rejects, r.random() < 0.4
                cover("annotation:reject")
            cover("annotation:request")
        return s

    def fix_ids(self, ctx, s):
        """Keeps message type ids unique across the whole set (the protocol of a package and
        its imports must not repeat one) and explicit (N) unique in the file."""
        ids = type_ids(ctx.schema)
        mine = ids[(ctx.package.name, s.name)]
        messages = {v for k, v in ids.items() if k != (ctx.package.name, s.name) and
                    ctx.schema.decl(*k) is not None and ctx.schema.decl(*k).message}
        explicit = {x.numbering[1] for x in ctx.package.structs() if x is not s and x.numbering and x.numbering[0] == "="}
        if s.numbering and s.numbering[0] == "=" and s.numbering[1] in explicit:
            s.numbering = None
        if s.message and mine in messages or mine == 0:
            n = 2**31 + self.rng.randint(0, 2**30)
            while n in messages or n in explicit:
                n += 1
            s.numbering = ("=", n)
        # a later message that a changed counter collides with is fixed when it is declared

    # -- packages --
    def package(self, schema, used_packages, imports):
        r = self.rng
        p = Package(self.word(used_packages))
        p.imports = imports
        if imports:
            cover("import")
        if r.random() < 0.5:
            p.offset = r.choice([0, 1, 10, 100, 1000, r.randint(0, 10**6), 4294960000])
            cover("package:offset")
        if r.random() < 0.2:
            p.domain = r.choice(["com.example", "org.libfbe.test", "a", "com . example . x"])
            cover("package:domain")
        if r.random() < 0.2:
            p.version = r.choice(["1.0", "1.2", "123.456", "0.1", "2.05"])
            cover("package:version")
        if r.random() < 0.2:
            p.header_comment = r.choice(["// generated", "/* a block\n   comment */", "/**/", "// tail //"])
            cover("comment")
        schema.packages.append(p)
        ctx = Context(schema, p)
        used = set()
        for _ in range(r.randint(1, 7)):
            x = r.random()
            if x < 0.35:
                d = self.enum_decl(p, used, flags=r.random() < 0.45)
                if r.random() < 0.1:
                    d.attrs = [r.choice(["[hidden]", "[deprecated]"])]
                    cover("attribute:enum")
                p.decls.append(d)
            else:
                s = self.struct_decl(ctx, used)
                if r.random() < 0.1:
                    s.comment = r.choice(["// a comment", "/* block */"])
                    cover("comment")
                p.decls.append(s)
                self.fix_ids(ctx, s)
                ctx.earlier.add((p.name, s.name))
        self.forward_refs(p)
        if p.offset is not None and p.offset > 4294000000:
            # keep automatic ids within 32 bits: no (+N) past the top
            for s in p.structs():
                if s.numbering and s.numbering[0] == "+":
                    s.numbering = None
        return p

    def forward_refs(self, p):
        """Points some fields that hold a struct through a pointer (optional, collection,
        map key) at a struct declared later in the file: a forward reference."""
        structs = p.structs()
        for i, s in enumerate(structs):
            later = structs[i + 1:]
            for f in s.fields:
                if f.type.form in INLINE_FORMS or not later:
                    continue
                for attr in ("elem", "key"):
                    t = getattr(f.type, attr)
                    if t is not None and t.kind == "struct" and t.package == p.name and self.rng.random() < 0.3:
                        setattr(f.type, attr, TypeRef("struct", self.rng.choice(later).name, p.name))
                        cover("type:forward-or-self-struct")

    def schema_set(self):
        r = self.rng
        schema = SchemaSet([])
        used = set()
        count = r.choice([1, 1, 2, 2, 3])
        for i in range(count):
            earlier = [p.name for p in schema.packages]
            imports = [n for n in earlier if r.random() < 0.7] if earlier else []
            if earlier and not imports and i == count - 1:
                imports = [earlier[-1]]
            self.package(schema, used, imports)
        fix_message_ids(schema, r)
        return schema


def fix_message_ids(schema, rng):
    """After every package is made: no two messages of the set share a type id (a later
    counter change may have made two collide), explicit (N) stay unique per file."""
    for _ in range(100):
        ids = type_ids(schema)
        seen, clash = {}, None
        for p in schema.packages:
            for s in p.structs():
                if not s.message:
                    continue
                i = ids[(p.name, s.name)]
                if i in seen or i == 0:
                    clash = (p, s)
                    break
                seen[i] = s
            if clash:
                break
        if not clash:
            return
        p, s = clash
        explicit = {x.numbering[1] for x in p.structs() if x.numbering and x.numbering[0] == "="}
        n = 2**31 + rng.randint(0, 2**30)
        while n in seen or n in explicit:
            n += 1
        s.numbering = ("=", n)


def char_value(text):
    """The code of a CHAR literal."""
    body = text[1:-1]
    if not body.startswith("\\"):
        return ord(body)
    c = body[1]
    simple = {"n": 10, "r": 13, "t": 9, "0": 0, "\\": 92, "'": 39, '"': 34}
    if c in simple:
        return simple[c]
    return int(body[2:], 16)


class Context:
    """What a declaration in `package` may refer to."""

    def __init__(self, schema, package):
        self.schema, self.package = schema, package
        self.earlier = set()  # (package, struct) declared before, in this package
        self.current = None   # the struct being declared

    def packages(self):
        return [self.package] + [self.schema.package(n) for n in self.package.imports]

    def visible_enums(self):
        return [(p.name, e) for p in self.packages() for e in p.enums()]

    def visible_structs(self, inline):
        """Structs of this package and its imports; inline: only those declared before."""
        out = []
        for p in self.packages():
            for s in p.structs():
                if p is not self.package or not inline or (p.name, s.name) in self.earlier:
                    out.append((p.name, s))
        if not inline and self.current is not None:
            out.append((self.package.name, self.current))  # itself, through a pointer
        return out

    def chain(self, ref):
        out = []
        while ref:
            out.append(ref)
            s = self.schema.decl(*ref)
            ref = s.base if s else None
        return out


# ---- self-test ----

def check(fbe, texts, scratch):
    """(ok, message) of `fbe check` on the set's root package, every file on disk."""
    for name in os.listdir(scratch):
        os.remove(os.path.join(scratch, name))
    for name, text in texts.items():
        with open(os.path.join(scratch, name + ".fbe"), "w", encoding="utf-8") as f:
            f.write(text)
    bad = []
    for name in texts:
        r = subprocess.run([fbe, "check", "-I", scratch, os.path.join(scratch, name + ".fbe")],
                           capture_output=True, text=True)
        if r.returncode != 0:
            bad.append("%s: %s" % (name, (r.stderr or r.stdout).strip()))
    return not bad, "\n".join(bad)


REQUIRED = (["form:" + (f or "T") for f in FORMS] + ["base:" + b for b in BASE_TYPES] +
            ["enum-base:" + b for b in ENUM_BASES + ["default"]] + ["flags-base:" + b for b in FLAGS_BASES + ["default"]] +
            ["enum-value:" + v for v in ("implicit", "int", "char", "alias", "implicit-after-alias")] +
            ["flags-value:" + v for v in ("int", "or", "negative")] + ["enum:empty", "literal:hex", "literal:negative"] +
            ["inherit", "inherit:cross-package", "inherit:chain-3", "field:[key]", "field:[id]", "struct", "message",
             "struct:empty", "numbering:none", "numbering:+", "numbering:=", "numbering:base", "package:offset",
             "package:domain", "package:version", "import", "comment", "annotation:request", "annotation:reject",
             "attribute:struct", "attribute:field", "attribute:enum", "attribute:member",
             "type:enum", "type:flags", "type:struct", "type:imported-enum", "type:imported-struct",
             "type:forward-or-self-struct", "type:self-qualified"] +
            ["default:" + d for d in ("null", "bool", "int", "min", "max", "char-literal", "float-literal", "float-int",
                                      "decimal", "string", "string-escapes", "timestamp-epoch", "timestamp-utc",
                                      "timestamp-int", "uuid-uuid0", "uuid-uuid1", "uuid-uuid4", "uuid-text", "enum",
                                      "flags", "flags-or", "imported-enum", "optional-text", "optional-value")] +
            ["key:" + k for k in BASE_TYPES + ["enum", "struct"]] +
            ["name:" + n for n in ("plain", "long", "case-variant", "odd", "fbe-keyword-as-name")] +
            ["name:host-" + lang for lang in HOST_NAMES])


def coverage_report(out, counts=None):
    counts = COVERAGE if counts is None else counts
    missing = [c for c in REQUIRED if counts[c] == 0]
    out.write("coverage (construct: times generated):\n")
    tags = sorted(set(REQUIRED) | set(counts))
    width = max(len(t) for t in tags)
    for i in range(0, len(tags), 3):
        out.write("  " + "".join("%-*s %6d   " % (width, t, counts[t]) for t in tags[i:i + 3]) + "\n")
    if missing:
        out.write("constructs never generated: %s\n" % ", ".join(missing))
    return missing


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=20, help="schema sets (default 20; self-test: 300)")
    ap.add_argument("-o", "--output", metavar="DIR", help="write set N as DIR/N/PACKAGE.fbe")
    ap.add_argument("--self-test", action="store_true", help="check every set with fbe check; report coverage")
    ap.add_argument("--fbe", default=os.path.join(REPO, "build", "release", "bin", "fbe"))
    args = ap.parse_args()
    count = args.count if args.count != 20 or not args.self_test else 300
    failures = 0
    scratch = tempfile.mkdtemp(prefix="fbe-random-schema-")
    try:
        for i in range(count):
            schema = SchemaGen(random.Random("%d/%d" % (args.seed, i))).schema_set()
            texts = schema.texts()
            if args.output:
                d = os.path.join(args.output, str(i))
                os.makedirs(d, exist_ok=True)
                for name, text in texts.items():
                    with open(os.path.join(d, name + ".fbe"), "w", encoding="utf-8") as f:
                        f.write(text)
            if args.self_test:
                ok, why = check(args.fbe, texts, scratch)
                if not ok:
                    failures += 1
                    if failures <= 5:
                        sys.stdout.write("INVALID set %d (seed %d):\n%s\n" % (i, args.seed, why))
                        for name, text in texts.items():
                            sys.stdout.write("--- %s.fbe\n%s" % (name, text))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    missing = coverage_report(sys.stdout)
    if args.self_test:
        sys.stdout.write("random_schema self-test: %d sets, %d invalid, %d constructs never generated\n" % (
            count, failures, len(missing)))
        return 1 if failures or missing else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
