/* The JSON of a view (fbe/view.h): the decoded value's JSON, written from the value
 * the view materializes (fbe_view_value). */
#include "fbe/view.h"
#include "fbe/json.h"
#include "fbe/internal/error.h"

fbe_status fbe_view_to_json(fbe_view v, const fbe_json_options *opts, fbe_buffer *out, fbe_error *err) {
  fbe_arena *arena = fbe_arena_new();
  if (!arena) return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  fbe_ref r;
  fbe_status rc = fbe_view_value(v, arena, opts ? opts->limits : NULL, &r, err);
  if (rc == FBE_OK) rc = fbe_json_write_opts(r, opts, out, err);
  fbe_arena_free(arena);
  return rc;
}
