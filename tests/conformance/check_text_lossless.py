#!/usr/bin/env python3
"""The text form is lossless (docs/TEXT.md, rule 16): for every record that decodes, the
C testee's text is exactly what an independent writer of TEXT.md's rules makes of the
decoded value, so every value it holds is in the text in a form that reads back:
integers and timestamps in full, every float and double as its shortest round-trip text
(Python's repr of the double, a float widened exactly first), decimals as stored,
strings, characters and uuids quoted and escaped, bytes as their length and Base64,
collections with their counts in wire order. Enum and flags values are checked for
their shape (a declared name, names joined by '|', or a number): their names come from
the schema, which this writer does not read. Python standard library only.

  check_text_lossless.py FBE_BINARY [FILE.jsonl|DIR...]

Default files: vectors.jsonl and versioning.jsonl. A directory is a regression of the
differential run (its own PACKAGE.fbe files and *.jsonl records), as for the runner. Exit status 0 when every text
matches, 1 otherwise (each mismatch shown at its first differing character).
"""
import base64
import glob
import importlib.machinery
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
runner = importlib.machinery.SourceFileLoader("runner", os.path.join(HERE, "runner")).load_module()

INTEGERS = {"byte", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "timestamp"}
NAME = r"(?:[A-Za-z_][A-Za-z0-9_]*|\*\*\*)"  # a hidden value prints *** (rule 15)
ENUM = r"-?[0-9]+|%s(?:\|%s)*(?:\|[0-9]+)?" % (NAME, NAME)  # rules 10 and 11: names, then leftover bits


def string_text(s):
    """Rule 8: a string in double quotes."""
    out = []
    for ch in s:
        c = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch in "\n\r\t":
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}[ch])
        elif c < 0x20 or 0x7F <= c <= 0x9F:
            out.append("\\u%04x" % c)
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def char_text(code):
    """Rule 4: one character in single quotes."""
    if code in (0x27, 0x5C):
        return "'\\%s'" % chr(code)
    if code in (0x0A, 0x0D, 0x09):
        return "'\\%s'" % {0x0A: "n", 0x0D: "r", 0x09: "t"}[code]
    if code < 0x20 or 0x7F <= code <= 0x9F or 0xD800 <= code <= 0xDFFF:
        return "'\\u%04x'" % code
    if code > 0x10FFFF:
        return "'\\U%08x'" % code
    return "'%s'" % chr(code)


def number(v):
    return float(v.text) if isinstance(v, runner.Number) else float(v)


def short_name(full):
    return full.rpartition(".")[2]


ENUM_VALUE = object()  # a segment that stands for an enum or flags value


class Value(list):
    """The segments of one field's or struct's value: the text may instead hold `***`,
    which a hidden field or a value of a hidden type prints (rule 15). The describe
    request does not say what is hidden, and `***` is nothing else's text."""


class Writer:
    """The text of a decoded JSON value, as segments: literal text and ENUM_VALUE."""

    def __init__(self, types):
        self.types = types

    def struct(self, name, value, out):
        fields = self.types.struct(name)
        if fields is None:
            raise ValueError("no description of %s" % name)
        own = Value()
        own.append(short_name(name) + "(")
        for i, (f, t) in enumerate(fields.items()):
            own.append("%s%s=" % ("," if i else "", f))
            field = Value()
            self.value(value[f], t, field)
            own.append(field)
        own.append(")")
        out.append(own)

    def value(self, v, t, out):
        kind = t["kind"]
        if kind == "optional":
            return out.append("null") if v is None else self.value(v, t["elem"], out)
        if kind == "bool":
            return out.append("true" if v is True else "false")
        if kind in INTEGERS:
            return out.append(str(v))
        if kind in ("char", "wchar"):
            return out.append(char_text(v))
        if kind == "float":
            return out.append(repr(runner.f32_of(runner.f32_bits(v))))
        if kind == "double":
            return out.append(repr(number(v)))
        if kind == "decimal":
            return out.append(v)
        if kind in ("string", "uuid"):
            return out.append(string_text(v))
        if kind == "bytes":
            return out.append('bytes[%d]"%s"' % (len(base64.b64decode(v)), v))
        if kind in ("enum", "flags"):
            return out.append(ENUM_VALUE)
        if kind == "struct":
            return self.struct(t["struct"], v, out)
        if kind in ("array", "vector", "list", "set"):
            open_, close = ("{", "}") if kind == "set" else ("[", "]")
            out.append("[%d]%s" % (len(v), open_))
            for i, x in enumerate(v):
                out.append("," if i else "")
                self.value(x, t["elem"], out)
            return out.append(close)
        if kind in ("map", "hash"):
            items = runner.map_items(v)
            out.append("[%d]<" % len(items))
            for i, (k, x) in enumerate(items):
                out.append(",{" if i else "{")
                self.key(k, t["key"], isinstance(v, dict), out)
                out.append("->")
                self.value(x, t["elem"], out)
                out.append("}")
            return out.append(">")
        raise ValueError("no text rule for kind %s" % kind)

    def key(self, k, t, as_text, out):
        """A map key: a JSON object's keys are text (JSON.md), map-pairs keys values."""
        kind = t["kind"]
        if as_text and (kind in INTEGERS or kind in ("char", "wchar", "enum", "flags")):
            k = int(k)
        self.value(k, t, out)


