/* The C testee's native path (docs/TESTEE.md, "encode" with "native": true). */
#ifndef FBE_CLI_TESTEE_NATIVE_H
#define FBE_CLI_TESTEE_NATIVE_H

#include "fbe/fbe.h"
#include "record.h"

/* A message of `type` built from the JSON value `json` through the setter API
 * (fbe_ref_*), the way a C program fills a message from its own data, not through the
 * JSON reader. 0 and *out, or the status with err filled (the core's words and the
 * value's path, docs/INPUT.md). */
fbe_status testee_native_build(const fbe_struct *type, span json, fbe_arena *arena, fbe_msg **out,
                               fbe_error *err);

#endif
