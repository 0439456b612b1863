/* A view as a value (fbe/view.h): materialized by the decoder (decode_at.h), so a view's
 * value, text and equality are exactly those of the decoded message. */
#include <string.h>
#include "fbe/view.h"
#include "fbe/text.h"
#include "fbe/internal/error.h"
#include "fbe/internal/value.h"
#include "wire/decode_at.h"
#include "wire/verify_at.h"

/* The viewed value, decoded (or copied from its image) into `slot` (mem_size bytes). */
static fbe_status materialize(fbe_view v, fbe_arena *arena, const fbe_limits *limits, void *slot,
                              fbe_error *err) {
  if (v.image)
    return fbei_value_copy(v.type, v.image, slot, arena)
               ? FBE_OK
               : fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  fbe_error local;
  if (!err) err = &local;
  if (v.lazy) { /* unverified bytes: verify's rules on this value first */
    fbe_status rc = fbei_verify_at(v.type, v.model, v.data, v.end, v.at, v.base, limits, err);
    if (rc) return rc;
  }
  return fbei_decode_at(v.type, v.model, v.data, v.end, v.at, v.base, arena, limits, slot, err);
}

static void *new_slot(const fbe_type *t, fbe_arena *arena) {
  return fbe_arena_alloc(arena, t->mem_size ? t->mem_size : 1);
}

fbe_status fbe_view_copy(fbe_view v, fbe_ref out, const fbe_limits *limits, fbe_error *err) {
  if (!v.type) return fbei_error_set(err, FBE_ERR_TYPE, FBE_NO_OFFSET, "the view has no value");
  if (!out.slot || !out.arena || out.type != v.type)
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "fbe_view_copy: the output is not a value of the view's type");
  void *value = new_slot(v.type, out.arena); /* out changes only on success */
  if (!value) return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  fbe_status rc = materialize(v, out.arena, limits, value, err);
  if (rc == FBE_OK) memcpy(out.slot, value, v.type->mem_size);
  return rc;
}

fbe_status fbe_view_to_msg(fbe_view v, fbe_arena *arena, const fbe_limits *limits, fbe_msg **out,
                           fbe_error *err) {
  if (out) *out = NULL;
  if (!v.type || v.type->kind != FBE_KIND_STRUCT || !arena || !out)
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "fbe_view_to_msg: a struct view, an arena and an output are needed");
  fbe_msg *msg = fbei_msg_shell(arena, v.type->st);
  if (!msg) return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  fbe_status rc = materialize(v, arena, limits, fbe_msg_ref(msg).slot, err);
  if (rc == FBE_OK) *out = msg;
  return rc;
}

fbe_status fbe_view_value(fbe_view v, fbe_arena *arena, const fbe_limits *limits, fbe_ref *out,
                          fbe_error *err) {
  if (out) out->type = NULL, out->slot = NULL, out->arena = arena;
  if (!v.type || !arena || !out)
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "fbe_view_value: a view, an arena and an output are needed");
  fbe_ref r = {v.type, new_slot(v.type, arena), arena};
  if (!r.slot) return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  fbe_status rc = materialize(v, arena, limits, r.slot, err);
  if (rc == FBE_OK) *out = r;
  return rc;
}

fbe_status fbe_view_to_text(fbe_view v, const fbe_limits *limits, fbe_buffer *out, fbe_error *err) {
  fbe_arena *arena = fbe_arena_new();
  if (!arena) return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  fbe_ref r;
  fbe_status rc = fbe_view_value(v, arena, limits, &r, err);
  if (rc == FBE_OK) rc = fbe_text_write(r, limits, out, err);
  fbe_arena_free(arena);
  return rc;
}

/* Equality is fbe_ref_equal's on the materialized values; a value that cannot be
 * materialized (no value, out of memory) equals nothing. */
static int equal(fbe_view a, const fbe_view *b, fbe_ref r) {
  fbe_arena *arena = fbe_arena_new();
  if (!arena) return 0;
  fbe_ref x, y = r;
  int same = fbe_view_value(a, arena, NULL, &x, NULL) == FBE_OK &&
             (!b || fbe_view_value(*b, arena, NULL, &y, NULL) == FBE_OK) && fbe_ref_equal(x, y);
  fbe_arena_free(arena);
  return same;
}

int fbe_view_equal(fbe_view a, fbe_view b) {
  fbe_ref none = {NULL, NULL, NULL};
  return equal(a, &b, none);
}

int fbe_view_equal_ref(fbe_view v, fbe_ref r) { return equal(v, NULL, r); }
