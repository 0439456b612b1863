/* The Node-API addon's internal header: the libfbe core compiled in, offered to the
 * JavaScript layer (lib/) as a few coarse calls. Values cross on the core's tape
 * (fbe/internal/tape.h, FBE_TAPE_DOUBLE): one N-API call per encode, decode, verify,
 * JSON conversion, text form, comparison, copy or send; a receiver calls back into
 * JavaScript once per message. The messages of values lib/ refuses are the core's too
 * (inputError, enumParse: fbe/internal/input.h).
 * Memory: every function or object made for a schema holds a count on its nschema,
 * freed by the last finalizer. Bytes handed to JavaScript are copies the GC owns. */
#ifndef FBE_NODE_BINDING_H
#define FBE_NODE_BINDING_H

#define NAPI_VERSION 8
#include <node_api.h>
#include <stdint.h>

#include "fbe/fbe.h"
#include "fbe/internal/tape.h"

/* The registers, an Int32Array lib/ shares with C (lib/codegen.js: the same indexes). */
enum {
  REG_N0 = 0,     /* JS -> C: numeric tape position where the value starts */
  REG_P0 = 1,     /* JS -> C: byte tape position where the value starts */
  REG_STATUS = 2, /* C -> JS: 0 ok, an fbe_status (details: lastError), REG_NEED_SPACE */
  REG_NEED_N = 3, /* C -> JS with REG_NEED_SPACE: numeric slots the value needs from N0 */
  REG_NEED_P = 4, /* C -> JS with REG_NEED_SPACE: bytes the value needs from P0 */
  REG_FLAGS = 5,  /* JS -> C: FLAG_TRUSTED */
  REG_SIZE = 6,   /* C -> JS: model size of the last decode/verify/encode */
  REG_OUT = 7,    /* JS -> C: offset in the output pool for the next encode; C -> JS: 1
                     when the bytes went there, 0 when a Buffer was returned instead */
  REG_N1 = 8,     /* JS -> C: where a second value starts (pair); C -> JS: where a copy starts */
  REG_P1 = 9,
  REG_LEN = 10,   /* JS -> C: the length of the bytes lib/ copied onto the byte tape at
                     REG_P0 for verify-on-tape (ops.c vfy_cb) */
  REG_COUNT = 11
};
#define REG_NEED_SPACE (-1)

/* The view registers, a Float64Array lib/ shares with C (view.c; lib/codegen.js: the
 * same indexes): one view in VR_AT .. VR_SIZE, a second from VR_B. */
enum {
  VR_AT = 0, VR_BASE = 1, VR_IMAGE = 2, VR_END = 3, VR_MODEL = 4, VR_TYPE = 5, VR_OP = 6, VR_INDEX = 7,
  VR_DATA = 8, VR_SIZE = 9,
  VR_B = 12,
  VR_COUNT = 24
};
enum { VIEW_SELF = 0, VIEW_FIELD = 1, VIEW_AT = 2, VIEW_KEY = 3, VIEW_VALUE = 4 };
#define FLAG_TRUSTED 1       /* decode without verifying (fbe_decode_trusted) */
#define POOL_RESULT_MAX 4096 /* encoded results up to this size go into the output pool */

typedef struct nschema nschema;

/* The callback data of a struct's encode and decode functions. */
typedef struct codec {
  nschema *ns;
  const fbe_struct *st;
  fbe_model model;
} codec;

/* The per-schema state (bind.c). */
struct nschema {
  uint32_t refs;             /* live JavaScript functions/objects pointing here */
  fbe_schema *schema;
  uint32_t nstructs;
  codec *codecs;             /* 2 per struct: [fbe_struct_index * 2 + model] */
  fbei_tape tape;
  fbei_tape_programs *progs;
  int32_t *regs;             /* REG_COUNT registers (NULL until lib/ gives them) */
  uint8_t *pool;             /* the output pool */
  uint32_t pool_cap;
  napi_ref buffers[5];       /* keep the tapes, the registers, the pool and the view
                                registers alive */
  double *vregs;             /* VR_COUNT view registers (NULL until lib/ gives them) */
  const fbe_type **vtypes;   /* the types of views, by the index viewType gave lib/ */
  uint32_t nvtypes, vtypes_cap;
  fbe_arena *arena;          /* every call resets it */
  fbe_buffer out;
  fbe_error err;             /* the last error, for lastError() */
};

typedef struct method {
  const char *name;
  napi_callback cb;
} method;

napi_value napi_failure(napi_env env, const char *what);
#define CHECK(call)                                         \
  do {                                                      \
    if ((call) != napi_ok) return napi_failure(env, #call); \
  } while (0)
/* A callback's arguments: argc (at most N), argv and its callback data. */
#define ARGS(N, type, data)  \
  size_t argc = N;           \
  napi_value argv[N + 1];    \
  type *data;                \
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, (void **)&data))

