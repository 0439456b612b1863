#!/usr/bin/env python3
"""The differential run: random schemas x random values through every testee.

  differential.py --testee NAME=COMMAND... [--oracle COMMAND] [--seed S] [--schemas N]
                  [--values M] [--minutes T] [--shrink] [--regressions DIR]
                  [--known-failures FILE] [--write-known-failures FILE]

For each of N random schema sets (gen/random_schema.py, seeded by S and the set's
number) every testee loads the packages' text (`load` with "packages"); M random
values (gen/random_values.py) of the sets' structs are encoded by the oracle (the C
core, `fbe testee`) in both models and run as conformance records through the
conformance runner (./runner, imported: the same checks, the same exact comparison):
every testee verifies and decodes the oracle's bytes, every testee encodes the value,
every other decodes its bytes; bytes and values must agree. A value the oracle does not
read back to the same bytes (a null optional with a default reads as the default) also
gives a decode-only record of its first bytes. One stream per set and model, of the
messages of the root package's protocol, is fed to every receiver whole and in chunks.

Failures are grouped by class (the testee to blame and what failed). With --shrink the
first failure of every class not yet in the regressions directory is shrunk (packages,
structs, enums, fields, bases, types, defaults, names and the value cut down while the
same failure stays) and written to DIR/<name>/ (PACKAGE.fbe files and record.jsonl),
which ci/conformance.sh replays through every testee. Prints schemas per hour and the
cells checked; the exit status is the runner's (0 all passed, 1 failed, 3 a listed
known failure now passes).
"""
import argparse
import collections
import hashlib
import io
import os
import random
import re
import sys
import time
from importlib.machinery import SourceFileLoader
from importlib.util import module_from_spec, spec_from_loader

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, "gen"))
import random_schema as rs  # noqa: E402
import random_values as rv  # noqa: E402


