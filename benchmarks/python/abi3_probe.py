#!/usr/bin/env python3
"""What the 3.9 limited API (a cp39-abi3 wheel) would cost the Python binding's hot
path, measured: the binding built twice from a scratch copy of the tree, side by side.

    python3 benchmarks/python/abi3_probe.py [--rounds N]

  full   the binding as it is (full API: METH_FASTCALL, inline accessors, the ASCII
         string's own bytes)
  probe  the same sources with FBE_LIMITED_PROBE, which puts in what the 3.9 limited
         API offers instead, on the paths encode and decode take:
         - METH_VARARGS | METH_KEYWORDS for every per-message entry point (METH_FASTCALL
           is limited API from 3.10): the interpreter packs an argument tuple (and a
           keyword dict) per call, unpacked into the fastcall form;
         - checked calls for the inline accessors (PyTuple_GET_ITEM -> PyTuple_GetItem,
           PyList_GET_SIZE -> PyList_Size, PyBytes_AS_STRING, PyFloat_AS_DOUBLE, ...)
           and type checks through PyType_GetFlags (PyLong_Check etc. in the limited API);
         - a str field's UTF-8 in a new bytes object (PyUnicode_AsUTF8String: no
           PyUnicode_AsUTF8AndSize before 3.10, no access to the ASCII data).
The probe is a lower bound of the cost: the rest of a real port (the types made by
PyType_FromSpec, the struct metaclass without PyHeapTypeObject, decode's slot offsets
without PyMemberDescrObject, timestamps without the datetime C API, bytearray and
memoryview input without the buffer protocol, 3.11) is not in it. Both builds pass the
conformance files through the shared runner before anything is timed. Each round runs
benchmarks/python/bench.py once per build (the order alternating), 3 runs of 0.1 s;
the table has the median over every run of every round.
Writes nothing in the repository: the copies and venvs live in a temporary folder.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIGURES = [(w, m, op) for w in ("account", "small") for m in ("standard", "final") for op in ("encode", "decode")]

PROBE_H = r'''
#ifdef FBE_LIMITED_PROBE /* benchmarks/python/abi3_probe.py: the 3.9 limited API's substitutes */
#undef PyTuple_GET_ITEM
#define PyTuple_GET_ITEM(t, i) PyTuple_GetItem((PyObject *)(t), (i))
#undef PyList_GET_ITEM
#define PyList_GET_ITEM(l, i) PyList_GetItem((PyObject *)(l), (i))
#undef PyTuple_GET_SIZE
#define PyTuple_GET_SIZE(t) PyTuple_Size((PyObject *)(t))
#undef PyList_GET_SIZE
#define PyList_GET_SIZE(l) PyList_Size((PyObject *)(l))
#undef PyList_SET_ITEM
#define PyList_SET_ITEM(l, i, v) ((void)PyList_SetItem((PyObject *)(l), (i), (v)))
#undef PyTuple_SET_ITEM
#define PyTuple_SET_ITEM(t, i, v) ((void)PyTuple_SetItem((PyObject *)(t), (i), (v)))
#undef PyBytes_AS_STRING
#define PyBytes_AS_STRING(b) PyBytes_AsString((PyObject *)(b))
#undef PyBytes_GET_SIZE
#define PyBytes_GET_SIZE(b) PyBytes_Size((PyObject *)(b))
#undef PyFloat_AS_DOUBLE
#define PyFloat_AS_DOUBLE(f) PyFloat_AsDouble((PyObject *)(f))
#undef PySequence_Fast_GET_SIZE
#define PySequence_Fast_GET_SIZE(o) PySequence_Size((PyObject *)(o))
#undef PySequence_Fast_GET_ITEM
#define PySequence_Fast_GET_ITEM(o, i) \
  (PyList_Check(o) ? PyList_GetItem((PyObject *)(o), (i)) : PyTuple_GetItem((PyObject *)(o), (i)))
#undef PyType_FastSubclass
#define PyType_FastSubclass(type, flag) ((PyType_GetFlags(type) & (flag)) != 0)
#endif
'''

STRING_OLD = '''      if (!PyUnicode_CheckExact(v) || !PyUnicode_IS_COMPACT_ASCII(v) || PyUnicode_GET_LENGTH(v) > UINT32_MAX) return 0;
      Py_ssize_t n = PyUnicode_GET_LENGTH(v);
      if (n && pf_keep(c->s, v)) return nomem(c); /* kept: a later value may run user code */
      fbei_str *str = (fbei_str *)(void *)slot;
      str->data = PyUnicode_DATA(v);'''
STRING_NEW = '''#ifdef FBE_LIMITED_PROBE
      if (!PyUnicode_CheckExact(v)) return 0;
      PyObject *b8 = PyUnicode_AsUTF8String(v);
      if (!b8) { PyErr_Clear(); return 0; }
      Py_ssize_t n = PyBytes_Size(b8);
      if (n > UINT32_MAX || pf_keep(c->s, b8)) { Py_DECREF(b8); return n > UINT32_MAX ? 0 : nomem(c); }
      Py_DECREF(b8);
      fbei_str *str = (fbei_str *)(void *)slot;
      str->data = PyBytes_AsString(b8);
#else
''' + STRING_OLD + '\n#endif'

FASTCALL_OLD = '#define FASTCALL(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS\n'
FASTCALL_NEW = '''#ifdef FBE_LIMITED_PROBE
typedef PyObject *(*pf_fastfn)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *);
static PyObject *va_call(pf_fastfn f, PyObject *self, PyObject *args, PyObject *kw) {
  PyObject *stack[16];
  Py_ssize_t n = PyTuple_Size(args), nk = kw ? PyDict_Size(kw) : 0;
  if (n + nk > 16) return PyErr_Format(PyExc_TypeError, "too many arguments");
  for (Py_ssize_t i = 0; i < n; i++) stack[i] = PyTuple_GetItem(args, i);
  PyObject *names = NULL;
  if (nk) {
    names = PyTuple_New(nk);
    if (!names) return NULL;
    PyObject *k, *v;
    Py_ssize_t pos = 0, j = 0;
    while (PyDict_Next(kw, &pos, &k, &v)) { Py_INCREF(k); PyTuple_SetItem(names, j, k); stack[n + j++] = v; }
  }
  PyObject *out = f(self, stack, n, names);
  Py_XDECREF(names);
  return out;
}
#define VA(f) static PyObject *f##_va(PyObject *s, PyObject *a, PyObject *k) { return va_call(f, s, a, k); }
VA(mod_encode) VA(mod_decode) VA(mod_verify) VA(mod_model_size) VA(mod_to_json) VA(mod_from_json)
VA(mod_from_dict) VA(mod_equal) VA(mod_view) VA(st_encode) VA(st_to_json) VA(st_decode) VA(st_verify)
VA(st_validate) VA(st_from_json) VA(st_from_dict) VA(st_view)
#define FASTCALL(f) (PyCFunction)(void (*)(void))(f##_va), METH_VARARGS | METH_KEYWORDS
#else
''' + FASTCALL_OLD + '#endif\n'


def patch(path: str, old: str, new: str) -> None:
    text = open(path).read()
    if old not in text:
        sys.exit(f"abi3_probe: {path} has changed: the probe's anchor is gone (update the probe)")
    open(path, "w").write(text.replace(old, new, 1))


def run(cmd: list[str], **kw) -> str:
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="fbe-abi3-probe.")
    try:
        src = os.path.join(tmp, "src")
        for d in ("core", "swig", "bindings/python"):
            shutil.copytree(os.path.join(REPO, d), os.path.join(src, d),
                            ignore=shutil.ignore_patterns("build", "_vendor", "__pycache__", "*.so"))
        native = os.path.join(src, "bindings/python/native")
        patch(os.path.join(native, "binding.h"), "#include <Python.h>\n", "#include <Python.h>\n" + PROBE_H)
        patch(os.path.join(native, "encode.c"), STRING_OLD, STRING_NEW)
        patch(os.path.join(native, "ops.c"), FASTCALL_OLD, FASTCALL_NEW)
        env = dict(os.environ, CMAKE_BUILD_PARALLEL_LEVEL="2", PIP_DISABLE_PIP_VERSION_CHECK="1")
        pythons = {}
        for name, flags in (("full", []), ("probe", ["--config-settings=cmake.define.CMAKE_C_FLAGS=-DFBE_LIMITED_PROBE"])):
            venv = os.path.join(tmp, name)
            run([sys.executable, "-m", "venv", venv])
            py = os.path.join(venv, "bin", "python")
            run([py, "-m", "pip", "install", "-q", *flags, os.path.join(src, "bindings/python")], env=env)
            vectors = [os.path.join(REPO, "tests/conformance", f) for f in ("vectors.jsonl", "malformed.jsonl", "versioning.jsonl")]
            last = run([sys.executable, os.path.join(REPO, "tests/conformance/runner"), "--describe-testee", "none",
                        "--testee", f"python={py} -m fbe.testee", "-I", os.path.join(REPO, "schemas"), *vectors]).splitlines()[-1]
            print(f"{name}: conformance {last}", flush=True)
            pythons[name] = py
        got: dict[str, dict[tuple, list[float]]] = {"full": {}, "probe": {}}
        for r in range(args.rounds):
            for name in ("full", "probe") if r % 2 == 0 else ("probe", "full"):
                out = run([pythons[name], os.path.join(REPO, "benchmarks/python/bench.py"), "--json", "--runs", "3",
                           "--min-time", "0.1"])
                for line in out.splitlines():
                    d = json.loads(line)
                    key = (d["workload"], d["model"], d["op"])
                    if d["impl"] == "libfbe" and key in FIGURES:
                        got[name].setdefault(key, []).extend(d["rounds"])
        print(f"{'figure (ns per operation)':30} {'full':>8} {'probe':>8} {'probe/full':>10}")
        for key in FIGURES:
            f, p = statistics.median(got["full"][key]), statistics.median(got["probe"][key])
            print(f"{' '.join(key):30} {f:8.0f} {p:8.0f} {p / f:10.2f}")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
