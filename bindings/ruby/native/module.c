/* FBE::Native: the hand-written walk's module, set up from the SWIG module's init
 * (swig/ruby.i calls rbfbe_init once the SWIG part, FBE::Core, is defined). */
#include "rbfbe.h"

void rbfbe_init(VALUE swig_module) {
  (void)swig_module;
  rb_require("bigdecimal");
  rb_require("set");
  rf_cBigDecimal = rb_const_get(rb_cObject, rb_intern("BigDecimal"));
  rf_cSet = rb_const_get(rb_cObject, rb_intern("Set"));
  rb_gc_register_mark_object(rf_cBigDecimal);
  rb_gc_register_mark_object(rf_cSet);
  VALUE fbe = rb_define_module("FBE");
  rf_mNative = rb_define_module_under(fbe, "Native");
  rf_init_core(rf_mNative);
  rf_init_ops(rf_mNative);
  rf_init_protocol(rf_mNative);
  rf_init_limits(fbe);
}
