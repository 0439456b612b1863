/* swig/ruby.i: the Ruby extension fbe/core (module FBE::Core). SWIG wraps the coarse,
 * language-neutral surface of fbe.i (schema loading, lookups, introspection, status
 * table); the object walk that encodes and decodes Ruby objects is hand-written C
 * against Ruby's C API (the files of bindings/ruby/native), compiled into this same
 * extension and set up from this module's init as FBE::Native. */
%module "FBE::core"

/* Ruby class names must be constants. */
%rename(Loader) fbe_loader;
%rename(SchemaHandle) fbe_schema;

%include "fbe.i"

%{
#include "binding.h" /* bindings/ruby/native */

/* The fbe_schema behind a SWIG SchemaHandle, for the hand-written C. Borrowed; raises
 * TypeError when obj is not one. */
fbe_schema *rbfbe_schema_from_swig(VALUE obj) {
  void *p = NULL;
  if (!SWIG_IsOK(SWIG_ConvertPtr(obj, &p, SWIGTYPE_p_fbe_schema, 0)) || !p)
    rb_raise(rb_eTypeError, "expected a FBE::Core::SchemaHandle");
  return (fbe_schema *)p;
}
%}

%init %{
  rbfbe_init(mCore);
%}