def first_difference(segments, text):
    """None when text is exactly the segments (an enum segment: a name, names joined by
    '|' with leftover bits, or a number; a Value: its segments or `***`), else the
    offset where it stops being them."""
    at = match(segments, text, 0)
    if at < 0:
        return -at - 1
    return None if at == len(text) else at


def match(segments, text, at):
    """The offset after segments matched at `at`, or -(offset + 1) where they stop."""
    for seg in segments:
        if isinstance(seg, Value):
            at = at + 3 if text.startswith("***", at) else match(seg, text, at)
            if at < 0:
                return at
        elif seg is ENUM_VALUE:
            m = re.compile(ENUM).match(text, at)
            if not m:
                return -at - 1
            at = m.end()
        elif text.startswith(seg, at):
            at += len(seg)
        else:
            return -(at + next((i for i, (a, b) in enumerate(zip(seg, text[at:])) if a != b),
                               min(len(seg), len(text) - at))) - 1
    return at


class Testee:
    def __init__(self, fbe):
        self.proc = subprocess.Popen([fbe, "testee"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     encoding="utf-8")

    def request(self, request):
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        return runner.parse(self.proc.stdout.readline())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


class Describer:
    """The testee as the runner's Types asks it (`describe`)."""
    name = "c"

    def __init__(self, testee):
        self.testee = testee

    def request(self, request):
        return self.testee.request(request)


def decodable(rec):
    """(package, type, model, trusted) of a record that decodes to a value, or None."""
    if "json" not in rec:
        return None
    if rec.get("format") in ("standard", "final"):
        return rec["schema"], rec["type"], rec["format"], False
    if rec.get("format") == "standard-versioning":
        return rec["reader_schema"], rec["reader_type"], "standard", rec.get("verify") is False
    return None


def check_file(testee, writer, path, failures):
    """Checks the text of every record of path that decodes; how many were checked."""
    checked = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line) if line.strip() else {}
            what = decodable(rec)
            if not what:
                continue
            package, type_, model, trusted = what
            request = {"package": package, "type": type_, "model": model, "hex": rec["hex"]}
            if trusted:
                request["trusted"] = True
            decoded = testee.request(dict(request, op="decode"))
            text = testee.request(dict(request, op="text"))
            if not decoded.get("ok") or not text.get("ok"):
                failures.append("%s: decode or text failed: %s %s" % (rec["id"], decoded.get("error"),
                                                                      text.get("error")))
                continue
            segments = []
            writer.struct("%s.%s" % (package, type_), decoded["json"], segments)
            checked += 1
            at = first_difference(segments, text["text"])
            if at is not None:
                failures.append("%s: the text differs from TEXT.md's rules at character %d: %s" % (
                    rec["id"], at, json.dumps(text["text"][max(0, at - 40):at + 40], ensure_ascii=False)))
    return checked


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    fbe = sys.argv[1]
    args = sys.argv[2:] or [os.path.join(HERE, "vectors.jsonl"), os.path.join(HERE, "versioning.jsonl")]
    testee = Testee(fbe)
    describer = Describer(testee)
    checked, failures = 0, []
    for arg in args:
        include = os.path.abspath(arg) if os.path.isdir(arg) else os.path.join(REPO, "schemas")
        if testee.request({"op": "load", "include": [include]}).get("ok") is not True:
            sys.exit("check_text_lossless: the testee cannot load %s" % include)
        writer = Writer(runner.Types([describer]))  # the field types of this load
        for path in sorted(glob.glob(os.path.join(arg, "*.jsonl"))) if os.path.isdir(arg) else [arg]:
            checked += check_file(testee, writer, path, failures)
    testee.close()
    for line in failures:
        print("FAIL " + line)
    print("text lossless: %d records checked, %d failed" % (checked, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
