/* Option parsing, schema loading and file helpers shared by the commands. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "fbe/internal/file_read.h"
#include "fbe/internal/memory.h"

int cli_parse(int argc, char **argv, cli_options *o) {
  memset(o, 0, sizeof *o);
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    const char **value = NULL;
    if (!strcmp(a, "-I")) {
      if (o->include_count == CLI_MAX_INCLUDES) {
        fprintf(stderr, "fbe: too many -I directories\n");
        return -1;
      }
      value = &o->includes[o->include_count++];
    } else if (!strncmp(a, "-I", 2) && a[2]) {
      if (o->include_count == CLI_MAX_INCLUDES) return -1;
      o->includes[o->include_count++] = a + 2;
      continue;
    } else if (!strcmp(a, "-s") || !strcmp(a, "--schema")) {
      value = &o->schema_file;
    } else if (!strcmp(a, "-p") || !strcmp(a, "--package")) {
      value = &o->package;
    } else if (!strcmp(a, "-t") || !strcmp(a, "--type")) {
      value = &o->type;
    } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
      value = &o->output;
    } else if (!strcmp(a, "--final")) {
      o->final = 1;
      continue;
    } else if (!strcmp(a, "--pretty")) {
      o->pretty = 1;
      continue;
    } else if (!strcmp(a, "--text")) {
      o->text = 1;
      continue;
    } else if (!strcmp(a, "--trusted")) {
      o->trusted = 1;
      continue;
    } else if (!strcmp(a, "--enum-names")) {
      o->enum_names = 1;
      continue;
    } else if (!strcmp(a, "--int64-strings")) {
      o->int64_strings = 1;
      continue;
    } else if (!strcmp(a, "--ignore-unknown")) {
      o->ignore_unknown = 1;
      continue;
    } else if (!strcmp(a, "--max-depth") || !strcmp(a, "--max-size") || !strcmp(a, "--max-memory")) {
      /* the core's rule for limit values (fbe_limits_set), as in every binding */
      const char *name = a[6] == 'd' ? "max_depth" : a[6] == 's' ? "max_model_size" : "max_memory";
      char *end = NULL;
      errno = 0;
      long long n = i + 1 < argc ? strtoll(argv[i + 1], &end, 10) : 0;
      fbe_error err;
      if (!end || end == argv[i + 1] || *end || errno) {
        fprintf(stderr, "fbe: option '%s' needs a number\n", a);
        return -1;
      }
      if (fbe_limits_set(&o->limits, name, n, &err) != FBE_OK) {
        fprintf(stderr, "fbe: option '%s': %s\n", a, err.message);
        return -1;
      }
      i++;
      continue;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "fbe: unknown option '%s'\n", a);
      return -1;
    } else {
      if (o->positional_count == sizeof o->positional / sizeof o->positional[0]) {
        fprintf(stderr, "fbe: too many arguments\n");
        return -1;
      }
      o->positional[o->positional_count++] = a;
      continue;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "fbe: option '%s' needs a value\n", a);
      return -1;
    }
    *value = argv[++i];
  }
  return 0;
}

fbe_schema *cli_load_schema(const cli_options *o) {
  fbe_load_options lo = {o->includes, o->include_count};
  fbe_diagnostics diags = {0, NULL};
  fbe_schema *schema = NULL;
  if (o->schema_file && o->package) {
    fprintf(stderr, "fbe: give either -s SCHEMA or -p PACKAGE, not both\n");
    return NULL;
  }
  if (o->schema_file) {
    schema = fbe_schema_load_file(o->schema_file, &lo, &diags);
  } else if (o->package) {
    schema = fbe_schema_load_package(o->package, &lo, &diags);
  } else {
    fprintf(stderr, "fbe: a schema is needed: -s SCHEMA.fbe or -p PACKAGE (with -I DIR)\n");
    return NULL;
  }
  for (size_t i = 0; i < diags.count; i++) {
    char line[1024];
    fbe_diagnostic_format(&diags.items[i], line, sizeof line);
    fprintf(stderr, "%s\n", line);
  }
  fbe_diagnostics_free(&diags);
  return schema;
}

uint8_t *cli_read_file(const char *path, size_t *size) {
  int use_stdin = !path || !strcmp(path, "-");
  uint64_t max = fbe_limits_default().max_model_size;
  fbei_file_result r = use_stdin ? fbei_file_read_stream(stdin, max) : fbei_file_read(path, max);
  if (r.status != FBE_FILE_OK) {
    char reason[160];
    fbei_file_describe(&r, max, reason, sizeof reason);
    fprintf(stderr, "fbe: cannot read '%s': %s\n", use_stdin ? "<stdin>" : path, reason);
    return NULL;
  }
  *size = (size_t)r.size;
  return r.data;
}

void cli_free_file(uint8_t *data) { fbei_mem_free(data); }

int cli_write_file(const char *path, const void *data, size_t size) {
  int use_stdout = !path || !strcmp(path, "-");
  FILE *f = use_stdout ? stdout : fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "fbe: cannot create '%s'\n", path);
    return -1;
  }
  int bad = size && fwrite(data, 1, size, f) != size; /* nothing to write: data may be NULL */
  bad |= use_stdout ? fflush(f) != 0 : fclose(f) != 0;
  if (bad) fprintf(stderr, "fbe: cannot write '%s'\n", use_stdout ? "<stdout>" : path);
  return bad ? -1 : 0;
}

void cli_print_error(const char *what, const fbe_error *err) {
  char text[512];
  fbe_error_format(err, text, sizeof text);
  fprintf(stderr, "fbe: %s: %s\n", what, text);
}
