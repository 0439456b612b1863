/* setjmp.h for the WebAssembly build only (scripts/build-wasm.js puts this directory
 * first on the include path). wasi-libc has no setjmp/longjmp: WebAssembly cannot jump
 * back up the stack without the exception-handling proposal, which clang 14 and Debian's
 * wasi-libc do not offer for C. The core uses the pair for one thing: an allocation
 * failure while a schema loads (schema/schema_ctx.c) jumps out of the load. Here setjmp
 * returns 0 once and longjmp calls the host's fbe_out_of_memory (lib/wasm.js), which
 * throws a JavaScript RangeError: the load call fails with that error instead of
 * returning; the module's memory reached its limit (4 GiB, or the browser's), so the
 * module should not be used further. */
#ifndef FBE_WASM_SETJMP_H
#define FBE_WASM_SETJMP_H

typedef int jmp_buf[1];

__attribute__((import_module("env"), import_name("fbe_out_of_memory"), noreturn))
void fbe_wasm_out_of_memory(void);

#define setjmp(buf) ((void)(buf), 0)
#define longjmp(buf, val) ((void)(buf), (void)(val), fbe_wasm_out_of_memory())

#endif
