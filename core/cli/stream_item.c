/* Stream items: one message with its package and type name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stream_item.h"

int stream_item_build_opts(fbe_schema *schema, span item, fbe_arena *arena, const fbe_json_options *opts,
                           fbe_msg **out, char *why, size_t why_size) {
  record r;
  int rc = -1;
  char *name = NULL;
  if (record_parse(item.at, item.len, &r, why, why_size)) goto done;
  if (!(name = malloc(strlen(r.schema) + strlen(r.type) + 2))) {
    snprintf(why, why_size, "out of memory");
    goto done;
  }
  sprintf(name, "%s.%s", r.schema, r.type);
  const fbe_struct *type = fbe_schema_find_struct(schema, name);
  fbe_error err;
  if (!type) {
    snprintf(why, why_size, "no type %s in the schema", name);
  } else if (!r.json.len) {
    snprintf(why, why_size, "%s: no \"json\" value", name);
  } else if (fbe_msg_from_json_opts(type, r.json.at, r.json.len, arena, opts, out, &err)) {
    char text[400];
    fbe_error_format(&err, text, sizeof text);
    snprintf(why, why_size, "%s: %s", name, text);
  } else {
    rc = 0;
  }
done:
  free(name);
  record_free(&r);
  return rc;
}

int stream_item_build(fbe_schema *schema, span item, fbe_arena *arena, fbe_msg **out, char *why,
                      size_t why_size) {
  return stream_item_build_opts(schema, item, arena, NULL, out, why, why_size);
}

fbe_status stream_item_write_opts(const fbe_msg *msg, const fbe_json_options *opts, fbe_buffer *out,
                                  fbe_error *err) {
  const fbe_struct *type = fbe_msg_type(msg);
  const char *full = fbe_struct_full_name(type), *name = fbe_struct_name(type);
  size_t pkg_len = strlen(full) - strlen(name) - 1; /* "proto.OrderMessage" -> "proto" */
  /* package and type names are identifiers: nothing to escape */
  if (fbe_buffer_append(out, "{\"schema\":\"", 11) || fbe_buffer_append(out, full, pkg_len) ||
      fbe_buffer_append(out, "\",\"type\":\"", 10) || fbe_buffer_append(out, name, strlen(name)) ||
      fbe_buffer_append(out, "\",\"json\":", 9))
    return FBE_ERR_NOMEM;
  fbe_status rc = fbe_msg_to_json_opts(msg, opts, out, err);
  if (rc) return rc;
  return fbe_buffer_append(out, "}", 1) ? FBE_ERR_NOMEM : FBE_OK;
}

fbe_status stream_item_write(const fbe_msg *msg, fbe_buffer *out, fbe_error *err) {
  return stream_item_write_opts(msg, NULL, out, err);
}
