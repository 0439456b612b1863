/* swig/python.i: the Python module fbe._core. SWIG wraps the coarse, language-neutral
 * surface of fbe.i (schema loading, lookups, introspection, status table); the object
 * walk that encodes and decodes Python objects is hand-written C against the CPython
 * API (bindings/python/native/), compiled into this same extension and registered here
 * through %native: init_walk adds its types (the struct metaclass, the Struct base
 * class, the Sender/Receiver engines) and its per-message functions. */
%module(package="fbe") core

%include "fbe.i"

%{
#include "binding.h"

/* The fbe_schema behind a SWIG proxy object (or its `this`), for the hand-written C.
 * Returns a borrowed pointer, NULL with a Python exception set when obj is not one. */
fbe_schema *pyfbe_schema_from_swig(PyObject *obj) {
  void *p = NULL;
  if (!SWIG_IsOK(SWIG_ConvertPtr(obj, &p, SWIGTYPE_p_fbe_schema, 0)) || !p) {
    PyErr_SetString(PyExc_TypeError, "expected a schema object from fbe.core");
    return NULL;
  }
  return (fbe_schema *)p;
}
%}

/* The one module-level function of the hand-written walk: init_walk(module) adds the
 * rest (types and functions, native/module.c) to this module; fbe/__init__.py calls it
 * once on import. (Not %init: its failure return differs between SWIG's single-phase
 * and multi-phase module initialisation.) */
%native(init_walk) PyObject *pyfbe_init_walk(PyObject *self, PyObject *args);
