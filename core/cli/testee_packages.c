/* Schema texts of a testee load, on disk for the loader's import resolution. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testee_packages.h"
#ifdef _WIN32
#include <direct.h>
#include <io.h>
#else
#include <unistd.h>
#endif

static const char *skip_blank(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
  return p;
}

static int is_identifier(const char *s) {
  if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_')) return 0;
  for (s++; *s; s++)
    if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
      return 0;
  return 1;
}

/* A new empty directory under $TMPDIR (or /tmp), malloc'd; NULL on failure. */
static char *make_dir(void) {
  const char *base = getenv("TMPDIR");
  if (!base || !*base) base = "/tmp";
  char *dir = malloc(strlen(base) + 32);
  if (!dir) return NULL;
  sprintf(dir, "%s/fbe-testee-XXXXXX", base);
#ifdef _WIN32
  if (_mktemp_s(dir, strlen(dir) + 1) || _mkdir(dir)) {
#else
  if (!mkdtemp(dir)) {
#endif
    free(dir);
    return NULL;
  }
  return dir;
}

static int write_file(testee_packages *p, const char *name, const char *text, size_t len, char *why,
                      size_t why_size) {
  char **more = realloc(p->files, (p->count + 1) * sizeof *more);
  char *path = malloc(strlen(p->dir) + strlen(name) + 6);
  if (more) p->files = more;
  if (!more || !path) {
    free(path);
    snprintf(why, why_size, "out of memory");
    return -1;
  }
  sprintf(path, "%s/%s.fbe", p->dir, name);
  FILE *f = fopen(path, "wb");
  int ok = f && fwrite(text, 1, len, f) == len;
  if (f && fclose(f)) ok = 0;
  if (!ok) {
    if (f) remove(path);
    snprintf(why, why_size, "cannot write the schema of package '%s' to %s", name, path);
    free(path);
    return -1;
  }
  p->files[p->count++] = path;
  return 0;
}

int testee_packages_write(testee_packages *p, span object, char *why, size_t why_size) {
  const char *at = skip_blank(object.at, object.at + object.len), *end = object.at + object.len;
  if (at >= end || *at != '{') {
    snprintf(why, why_size, "\"packages\" must be an object: package name -> schema text");
    return -1;
  }
  if (!(p->dir = make_dir())) {
    snprintf(why, why_size, "cannot create a directory for the packages' schema texts");
    return -1;
  }
  at = skip_blank(at + 1, end);
  while (at < end && *at != '}') {
    const char *key_end = json_skip_value(at, end, 0);
    const char *colon = key_end ? skip_blank(key_end, end) : NULL;
    const char *value = colon && colon < end && *colon == ':' ? skip_blank(colon + 1, end) : NULL;
    const char *value_end = value ? json_skip_value(value, end, 0) : NULL;
    size_t name_len = 0, len = 0;
    char *name = value_end ? json_string_decode((span){at, (size_t)(key_end - at)}, &name_len) : NULL;
    char *text = name ? json_string_decode((span){value, (size_t)(value_end - value)}, &len) : NULL;
    int rc = -1;
    if (!text) {
      snprintf(why, why_size, "\"packages\" must be an object: package name -> schema text");
    } else if (name_len != strlen(name) || !is_identifier(name)) {
      snprintf(why, why_size, "\"packages\": '%s' is not a package name", name);
    } else {
      rc = write_file(p, name, text, len, why, why_size);
    }
    free(name);
    free(text);
    if (rc) {
      testee_packages_remove(p);
      return -1;
    }
    at = skip_blank(value_end, end);
    if (at < end && *at == ',') at = skip_blank(at + 1, end);
  }
  return 0;
}

void testee_packages_remove(testee_packages *p) {
  for (size_t i = 0; i < p->count; i++) {
    remove(p->files[i]);
    free(p->files[i]);
  }
  free(p->files);
  p->files = NULL;
  p->count = 0;
  if (p->dir) {
#ifdef _WIN32
    _rmdir(p->dir);
#else
    rmdir(p->dir);
#endif
    free(p->dir);
    p->dir = NULL;
  }
}
