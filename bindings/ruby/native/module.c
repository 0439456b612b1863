/* FBE::Native set up from the SWIG module's init (swig/ruby.i calls rbfbe_init once
 * FBE::Core is defined), and the binding's scratch pool (fbe/internal/scratch.h),
 * drained when the VM ends. */
#include <ruby/vm.h>
#include "binding.h"

static fbei_scratch_pool pool; /* zero: empty */

/* Taken and given back holding the GVL: the pool needs no atomic operations. */
fbei_scratch *rf_scratch_get(void) {
  fbei_scratch *s = fbei_scratch_get_locked(&pool);
  if (!s) rb_memerror();
  return s;
}

void rf_scratch_put(fbei_scratch *s) { fbei_scratch_put_locked(&pool, s); } /* keeps nothing: s->keep is unused */

static void drain(ruby_vm_t *vm) {
  fbei_scratch_pool_drain(&pool);
}

void rbfbe_init(VALUE swig_module) {
  VALUE fbe = rb_define_module("FBE");
  VALUE native = rb_define_module_under(fbe, "Native");
  rf_init_convert();
  rf_init_errors(native);
  rf_init_bind(native);
  rf_init_ops(native, fbe);
  rf_init_protocol(native);
  rf_init_client(native);
  rf_init_view(native, fbe);
  ruby_vm_at_exit(drain);
}
