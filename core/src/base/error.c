/* Status texts and error records. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "fbe/internal/error.h"
#include "fbe/version.h"

const char *fbe_version(void) { return FBE_VERSION_STRING; }

const char *fbe_status_text(fbe_status code) {
  switch (code) {
#define FBE_STATUS_TEXT_(name, value, text, cls, parent) case name: return text;
    FBE_STATUS_LIST(FBE_STATUS_TEXT_)
#undef FBE_STATUS_TEXT_
  }
  return "unknown status";
}

const char *fbe_status_name(fbe_status code) {
  switch (code) {
#define FBE_STATUS_NAME_(name, value, text, cls, parent) case name: return #name;
    FBE_STATUS_LIST(FBE_STATUS_NAME_)
#undef FBE_STATUS_NAME_
  }
  return "FBE_ERR_UNKNOWN";
}

const char *fbe_status_class(fbe_status code) {
  switch (code) {
#define FBE_STATUS_CLASS_(name, value, text, cls, parent) case name: return cls;
    FBE_STATUS_LIST(FBE_STATUS_CLASS_)
#undef FBE_STATUS_CLASS_
  }
  return "Error";
}

fbe_status fbe_status_parent(fbe_status code) {
  switch (code) {
#define FBE_STATUS_PARENT_(name, value, text, cls, parent) case name: return parent;
    FBE_STATUS_LIST(FBE_STATUS_PARENT_)
#undef FBE_STATUS_PARENT_
  }
  return FBE_OK;
}

/* FBE_STATUS_COUNT is what the table holds. */
#define FBE_STATUS_ONE_(name, value, text, cls, parent) +1
_Static_assert(0 FBE_STATUS_LIST(FBE_STATUS_ONE_) == FBE_STATUS_COUNT, "FBE_STATUS_COUNT");
#undef FBE_STATUS_ONE_

fbe_status fbei_error_vset(fbe_error *err, fbe_status code, size_t offset, const char *fmt, va_list ap) {
  if (!err) return code;
  err->code = code;
  err->offset = offset;
  err->path[0] = '\0';
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  return code;
}

fbe_status fbei_error_set(fbe_error *err, fbe_status code, size_t offset, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fbei_error_vset(err, code, offset, fmt, ap);
  va_end(ap);
  return code;
}

/* What a path that lost its outer parts starts with ("...[3].symbol"). */
#define PATH_CUT "..."

/* Marks the path as cut: PATH_CUT in front, dropping outer parts of it (whole names and
 * indexes) when even that does not fit. */
static void cut(fbe_error *err) {
  size_t old = strlen(err->path), mark = sizeof PATH_CUT - 1, from = 0;
  while (old - from + mark >= sizeof err->path) { /* drop the outermost part */
    from++;
    while (from < old && err->path[from] != '.' && err->path[from] != '[') from++;
    if (from < old && err->path[from] == '.') from++;
  }
  memmove(err->path + mark, err->path + from, old - from + 1);
  memcpy(err->path, PATH_CUT, mark);
}

/* Puts part (and a '.' unless the path starts with an index) before the path. A path
 * too long for err->path keeps its inner parts: once a part does not fit, the path is
 * marked as cut and nothing more goes in front (a later, shorter part would make a
 * path that reads whole but starts mid-way). */
static void prepend(fbe_error *err, const char *part) {
  if (!strncmp(err->path, PATH_CUT, sizeof PATH_CUT - 1)) return;
  size_t plen = strlen(part), old = strlen(err->path);
  size_t sep = (old && err->path[0] != '[') ? 1 : 0;
  if (plen + sep + old >= sizeof err->path) {
    cut(err);
    return;
  }
  memmove(err->path + plen + sep, err->path, old + 1);
  memcpy(err->path, part, plen);
  if (sep) err->path[plen] = '.';
}

void fbei_error_prepend_field(fbe_error *err, const char *name) {
  if (err && err->code) prepend(err, name);
}

void fbei_error_prepend_key(fbe_error *err) { fbei_error_prepend_field(err, "[key]"); }

void fbei_error_prepend_index(fbe_error *err, size_t index) {
  if (!err || !err->code) return;
  char part[32];
  snprintf(part, sizeof part, "[%zu]", index);
  prepend(err, part);
}

void fbe_error_format_where(const char *path, size_t offset, char *out, size_t out_size) {
  if (!out_size) return;
  int n = path && path[0] ? snprintf(out, out_size, " at '%s'", path) : (out[0] = '\0', 0);
  if (n < 0 || (size_t)n >= out_size) return;
  if (offset != FBE_NO_OFFSET) snprintf(out + n, out_size - (size_t)n, " (offset %zu)", offset);
}

void fbe_error_format(const fbe_error *err, char *out, size_t out_size) {
  if (!out_size) return;
  int n = snprintf(out, out_size, "%s", err->message);
  if (n >= 0 && (size_t)n < out_size) fbe_error_format_where(err->path, err->offset, out + n, out_size - (size_t)n);
}

fbe_status fbei_error_range(fbe_error *err, const char *value_text, fbe_kind kind) {
  return fbei_error_set(err, FBE_ERR_RANGE, FBE_NO_OFFSET, "value %.60s does not fit %s",
                       value_text, fbe_kind_name(kind));
}

fbe_status fbei_error_decimal_range(fbe_error *err, const char *value_text) {
  return fbei_error_set(err, FBE_ERR_RANGE, FBE_NO_OFFSET,
                       "decimal %.60s does not fit FBE's decimal (96-bit coefficient, scale 0..28)",
                       value_text);
}
