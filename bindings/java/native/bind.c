/* The per-schema core of a Java Schema (Walk.bind / unbind): the core's schema, its
 * structs by dense index (fbe_struct_index: the order of the Java StructType[]) and
 * the tape programs for Java's slots, made once at load. */
#include "binding.h"

static void core_free(jf_core *c) {
  if (!c) return;
  fbei_tape_programs_free(c->progs);
  fbe_schema_release(c->schema);
  fbei_mem_free(c);
}

JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_bind(JNIEnv *env, jclass cls, jlong schema_ptr) {
  fbe_schema *schema = (fbe_schema *)(intptr_t)schema_ptr;
  if (!schema) {
    jf_throw_status(env, FBE_ERR_ARGUMENT, "no schema");
    return 0;
  }
  jf_core *c = fbei_mem_calloc(1, sizeof *c);
  if (c) {
    c->schema = fbe_schema_retain(schema);
    c->nstructs = (uint32_t)fbe_schema_struct_count(schema);
    c->nenums = (uint32_t)fbe_schema_enum_count(schema);
  }
  if (!c || !(c->progs = fbei_tape_compile(schema, FBE_TAPE_INT64))) {
    core_free(c);
    jf_throw_status(env, FBE_ERR_NOMEM, "out of memory");
    return 0;
  }
  return (jlong)(intptr_t)c;
}

JNIEXPORT void JNICALL Java_org_libfbe_internal_Walk_unbind(JNIEnv *env, jclass cls, jlong core) {
  core_free((jf_core *)(intptr_t)core);
}

const jf_core *jf_core_of(JNIEnv *env, jlong core, jint si) {
  const jf_core *c = (const jf_core *)(intptr_t)core;
  if (!c) jf_throw_status(env, FBE_ERR_ARGUMENT, "the schema is closed");
  else if (si < 0 || (uint32_t)si >= c->nstructs) jf_throw_status(env, FBE_ERR_ARGUMENT, "struct index out of range");
  else return c;
  return NULL;
}

const fbe_enum *jf_enum_of(JNIEnv *env, jlong core, jint ei) {
  const jf_core *c = (const jf_core *)(intptr_t)core;
  if (!c) jf_throw_status(env, FBE_ERR_ARGUMENT, "the schema is closed");
  else if (ei < 0 || (uint32_t)ei >= c->nenums) jf_throw_status(env, FBE_ERR_ARGUMENT, "enum index out of range");
  else return fbe_schema_enum_at(c->schema, (size_t)ei);
  return NULL;
}
