/* The exception classes lib/fbe/errors.rb makes from the core's status table (one per
 * code, FBE::Error at 0), raising the core's errors as them, and the one error text:
 * fbe_error_format, for the errors of C and of Ruby code alike. */
#include <stdarg.h>
#include "binding.h"

static VALUE classes = Qnil; /* Array indexed by fbe_status */

VALUE rf_error_new(const fbe_error *err) {
  if (NIL_P(classes)) return rb_exc_new_cstr(rb_eStandardError, err->message); /* lib/fbe not loaded */
  VALUE cls = rb_ary_entry(classes, err->code);
  if (NIL_P(cls)) cls = rb_ary_entry(classes, 0);
  VALUE args[4] = {rb_utf8_str_new_cstr(err->message), INT2FIX(err->code), rb_utf8_str_new_cstr(err->path),
                   err->offset == FBE_NO_OFFSET ? Qnil : SIZET2NUM(err->offset)};
  return rb_class_new_instance(4, args, cls);
}

void rf_raise(const fbe_error *err) { rb_exc_raise(rf_error_new(err)); }

void rf_raisef(fbe_status code, const char *fmt, ...) {
  fbe_error err;
  va_list ap;
  va_start(ap, fmt);
  fbei_error_vset(&err, code, FBE_NO_OFFSET, fmt, ap);
  va_end(ap);
  rf_raise(&err);
}

/* Native.set_error_classes([FBE::Error, FBE::OutOfMemoryError, ...]) */
static VALUE native_set_error_classes(VALUE self, VALUE list) {
  Check_Type(list, T_ARRAY);
  if (NIL_P(classes)) rb_gc_register_mark_object(classes = rb_ary_new());
  rb_ary_replace(classes, list);
  return Qnil;
}

/* Native.error_text(reason, path, offset) -> "reason at 'path' (offset N)" (FBE::Error#message):
 * the reason, then what fbe_error_format writes after one. */
static VALUE native_error_text(VALUE self, VALUE reason, VALUE path, VALUE offset) {
  char where[sizeof ((fbe_error *)0)->path + 48];
  fbe_error_format_where(StringValueCStr(path), NIL_P(offset) ? FBE_NO_OFFSET : NUM2SIZET(offset), where, sizeof where);
  return rb_str_cat_cstr(rb_str_dup(StringValue(reason)), where);
}

/* Native.type_not_found(schema_handle, name, what) -> the FBE::NotFoundError
 * (FBE_ERR_NOT_FOUND) of a name the schema has no type of, in the core's words
 * (fbei_error_unknown_type; what: "type", "struct" or "enum"):
 * "no type 'Acount' in package proto (did you mean 'Account'?)". The SWIG handle, not
 * the walk's core: it holds the schema after close too. */
static VALUE native_type_not_found(VALUE self, VALUE handle, VALUE name, VALUE what) {
  const fbe_schema *schema = rbfbe_schema_from_swig(handle);
  fbe_error err;
  StringValue(name);
  fbei_error_unknown_type(&err, schema, StringValueCStr(what), RSTRING_PTR(name), (size_t)RSTRING_LEN(name));
  RB_GC_GUARD(name);
  return rf_error_new(&err);
}

void rf_init_errors(VALUE native) {
  rb_define_module_function(native, "set_error_classes", native_set_error_classes, 1);
  rb_define_module_function(native, "error_text", native_error_text, 3);
  rb_define_module_function(native, "type_not_found", native_type_not_found, 3);
}