def load_runner():
    loader = SourceFileLoader("fbe_conformance_runner", os.path.join(HERE, "runner"))
    module = module_from_spec(spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


runner = load_runner()
MODELS = ("standard", "final")


class Refused(Exception):
    pass


def ask(testee, request):
    """The oracle's answer; Refused when it answers an error (runner.TesteeDied passes)."""
    r = testee.request(request)
    if r.get("ok") is not True:
        raise Refused(r.get("error"))
    return r


def to_json_value(v):
    """A generated value in the runner's JSON model (duplicate map keys kept)."""
    if isinstance(v, rv.Pairs):
        return runner.Object([(k, to_json_value(x)) for k, x in v.pairs])
    if isinstance(v, dict):
        return runner.Object([(k, to_json_value(x)) for k, x in v.items()])
    if isinstance(v, list):
        return [to_json_value(x) for x in v]
    return v


def never_null(schema):
    """(struct, field) of the optionals with a utc/uuid1/uuid4 default (inherited ones too)."""
    out = set()
    for p in schema.packages:
        for s in p.structs():
            for _, f in schema.flat_fields(p.name, s.name):
                if f.default and f.default[0] == "text" and f.default[2] and f.type.form in ("?", "~"):
                    out.add(("%s.%s" % (p.name, s.name), f.name))
    return out


def protocol_messages(schema, package):
    """The messages a receiver of package handles: its own and its imports'."""
    p = schema.package(package)
    return [(q.name, s.name) for q in [p] + [schema.package(n) for n in p.imports] for s in q.structs() if s.message]


def describe(oracle, schema):
    structs = {}
    for p in schema.packages:
        for s in ask(oracle, {"op": "describe", "package": p.name})["structs"]:
            structs[s["name"]] = s
    return structs


# ---- records of one item (a value of a type, or a stream), made by the oracle ----

def value_records(oracle, item, rid):
    """The records of a value item: [record] (a decode-only one first when the value's
    bytes do not come back from its decoded value), or raises Refused."""
    base = {"package": item["package"], "type": item["type"], "model": item["model"]}
    h1 = ask(oracle, dict(base, op="encode", json=item["value"]))["hex"]
    j1 = ask(oracle, dict(base, op="decode", hex=h1))["json"]
    h2 = ask(oracle, dict(base, op="encode", json=j1))["hex"]
    rec = {"schema": item["package"], "type": item["type"], "format": item["model"], "json": j1}
    out = []
    if h2 != h1:
        if runner.dumps(ask(oracle, dict(base, op="decode", hex=h2))["json"]) != runner.dumps(j1):
            raise Refused("the value does not settle: it reads back differently every time")
        size = ask(oracle, dict(base, op="verify", hex=h1)).get("size")
        out.append(dict(rec, id=rid + "-read", hex=h1, size=size, decode_only=True))
    size = ask(oracle, dict(base, op="verify", hex=h2)).get("size")
    out.append(dict(rec, id=rid, hex=h2, size=size))
    return out


def stream_records(oracle, item, rid):
    base = {"package": item["package"], "model": item["model"]}
    h1 = ask(oracle, dict(base, op="stream-encode", messages=item["messages"]))["hex"]
    got = ask(oracle, dict(base, op="stream-decode", hex=h1))
    if got.get("pending") != 0:
        raise Refused("the oracle's own stream does not read back")
    messages = got["messages"]
    h2 = ask(oracle, dict(base, op="stream-encode", messages=messages))["hex"]
    if h2 != h1 and runner.dumps(ask(oracle, dict(base, op="stream-decode", hex=h2))["messages"]) != \
            runner.dumps(messages):
        raise Refused("the stream does not settle")
    return [{"id": rid, "schema": item["package"], "format": "stream-" + item["model"], "json": messages, "hex": h2}]


def item_records(oracle, item, rid):
    return value_records(oracle, item, rid) if item["kind"] == "value" else stream_records(oracle, item, rid)


# ---- failures ----

CATEGORIES = [
    (r"load failed", "load failed"), (r"crashed", "crash"), (r"hang: ", "hang"),
    (r"malformed response", "malformed response"), (r"bytes differ|got \d+ bytes, want \d+", "wrong bytes"),
    (r"^(stream-)?encode: error", "encode refused"), (r"^stream-decode[^:]*: error", "stream-decode refused"),
    (r"^decode: error", "decode refused"), (r"^verify: error", "verify refused"), (r"verify says", "verify"),
    (r"verify size", "verify size"),
    (r"stream-decode.*messages differ", "stream messages differ"), (r"value differs", "value differs"),
]


DIFFERS = ("value differs", "stream messages differ", "wrong bytes")


class Failure:
    def __init__(self, rid, where, what, lines):
        self.rid, self.where, self.what, self.lines = rid, where, what or "", lines
        self.category = next((name for pattern, name in CATEGORIES if re.search(pattern, self.what)),
                             re.sub(r"\d+", "N", self.what.split(":")[0])[:40])

    def culprit(self):
        """The testee to blame: the encoder of a cell with wrong bytes, else the decoder."""
        if len(self.where) == 1:
            return self.where[0]
        return self.where[0] if self.category in ("wrong bytes", "encode refused") else self.where[1]

    def symptom(self):
        """What kind of difference or error: the class within a category."""
        if self.category in DIFFERS:
            if not self.lines:
                if self.category == "wrong bytes" and "value differs" not in self.what:
                    return "bytes only" if "; " not in self.what else "bytes, the decoder failed too"
                return "no detail"
            text = self.lines[0].split(": ", 1)[-1]
            for pattern, name in (("another order", "member order"), ("elements, want", "element count"),
                                  ("messages, want", "message count"), ("a duplicate", "duplicate"),
                                  ("missing", "missing member"), ("unexpected", "unexpected member"),
                                  ("bytes differ at", "bytes value"), ("pending", "bytes left over"),
                                  ("float32 bits", "float32"), ("double bits", "double"),
                                  ("decimals compare", "decimal"), ("an integer", "not an integer"),
                                  ("answer differs from the answer to the whole", "depends on the chunks")):
                if pattern in text:
                    return name
            return "value"
        text = self.what.split("error: ", 1)[-1] if "error: " in self.what else self.what
        text = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*'|\S*[._0-9]\S*", "_", text.split("\n")[0])
        text = re.sub(r"\b(valid|enum|struct|field|method|type|for) \w+", r"\1 _", text)  # a name of the schema
        return " ".join(text.split())[:60]

    def klass(self):
        """(testee to blame, what failed, how): one root cause seen by several checks
        (a refusal by encode, decode and verify; wrong bytes and the value they decode
        to) is one class."""
        kind = "refused" if self.category.endswith("refused") else "differs" if self.category in DIFFERS else \
            self.category
        return (self.culprit(), kind, self.symptom())

    def detail(self):
        text = self.lines[0] if self.lines else self.what
        return re.sub(r'"(?:[^"\\]|\\.)*"|\b\d+\b|[0-9a-f]{8,}', "_", text)[:100]

    def text(self, limit=300):
        def cut(line):
            line = " ".join(line.split())
            return line if len(line) <= limit else line[:limit - 3] + "..."
        return "%s [%s] %s%s" % (self.rid, runner.where_text(self.where), cut(self.what),
                                 "".join("\n        " + cut(line) for line in self.lines[:3]))


class DiffRunner(runner.Runner):
    """The conformance runner, keeping every new failure as a Failure and counting cells."""

    def __init__(self, testees, types, known, chunks):
        super().__init__(testees, types, known)
        self.events, self.cells = [], 0
        self.chunkings = chunks

    def count(self, rid, where, ok, what=None, diffs=None, cell=None):
        before = len(self.failures)
        super().count(rid, where, ok, what, diffs, cell)
        self.cells += 1
        if len(self.failures) > before:
            self.events.append(Failure(rid, where, what, diffs.lines() if diffs else []))


def light_chunkings(rid, size):
    """Fewer splits than the runner's full set: sizes 1, 2, 3, 7 and 64, two random
    splits seeded by the record id, and one with empty pieces."""
    plans = [{"chunk_size": k} for k in (1, 2, 3, 7, 64) if k < size]
    if size > 1:
        rng = random.Random(rid)
        for _ in range(2):
            cuts = sorted(rng.sample(range(1, size), min(size - 1, rng.randint(1, 6))))
            plans.append({"chunks": [b - a for a, b in zip([0] + cuts, cuts)]})
        plans.append({"chunks": [0, size // 2, 0]})
    return plans


# ---- one schema set ----

class Case:
    """A schema set, its values and the records made of them."""

    def __init__(self, seed, index, values, duplicates):
        self.seed, self.index, self.duplicates = seed, index, duplicates
        rng = random.Random("%d/%d" % (seed, index))
        self.schema = rs.SchemaGen(rng).schema_set()
        self.rng = rng
        self.values = values
        self.items = {}  # record id -> item

    def prefix(self):
        return "diff-%d-%d" % (self.seed, self.index)

    def draw_items(self, structs):
        rng, schema = self.rng, self.schema
        gen = rv.ValueGen(rng, structs, never_null(schema), self.duplicates)
        names = sorted(structs)
        items = []
        for n in range(self.values if names else 0):
            name = rng.choice(names)
            package, _, type_ = name.rpartition(".")
            value = to_json_value(gen.struct(name))
            for model in MODELS:
                items.append(("%s-v%d-%s" % (self.prefix(), n, model),
                              {"kind": "value", "package": package, "type": type_, "model": model, "value": value}))
        root = schema.packages[-1].name
        messages = protocol_messages(schema, root)
        if messages:
            picks = [rng.choice(messages) for _ in range(rng.randint(1, 4))]
            stream = [{"schema": p, "type": t, "json": to_json_value(gen.struct("%s.%s" % (p, t)))} for p, t in picks]
            for model in MODELS:
                items.append(("%s-stream-%s" % (self.prefix(), model),
                              {"kind": "stream", "package": root, "model": model, "messages": stream}))
        return items


class Differential:
    def __init__(self, args, testees, oracle):
        self.args, self.testees, self.oracle = args, testees, oracle
        known = runner.KnownFailures(args.known_failures) if args.known_failures else None
        self.run = DiffRunner(testees, runner.Types([oracle]), known, light_chunkings)
        self.run.text, self.run.native = args.text, args.native  # the runner's --text and --native checks
        self.run.view = args.view  # and its --view check
        self.stats = collections.Counter()
        self.first = {}           # class -> (case, failure)
        self.classes = collections.OrderedDict()  # class -> [failures]
        self.by_schema = collections.defaultdict(list)  # (seed, index) -> [failures]
        self.values_of = {}       # (seed, index) -> the values and streams that gave records
        self.known_classes = existing_regressions(args.regressions)
        self.written = []

    def one(self, case):
        load = {"op": "load", "packages": case.schema.texts()}
        self.oracle.load(load)
        if self.oracle.load_error:
            self.stats["generator: invalid schema sets"] += 1
            sys.stdout.write("GENERATOR BUG: set %s does not load in the oracle: %s\n" % (
                case.prefix(), self.oracle.load_error))
            return
        structs = describe(self.oracle, case.schema)
        records = []
        for rid, item in case.draw_items(structs):
            try:
                made = item_records(self.oracle, item, rid)
            except Refused as e:
                self.stats["values the core refuses or that do not settle"] += 1
                if self.args.verbose:
                    sys.stdout.write("skipped %s: %s\n" % (rid, e))
                continue
            for rec in made:
                case.items[rec["id"]] = item
            records += made
        self.values_of[(case.seed, case.index)] = len({value_group(r["id"]) for r in records})
        self.run.load(load)
        before = len(self.run.events)
        for rec in records:
            self.run.record(rec)
        self.stats["records"] += len(records)
        for f in self.run.events[before:]:
            self.by_schema[(case.seed, case.index)].append(f)
            k = f.klass()
            if k not in self.classes:
                self.classes[k] = []
                self.first[k] = (case, f)
                sys.stdout.write("NEW FAILURE CLASS %s: %s\n" % (" / ".join(k), f.text()))
                # (wrong bytes that a decoder also fails on: both have classes of their own)
                if self.args.shrink and k not in self.known_classes and k[2] != "bytes, the decoder failed too":
                    self.shrink(case, f)
            self.classes[k].append(f)

    def shrink(self, case, failure):
        item = case.items.get(failure.rid)
        if item is None:
            return
        involved = [t for t in self.testees if t.name in failure.where]
        shrinker = Shrinker(self.oracle, involved, case.schema, item, failure, self.args.shrink_seconds)
        schema, item, records = shrinker.run()
        name = write_regression(self.args.regressions, case, failure, schema, records)
        if name not in self.written:
            self.written.append(name)
        sys.stdout.write("    shrunk in %d attempts (%d kept) to %s\n" % (shrinker.attempts, shrinker.kept, name))
        self.known_classes.add(failure.klass())


# ---- shrinking ----

def struct_closure(schema, package, name):
    """The struct and every struct that derives from it (their JSON objects hold its fields)."""
    out = {(package, name)}
    changed = True
    while changed:
        changed = False
        for p in schema.packages:
            for s in p.structs():
                if s.base and tuple(s.base) in out and (p.name, s.name) not in out:
                    out.add((p.name, s.name))
                    changed = True
    return {"%s.%s" % k for k in out}


def walk(v, t, structs, fn):
    """Rebuilds value v of described type t, applying fn(struct name, object) to every struct object."""
    if v is None or t is None:
        return v
    kind = t["kind"]
    if kind == "struct" and isinstance(v, dict):
        fields = {f["name"]: f["type"] for f in structs.get(t["struct"], {"fields": []})["fields"]}
        obj = runner.Object([(k, walk(x, fields.get(k), structs, fn)) for k, x in runner.pairs(v)])
        return fn(t["struct"], obj)
    if kind == "optional":
        return walk(v, t["elem"], structs, fn)
    if kind in ("array", "vector", "list", "set") and isinstance(v, list):
        return [walk(x, t["elem"], structs, fn) for x in v]
    if kind in ("map", "hash"):
        if isinstance(v, list):
            return [[walk(p[0], t["key"], structs, fn), walk(p[1], t["elem"], structs, fn)]
                    if isinstance(p, list) and len(p) == 2 else p for p in v]
        if isinstance(v, dict):
            return runner.Object([(k, walk(x, t["elem"], structs, fn)) for k, x in runner.pairs(v)])
    return v


def without_members(obj, names):
    return runner.Object([(k, x) for k, x in runner.pairs(obj) if k not in names])


def renamed_member(obj, old, new):
    return runner.Object([(new if k == old else k, x) for k, x in runner.pairs(obj)])


class Shrinker:
    """Cuts a failing (schema, item) down while the same failure stays: same testee(s),
    same category."""

    def __init__(self, oracle, testees, schema, item, failure, seconds):
        self.oracle, self.testees, self.failure = oracle, testees, failure
        self.schema, self.item = schema.copy(), item
        self.deadline = time.time() + seconds
        self.attempts = self.kept = 0
        self.structs = None
        self.records = None

    def item_types(self, item):
        if item["kind"] == "value":
            return [(item["package"], item["type"])]
        return [(m["schema"], m["type"]) for m in item["messages"]]

    def map_item(self, item, fn):
        """The item with fn applied to every struct object of its value(s)."""
        item = dict(item)
        if item["kind"] == "value":
            t = {"kind": "struct", "struct": "%s.%s" % (item["package"], item["type"])}
            item["value"] = walk(item["value"], t, self.structs, fn)
        else:
            item["messages"] = [dict(m, json=walk(m["json"], {"kind": "struct", "struct": "%s.%s" % (
                m["schema"], m["type"])}, self.structs, fn)) for m in item["messages"]]
        return item

    def attempt(self, schema, item):
        """Whether the candidate still fails the same way (then it becomes the state)."""
        self.attempts += 1
        load = {"op": "load", "packages": schema.texts()}
        self.oracle.load(load)
        if self.oracle.load_error:
            return False
        try:
            structs = describe(self.oracle, schema)
            records = item_records(self.oracle, item, "shrink")
        except (Refused, runner.TesteeDied, KeyError):
            return False
        mini = DiffRunner(self.testees, runner.Types([self.oracle]), None, light_chunkings)
        mini.load(load)
        for rec in records:
            mini.record(rec)
        if not any(f.where == self.failure.where and f.klass() == self.failure.klass() for f in mini.events):
            return False
        self.schema, self.item, self.structs, self.records = schema, item, structs, records
        self.kept += 1
        return True

    def run(self):
        if not self.attempt(self.schema, self.item):  # flaky, or needs the other testees: keep it whole
            self.records = item_records(self.oracle, self.item, "shrink") if self.records is None else self.records
            return self.schema, self.item, self.records
        progress = True
        while progress and time.time() < self.deadline:
            progress = False
            for schema, item in self.candidates():
                if time.time() >= self.deadline:
                    break
                if self.attempt(schema, item):
                    progress = True
                    break
        return self.schema, self.item, self.records

    # -- candidates, big cuts first; each is (schema, item) --
    def candidates(self):
        yield from self.to_base()
        yield from self.drop_packages()
        yield from self.drop_messages()
        yield from self.drop_decls()
        yield from self.drop_fields()
        yield from self.drop_bases()
        yield from self.simplify_fields()
        yield from self.simplify_decls()
        yield from self.shrink_values()
        yield from self.rename()

    def to_base(self):
        """A value of a derived struct made a value of its base (the inherited members)."""
        item = self.item
        if item["kind"] != "value":
            return
        s = self.schema.decl(item["package"], item["type"])
        if s is None or not s.base:
            return
        names = {n for _, f in self.schema.flat_fields(*s.base) for n in f.names()}
        value = without_members(item["value"], {k for k, _ in runner.pairs(item["value"])} - names)
        yield self.schema, dict(item, package=s.base[0], type=s.base[1], value=value)

    def needed(self):
        return set(self.item_types(self.item))

    def remove_refs(self, schema, item, gone):
        """Removes from schema every field, base and annotation that uses a type in gone
        ({(package, name)}), and the members of removed fields from the item."""
        drop = collections.defaultdict(set)  # struct full name -> member names
        for p in schema.packages:
            for s in p.structs():
                keep = []
                for f in s.fields:
                    uses = any(t.kind != "base" and (t.package, t.name) in gone for t in f.type.refs())
                    uses = uses or (f.default and f.default[0] == "enum" and (f.default[1], f.default[2]) in gone)
                    if uses:
                        for name in struct_closure(schema, p.name, s.name):
                            drop[name].update(f.names())
                    else:
                        keep.append(f)
                s.fields = keep
                if s.base and tuple(s.base) in gone:
                    base_fields = [f for _, f in schema.flat_fields(*s.base)] if schema.decl(*s.base) else []
                    for name in struct_closure(schema, p.name, s.name):
                        drop[name].update(n for f in base_fields for n in f.names())
                    s.base = None
                    if s.numbering and s.numbering[0] == "base":
                        s.numbering = None
                if s.request:
                    refs = [s.request.get("response")] + s.request.get("reject", [])
                    if any(r is not None and (r.package, r.name) in gone for r in refs):
                        s.request = None
        return self.map_item(item, lambda name, obj: without_members(obj, drop[name]) if name in drop else obj)

    def drop_packages(self):
        needed = {p for p, _ in self.needed()}
        for p in list(self.schema.packages):
            if p.name in needed:
                continue
            schema = self.schema.copy()
            gone = {(p.name, d.name) for d in p.decls}
            item = self.remove_refs(schema, self.item, gone)
            schema.packages = [q for q in schema.packages if q.name != p.name]
            for q in schema.packages:
                q.imports = [n for n in q.imports if n != p.name]
            yield schema, item

    def drop_messages(self):
        if self.item["kind"] != "stream" or len(self.item["messages"]) < 2:
            return
        for i in range(len(self.item["messages"])):
            yield self.schema, dict(self.item, messages=self.item["messages"][:i] + self.item["messages"][i + 1:])

    def drop_decls(self):
        needed = self.needed()
        for p in self.schema.packages:
            for d in p.decls:
                if (p.name, d.name) in needed:
                    continue
                schema = self.schema.copy()
                # the base of a needed struct goes with its fields
                item = self.remove_refs(schema, self.item, {(p.name, d.name)})
                q = schema.package(p.name)
                q.decls = [x for x in q.decls if x.name != d.name]
                yield schema, item

    def drop_fields(self):
        for p in self.schema.packages:
            for s in p.structs():
                for i, f in enumerate(s.fields):
                    schema = self.schema.copy()
                    t = schema.decl(p.name, s.name)
                    names = set(t.fields[i].names())
                    del t.fields[i]
                    closure = struct_closure(schema, p.name, s.name)
                    yield schema, self.map_item(self.item, lambda name, obj: without_members(obj, names)
                                                if name in closure else obj)

    def drop_bases(self):
        for p in self.schema.packages:
            for s in p.structs():
                if s.base:
                    schema = self.schema.copy()
                    yield schema, self.remove_refs_base(schema, p.name, s.name)

    def remove_refs_base(self, schema, package, name):
        s = schema.decl(package, name)
        names = {n for _, f in schema.flat_fields(*s.base) for n in f.names()}
        closure = struct_closure(schema, package, name)
        s.base = None
        if s.numbering and s.numbering[0] == "base":
            s.numbering = None
        return self.map_item(self.item, lambda n, obj: without_members(obj, names) if n in closure else obj)

    def simplify_fields(self):
        for p in self.schema.packages:
            for s in p.structs():
                for i, f in enumerate(s.fields):
                    changes = []
                    if f.default is not None:
                        changes.append(("default", None))
                    if f.key:
                        changes.append(("key", False))
                    if f.attrs:
                        changes.append(("attrs", []))
                    if f.type.form not in ("", "?"):
                        changes.append(("form", "?" if f.type.form in rs.OPTIONAL_ELEMENT | {"~"} else ""))
                    elif f.type.form == "?":
                        changes.append(("form", ""))
                    if f.type.elem.kind != "base" or f.type.elem.name != "int32":
                        changes.append(("elem", rs.TypeRef("base", "int32")))
                    if f.type.key is not None and (f.type.key.kind != "base" or f.type.key.name != "int32"):
                        changes.append(("key_type", rs.TypeRef("base", "int32")))
                    for what, to in changes:
                        schema = self.schema.copy()
                        g = schema.decl(p.name, s.name).fields[i]
                        keep_value = what in ("default", "key", "attrs")
                        if what == "form":
                            g.type.form = to
                            g.type.size = None if "N" not in to else g.type.size
                            g.type.key = g.type.key if "K" in to else None
                        elif what == "elem":
                            g.type.elem, g.default = to, None
                        elif what == "key_type":
                            g.type.key = to
                        else:
                            setattr(g, what, to)
                        if g.default is not None and what == "form":
                            g.default = None
                        if keep_value:
                            yield schema, self.item
                        else:
                            names = set(f.names())
                            closure = struct_closure(schema, p.name, s.name)
                            yield schema, self.map_item(self.item, lambda name, obj: without_members(obj, names)
                                                        if name in closure else obj)

    def simplify_decls(self):
        for p in self.schema.packages:
            if p.offset is not None or p.domain or p.version or p.header_comment:
                schema = self.schema.copy()
                q = schema.package(p.name)
                q.offset = q.domain = q.version = q.header_comment = None
                yield schema, self.item
            for d in p.decls:
                schema = self.schema.copy()
                x = schema.decl(p.name, d.name)
                if isinstance(x, rs.Struct):
                    if x.numbering or x.attrs or x.request or x.comment:
                        x.numbering, x.attrs, x.request, x.comment = None, [], None, None
                        yield schema, self.item
                    needed_messages = {(m["schema"], m["type"]) for m in self.item.get("messages", [])}
                    if d.message and (p.name, d.name) not in needed_messages:
                        schema = self.schema.copy()
                        schema.decl(p.name, d.name).message = False
                        yield schema, self.item
                else:
                    if x.attrs or x.comment or x.base:
                        x.attrs, x.comment, x.base = [], None, None
                        yield schema, self.item
                    for i in range(len(d.members)):
                        schema = self.schema.copy()
                        del schema.decl(p.name, d.name).members[i]
                        yield schema, self.item

    def shrink_values(self):
        """Smaller values: collections cut, strings and numbers to their simplest, members
        dropped (their defaults), optionals null (where a null reads back the same)."""
        roots = []
        if self.item["kind"] == "value":
            roots.append(((), self.item["value"], {"kind": "struct", "struct": "%s.%s" % (
                self.item["package"], self.item["type"])}))
        else:
            roots += [(("messages", i), m["json"], {"kind": "struct", "struct": "%s.%s" % (m["schema"], m["type"])})
                      for i, m in enumerate(self.item["messages"])]
        for root, value, t in roots:
            for path, new in value_cuts(value, t, self.structs, ()):
                yield self.schema, self.replace_item(root, path, new)

    def replace_item(self, root, path, new):
        item = dict(self.item)
        if root == ():
            item["value"] = replace(item["value"], path, new)
        else:
            messages = list(item["messages"])
            messages[root[1]] = dict(messages[root[1]], json=replace(messages[root[1]]["json"], path, new))
            item["messages"] = messages
        return item

    def rename(self):
        """Plain names for packages, types, fields and members: what remains is a name that matters."""
        n = 0
        for p in self.schema.packages:
            n += 1
            new = "p%d" % n
            if p.name != new and not self.schema.package(new):
                yield self.rename_package(p.name, new)
            for d in p.decls:
                n += 1
                new = ("S%d" if isinstance(d, rs.Struct) else "E%d") % n
                if d.name != new and not p.find(new):
                    yield self.rename_decl(p.name, d.name, new)
                if isinstance(d, rs.Struct):
                    for f in d.fields:
                        n += 1
                        new = "f%d" % n
                        if f.name != new and not f.is_id:
                            yield self.rename_field(p.name, d.name, f.name, new)
                else:
                    for m in d.members:
                        n += 1
                        new = "m%d" % n
                        if m.name != new:
                            yield self.rename_member(p.name, d.name, m.name, new)

    def all_refs(self, schema):
        for p in schema.packages:
            for s in p.structs():
                for f in s.fields:
                    yield from f.type.refs()
                if s.request:
                    yield from [r for r in [s.request.get("response")] + s.request.get("reject", []) if r]

    def rename_package(self, old, new):
        schema = self.schema.copy()
        for p in schema.packages:
            if p.name == old:
                p.name = new
            p.imports = [new if n == old else n for n in p.imports]
            for s in p.structs():
                if s.base and s.base[0] == old:
                    s.base = (new, s.base[1])
                for f in s.fields:
                    if f.default and f.default[0] == "enum" and f.default[1] == old:
                        f.default = ("enum", new) + tuple(f.default[2:])
        for r in self.all_refs(schema):
            if r.package == old:
                r.package = new
        item = dict(self.item)
        if item["kind"] == "value":
            item["package"] = new if item["package"] == old else item["package"]
        else:
            item["package"] = new if item["package"] == old else item["package"]
            item["messages"] = [dict(m, schema=new if m["schema"] == old else m["schema"]) for m in item["messages"]]
        return schema, item

    def rename_decl(self, package, old, new):
        schema = self.schema.copy()
        schema.decl(package, old).name = new
        for p in schema.packages:
            for s in p.structs():
                if s.base and tuple(s.base) == (package, old):
                    s.base = (package, new)
                for f in s.fields:
                    if f.default and f.default[0] == "enum" and (f.default[1], f.default[2]) == (package, old):
                        f.default = ("enum", package, new, f.default[3])
        for r in self.all_refs(schema):
            if (r.package, r.name) == (package, old):
                r.name = new
        item = dict(self.item)
        if item["kind"] == "value" and (item["package"], item["type"]) == (package, old):
            item["type"] = new
        elif item["kind"] == "stream":
            item["messages"] = [dict(m, type=new if (m["schema"], m["type"]) == (package, old) else m["type"])
                                for m in item["messages"]]
        return schema, item

    def rename_field(self, package, struct, old, new):
        schema = self.schema.copy()
        f = next(f for f in schema.decl(package, struct).fields if f.name == old)
        olds = f.names()
        f.name = new
        news = f.names()
        closure = struct_closure(schema, package, struct)

        def fn(name, obj):
            if name not in closure:
                return obj
            for a, b in zip(olds, news):
                obj = renamed_member(obj, a, b)
            return obj

        return schema, self.map_item(self.item, fn)

    def rename_member(self, package, enum, old, new):
        schema = self.schema.copy()
        e = schema.decl(package, enum)
        for m in e.members:
            if m.name == old:
                m.name = new
            if m.value and m.value[0] == "alias" and m.value[1] == old:
                m.value = ("alias", new)
            if m.value and m.value[0] == "or":
                m.value = ("or", [new if x == old else x for x in m.value[1]])
        for p in schema.packages:
            for s in p.structs():
                for f in s.fields:
                    if f.default and f.default[0] == "enum" and (f.default[1], f.default[2]) == (package, enum):
                        f.default = ("enum", package, enum, [new if x == old else x for x in f.default[3]])
        return schema, self.item


def value_cuts(v, t, structs, path):
    """(path, smaller value) for every place of v (of described type t) worth simplifying."""
    kind = t["kind"] if t else None
    if kind == "optional":
        if v is not None:
            yield path, None
            yield from value_cuts(v, t["elem"], structs, path)
        return
    if v is None:
        return
    if kind == "struct" and isinstance(v, dict):
        fields = {f["name"]: f["type"] for f in structs.get(t["struct"], {"fields": []})["fields"]}
        for k, x in runner.pairs(v):
            yield path, without_members(v, {k})
        for k, x in runner.pairs(v):
            yield from value_cuts(x, fields.get(k), structs, path + (k,))
    elif kind in ("vector", "list", "set", "map", "hash") and isinstance(v, (list, dict)):
        items = runner.pairs(v) if isinstance(v, dict) else list(v)
        n = len(items)
        if n:
            yield path, runner.Object([]) if isinstance(v, dict) else []
        if n > 2:
            half = items[:n // 2]
            yield path, runner.Object(half) if isinstance(v, dict) else half
        for i in range(min(n, 8)):
            rest = items[:i] + items[i + 1:]
            yield path, runner.Object(rest) if isinstance(v, dict) else rest
        for i, x in enumerate(items[:8]):
            if isinstance(v, dict):
                yield from value_cuts(x[1], t["elem"], structs, path + (x[0],))
            elif kind in ("map", "hash") and isinstance(x, list) and len(x) == 2:
                yield from value_cuts(x[1], t["elem"], structs, path + (i, 1))
            else:
                yield from value_cuts(x, t["elem"], structs, path + (i,))
    elif kind == "array" and isinstance(v, list):
        for i, x in enumerate(v[:8]):
            yield from value_cuts(x, t["elem"], structs, path + (i,))
    elif kind == "string" and isinstance(v, str) and v:
        yield path, ""
        if len(v) > 1:
            yield path, v[:1]
    elif kind in rs.INT_RANGES or kind in ("enum", "flags"):
        if v != 0 and type(v) is int:
            yield path, 0
    elif kind in ("float", "double") and not (isinstance(v, runner.Number) and v.text in ("0.0", "0")):
        yield path, 0.0
    elif kind == "bytes" and v:
        yield path, ""


def replace(v, path, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(v, dict):
        return runner.Object([(k, replace(x, rest, new) if k == head else x) for k, x in runner.pairs(v)])
    out = list(v)
    out[head] = replace(out[head], rest, new)
    return out


# ---- regressions ----

def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40]


def existing_regressions(directory):
    """The failure classes the regressions directory already has a record of."""
    out = set()
    if not directory or not os.path.isdir(directory):
        return out
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name, "record.jsonl")
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as f:
                meta = runner.parse(f.readline()).get("_meta", {})
            for k in meta.get("classes", []):
                if isinstance(k, list) and len(k) == 3:
                    out.add(tuple(k))
    return out


def write_regression(directory, case, failure, schema, records):
    """Writes DIR/NAME/ (PACKAGE.fbe files, record.jsonl); a shrink that ends in a case
    already written (one bug, seen by several testees) adds its class to that one."""
    texts = schema.texts()
    digest = hashlib.sha1((runner.dumps(texts) + runner.dumps(records)).encode("utf-8")).hexdigest()[:8]
    same = [n for n in (os.listdir(directory) if os.path.isdir(directory) else []) if n.endswith("-" + digest)]
    if same:
        d = os.path.join(directory, same[0])
        path = os.path.join(d, "record.jsonl")
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        meta = runner.parse(lines[0])
        meta["_meta"]["classes"].append(list(failure.klass()))
        meta["_meta"]["failures"].append("[%s] %s" % (runner.where_text(failure.where), failure.what[:300]))
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write("\n".join([runner.dumps(meta)] + lines[1:]) + "\n")
        return d
    name = "%s-%s-%s-%s" % (slug(failure.culprit()), slug(failure.category), slug(failure.symptom())[:24], digest)
    d = os.path.join(directory, name)
    os.makedirs(d, exist_ok=True)
    for package, text in texts.items():
        with open(os.path.join(d, package + ".fbe"), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    meta = {"_meta": {"found_by": "tests/conformance/differential.py", "seed": case.seed, "set": case.index,
                      "classes": [list(failure.klass())], "failures": ["[%s] %s" % (
                          runner.where_text(failure.where), failure.what[:300])]}}
    with open(os.path.join(d, "record.jsonl"), "w", encoding="utf-8", newline="\n") as f:
        f.write(runner.dumps(meta) + "\n")
        for i, rec in enumerate(records):
            rec = dict({"id": "reg-%s-%d" % (name, i)}, **{k: v for k, v in rec.items() if k != "id"})
            f.write(runner.dumps(rec) + "\n")
    return d


# ---- the run ----

def value_group(rid):
    """The value (or stream) a record id belongs to: diff-S-I-vN or diff-S-I-stream."""
    return re.sub(r"-(standard|final)(-read)?$", "", rid)


def write_known_failures(path, diff):
    """A known-failures list of this run: per value (both models), a line per testee whose
    own checks failed (it covers the cells it is in), else `X->*` for an encoder whose
    bytes are wrong and `*->Y` for a decoder; per set, one line for a testee that failed
    every value of it (a set it cannot load, or names it refuses)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write("# known failures of the differential batch (tests/conformance/differential.py "
                "--write-known-failures):\n# RECORD-ID TESTEE CLASSES (the testee to blame, what failed: count)\n")
        for (seed, index), failures in sorted(diff.by_schema.items()):
            groups = collections.OrderedDict()
            for fl in failures:
                groups.setdefault(value_group(fl.rid), []).append(fl)
            everywhere = None
            for fls in groups.values():
                singles = {fl.where[0] for fl in fls if len(fl.where) == 1}
                everywhere = singles if everywhere is None else everywhere & singles
            total = diff.values_of.get((seed, index), len(groups))
            schema_wide = everywhere if len(groups) == total else set()
            lines = collections.OrderedDict()
            for fl in failures:
                who = next((t for t in fl.where if t in schema_wide), None)
                pattern = "diff-%d-%d-*" % (seed, index) if who else value_group(fl.rid) + "-*"
                if who is None:
                    singles = {x.where[0] for x in groups[value_group(fl.rid)] if len(x.where) == 1}
                    who = next((t for t in fl.where if t in singles), None)
                if who is None:
                    who = "%s->*" % fl.where[0] if fl.category in ("wrong bytes", "encode refused") else \
                        "*->%s" % fl.where[1]
                lines.setdefault((pattern, who), collections.Counter())[" / ".join(fl.klass())] += 1
            for (pattern, who), classes in lines.items():
                f.write("%s %s %s\n" % (pattern, who, "; ".join("%s: %d" % kv for kv in classes.most_common())))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--testee", action="append", default=[], metavar="NAME=COMMAND")
    ap.add_argument("--oracle", default=os.path.join(REPO, "build", "release", "bin", "fbe") + " testee",
                    help="the C testee that encodes the values (default: build/release/bin/fbe testee)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--schemas", type=int, default=None, help="schema sets (default 50, or no limit with --minutes)")
    ap.add_argument("--values", type=int, default=20, help="values per schema set, each in both models (default 20)")
    ap.add_argument("--minutes", type=float, default=None, help="stop starting sets after this long")
    ap.add_argument("--duplicates", type=float, default=0.05,
                    help="chance that a set or map repeats an element or key (default 0.05; the wire allows it)")
    ap.add_argument("--shrink", action="store_true", help="shrink the first failure of every new class")
    ap.add_argument("--shrink-seconds", type=float, default=300, help="time for one shrink (default 300)")
    ap.add_argument("--regressions", default=os.path.join(REPO, "tests", "regressions", "differential"))
    ap.add_argument("--known-failures", metavar="FILE")
    ap.add_argument("--write-known-failures", metavar="FILE")
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--max-failures", type=int, default=40, help="failure lines printed (default 40)")
    ap.add_argument("--text", action="store_true",
                    help="every testee's text of every value must be the C testee's (the runner's --text)")
    ap.add_argument("--native", action="store_true",
                    help="every value built through each testee's native constructors must give the oracle's "
                         "bytes (the runner's --native)")
    ap.add_argument("--view", action="store_true",
                    help="every decode and text request sent again with \"view\": true must get the same answer "
                         "(the runner's --view)")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)
    if not args.testee:
        ap.error("give at least one --testee NAME=COMMAND")
    count = args.schemas if args.schemas is not None else (None if args.minutes else 50)
    scratch = runner.tempfile.mkdtemp(prefix="fbe-differential-")
    env = dict(os.environ, TMPDIR=scratch)
    first_load = {"op": "load", "packages": {}}
    testees = []
    for spec in args.testee:
        name, sep, command = spec.partition("=")
        if not sep or not name or not command:
            ap.error("want NAME=COMMAND, got %r" % spec)
        testees.append(runner.Testee(name, command, first_load, args.timeout, env))
    oracle = runner.Testee("oracle", args.oracle, first_load, args.timeout, env)
    diff = Differential(args, testees, oracle)
    started = time.time()
    sets = 0
    try:
        while count is None or sets < count:
            if args.minutes is not None and time.time() - started > args.minutes * 60:
                break
            diff.one(Case(args.seed, sets, args.values, args.duplicates))
            sets += 1
    finally:
        for t in testees + [oracle]:
            t.stop(graceful=True)
        runner.shutil.rmtree(scratch, ignore_errors=True)
    elapsed = time.time() - started
    out = io.StringIO()
    status = diff.run.report(out, args.max_failures)
    sys.stdout.write(out.getvalue())
    if diff.classes:
        sys.stdout.write("\nfailure classes (testee to blame, what failed: failures; first; distinct details):\n")
        for k, failures in diff.classes.items():
            case, first = diff.first[k]
            details = list(dict.fromkeys(f.detail() for f in failures))
            sys.stdout.write("  %s: %d failures in %d sets; first %s\n" % (
                " / ".join(k), len(failures), len({f.rid.rsplit("-v", 1)[0].rsplit("-stream", 1)[0] for f in failures}),
                first.text()))
            for d in details[:3]:
                sys.stdout.write("      e.g. %s\n" % d)
    for name in diff.written:
        sys.stdout.write("regression written: %s\n" % os.path.relpath(name, REPO))
    if args.write_known_failures:
        write_known_failures(args.write_known_failures, diff)
    for k, v in sorted(diff.stats.items()):
        sys.stdout.write("%s: %d\n" % (k, v))
    sys.stdout.write("differential: seed %d, %d schema sets, %d records, %d cells checked in %.0f s "
                     "(%.0f schema sets/hour, %.0f cells/s), %d testees: %s\n" % (
                         args.seed, sets, diff.stats["records"], diff.run.cells, elapsed,
                         sets * 3600 / elapsed if elapsed else 0, diff.run.cells / elapsed if elapsed else 0,
                         len(testees), ", ".join(t.name for t in testees)))
    return status


if __name__ == "__main__":
    sys.exit(main())