/* convert.c: arguments in, values out */
napi_value throw_type(napi_env env, const char *text);
napi_value js_str(napi_env env, const char *s);
napi_value js_num(napi_env env, double d);
napi_value js_bool(napi_env env, int b);
napi_value js_undefined(napi_env env);
napi_value js_null(napi_env env);
int set_named(napi_env env, napi_value obj, const char *key, napi_value v);
napi_value array_of(napi_env env, const napi_value *items, uint32_t n);
napi_value object_of(napi_env env, const char *const *keys, const napi_value *values, uint32_t n);
char *arg_string(napi_env env, napi_value v, size_t *length); /* fbei_mem_free it */
int arg_package(napi_env env, napi_value v, char **out);
int32_t arg_int(napi_env env, napi_value v);
fbe_model arg_model(napi_env env, napi_value final);
int arg_limits(napi_env env, napi_value v, fbe_limits *limits, const fbe_limits **out, fbe_error *err);
fbe_loader *arg_loader(napi_env env, napi_value includes);
napi_value enum_value(napi_env env, const fbe_enum *e, uint64_t u);

/* bind.c: the schema object, its tapes, the objects bound to it */
void ns_release(nschema *ns, napi_env env);
napi_value make_fn(napi_env env, nschema *ns, const char *name, napi_callback cb, void *data);
napi_value native_object(napi_env env, nschema *ns, void *data, napi_finalize finalize,
                         const method *methods, size_t n);
const fbe_struct *arg_struct(napi_env env, nschema *ns, size_t argc, size_t want, napi_value *argv,
                             const char *usage);
const fbe_struct *arg_struct_index(napi_env env, nschema *ns, napi_value v);
const fbe_type *arg_field_type(napi_env env, nschema *ns, napi_value si, napi_value fi, napi_value steps);
const fbe_enum *arg_enum(napi_env env, nschema *ns, napi_value v);

/* ops.c: the value on the tape <-> a message; encoded bytes out */
fbe_msg *msg_from_tape(nschema *ns, const fbe_struct *st);
fbe_msg *msg_from_tape_in(nschema *ns, const fbe_struct *st, int rn, int rp, fbe_arena *arena, uint32_t *n,
                          uint32_t *p);
void msg_to_tape(nschema *ns, const fbe_msg *m);
void ref_to_tape(nschema *ns, fbe_ref r);
napi_value hand_out(napi_env env, nschema *ns, const uint8_t *data, size_t size);

/* Bytes of a Uint8Array/Buffer argument (borrowed for the call; inline: every decode). */
static inline int arg_bytes(napi_env env, napi_value v, const uint8_t **data, size_t *size) {
  static const uint8_t empty[1] = {0};
  napi_typedarray_type type;
  void *p = NULL;
  if (napi_get_typedarray_info(env, v, &type, size, &p, NULL, NULL) != napi_ok ||
      (type != napi_uint8_array && type != napi_int8_array && type != napi_uint8_clamped_array))
    return throw_type(env, "expected a Uint8Array"), -1;
  *data = p ? p : empty;
  return 0;
}

/* REG_STATUS after a call (when the tapes are there), and the check that they are. */
static inline void set_status(nschema *ns, fbe_status s) {
  if (ns->regs) ns->regs[REG_STATUS] = (int32_t)s;
}
static inline int tapes_ready(napi_env env, nschema *ns) {
  return ns->regs ? 1 : (napi_throw_error(env, NULL, "fbe addon: setTape was not called"), 0);
}

/* The functions of the module (module.c) and of a schema object (bind.c). */
#define CALLBACK(name) napi_value name(napi_env env, napi_callback_info info)
CALLBACK(statuses_cb); CALLBACK(error_text_cb); CALLBACK(prepend_path_cb);                     /* errors.c */
CALLBACK(range_text_cb); CALLBACK(depth_rule_cb); CALLBACK(last_error_cb); CALLBACK(input_error_cb);
CALLBACK(type_not_found_cb);
CALLBACK(model_parse_cb);
CALLBACK(enum_parse_cb); CALLBACK(enum_text_cb);                                               /* convert.c */
CALLBACK(codec_cb); CALLBACK(verify_cb); CALLBACK(to_json_cb); CALLBACK(from_json_cb);          /* ops.c */
CALLBACK(to_text_cb); CALLBACK(pair_cb); CALLBACK(copy_cb);
CALLBACK(sender_new_cb); CALLBACK(receiver_new_cb);                                            /* protocol.c */
CALLBACK(client_new_cb); CALLBACK(server_new_cb); CALLBACK(proxy_new_cb);                      /* rpc.c */
CALLBACK(load_file_cb); CALLBACK(load_string_cb); CALLBACK(load_package_cb);                    /* bind.c */
CALLBACK(view_openers_cb); CALLBACK(view_get_cb); CALLBACK(view_count_cb); CALLBACK(view_type_cb);   /* view.c */
CALLBACK(view_value_cb); CALLBACK(view_text_cb); CALLBACK(view_equal_cb);

#endif
