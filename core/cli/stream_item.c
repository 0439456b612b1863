/* Stream items: one message with its package and type name. */
#include <stdio.h>
#include <string.h>
#include "stream_item.h"

int stream_item_build(fbe_schema *schema, span item, fbe_arena *arena, fbe_msg **out, char *why,
                      size_t why_size) {
  record r;
  if (record_parse(item.at, item.len, &r, why, why_size)) return -1;
  char name[192];
  snprintf(name, sizeof name, "%s.%s", r.schema, r.type);
  const fbe_struct *type = fbe_schema_find_struct(schema, name);
  if (!type) {
    snprintf(why, why_size, "no type %s in the schema", name);
    return -1;
  }
  if (!r.json.len) {
    snprintf(why, why_size, "%s: no \"json\" value", name);
    return -1;
  }
  fbe_error err;
  if (fbe_msg_from_json(type, r.json.at, r.json.len, arena, out, &err)) {
    char text[400];
    fbe_error_format(&err, text, sizeof text);
    snprintf(why, why_size, "%s: %s", name, text);
    return -1;
  }
  return 0;
}

fbe_status stream_item_write(const fbe_msg *msg, fbe_buffer *out, fbe_error *err) {
  const fbe_struct *type = fbe_msg_type(msg);
  const char *full = fbe_struct_full_name(type), *name = fbe_struct_name(type);
  size_t pkg_len = strlen(full) - strlen(name) - 1; /* "proto.OrderMessage" -> "proto" */
  char head[256];
  int n = snprintf(head, sizeof head, "{\"schema\":\"%.*s\",\"type\":\"%s\",\"json\":", (int)pkg_len,
                   full, name);
  if (n < 0 || (size_t)n >= sizeof head || fbe_buffer_append(out, head, (size_t)n))
    return FBE_ERR_NOMEM;
  fbe_status rc = fbe_msg_to_json(msg, 0, out, err);
  if (rc) return rc;
  return fbe_buffer_append(out, "}", 1) ? FBE_ERR_NOMEM : FBE_OK;
}
