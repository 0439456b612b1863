/* The exception classes lib/fbe/errors.rb makes from the core's status table (one per
 * code, FBE::Error at 0), raising the core's errors as them, and the one error text:
 * fbe_error_format, for the errors of C and of Ruby code alike. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
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
  fbe_error err = {.code = code, .offset = FBE_NO_OFFSET};
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err.message, sizeof err.message, fmt, ap);
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

/* Native.error_text(reason, path, offset) -> "reason at 'path' (offset N)" (FBE::Error#message),
 * in fbe_error_format's words; a reason longer than fbe_error holds is kept whole. */
static VALUE native_error_text(VALUE self, VALUE reason, VALUE path, VALUE offset) {
  fbe_error err = {.code = FBE_ERR_ARGUMENT, .offset = NIL_P(offset) ? FBE_NO_OFFSET : NUM2SIZET(offset)};
  StringValue(reason);
  StringValue(path);
  snprintf(err.message, sizeof err.message, "%.*s", (int)RSTRING_LEN(reason), RSTRING_PTR(reason));
  snprintf(err.path, sizeof err.path, "%.*s", (int)RSTRING_LEN(path), RSTRING_PTR(path));
  char text[sizeof err.message + sizeof err.path + 40];
  fbe_error_format(&err, text, sizeof text);
  return rb_str_cat_cstr(rb_str_dup(reason), text + strlen(err.message)); /* what the core puts after it */
}

void rf_init_errors(VALUE native) {
  rb_define_module_function(native, "set_error_classes", native_set_error_classes, 1);
  rb_define_module_function(native, "error_text", native_error_text, 3);
}
