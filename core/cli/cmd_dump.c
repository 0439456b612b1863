/* fbe dump: annotated hex dump of one model (fbe/dump.h), streamed to the output
 * line by line. Exit 0 for a valid model, 1 when the dump ends with a "!!" line (or
 * the schema, type or input cannot be had, or the output cannot be written), 2 for
 * bad usage. --max-depth, --max-size and --max-memory are the limits of the walk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "fbe/dump.h"

#define DUMP_USAGE \
  "dump [-I DIR]... (-s SCHEMA.fbe | -p PACKAGE) -t TYPE [--final] [IN.bin] [-o OUT]"

/* The output the dump streams to: stdout, or a file created at the first line (so
 * that a dump that cannot start leaves no file). */
typedef struct dump_output {
  const char *path; /* NULL: stdout */
  FILE *f;
  int failed;
} dump_output;

static int write_lines(void *ctx, const char *text, size_t n) {
  dump_output *o = ctx;
  if (!o->f) {
    o->f = o->path ? fopen(o->path, "wb") : stdout;
    if (!o->f) {
      fprintf(stderr, "fbe: cannot create '%s'\n", o->path);
      return o->failed = 1;
    }
  }
  if (fwrite(text, 1, n, o->f) != n) o->failed = 1;
  return o->failed;
}

/* Flushes or closes the output: 0 when everything was written. */
static int close_output(dump_output *o) {
  if (!o->f) return o->failed;
  int bad = o->failed || (o->path ? fclose(o->f) != 0 : fflush(o->f) != 0);
  if (bad && o->f) fprintf(stderr, "fbe: cannot write '%s'\n", o->path ? o->path : "<stdout>");
  return bad;
}

int cmd_dump(int argc, char **argv) {
  cli_options o;
  if (cli_parse(argc, argv, &o)) return 2;
  if (!o.type || o.positional_count > 1) {
    fprintf(stderr, "usage: fbe %s\n", DUMP_USAGE);
    return 2;
  }
  fbe_schema *schema = cli_load_schema(&o);
  if (!schema) return 1;
  const fbe_struct *type = fbe_schema_find_struct(schema, o.type);
  if (!type) {
    fprintf(stderr, "fbe: no struct or message '%s' in package %s\n", o.type,
            fbe_package_name(fbe_schema_root(schema)));
    fbe_schema_release(schema);
    return 1;
  }
  size_t size = 0;
  uint8_t *input = cli_read_file(o.positional_count ? o.positional[0] : NULL, &size);
  if (!input) {
    fbe_schema_release(schema);
    return 1;
  }
  dump_output out = {o.output && strcmp(o.output, "-") ? o.output : NULL, NULL, 0};
  fbe_error err;
  /* the lines go out as they are made; a malformed model still gets its whole dump,
   * the "!!" line says what is wrong */
  fbe_status s = fbe_dump_to(type, o.final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD, input, size,
                             &o.limits, write_lines, &out, &err);
  int bad_output = close_output(&out);
  if (s == FBE_ERR_NOMEM || s == FBE_ERR_ARGUMENT) cli_print_error("cannot dump", &err);
  int rc = s != FBE_OK || bad_output ? 1 : 0;
  cli_free_file(input);
  fbe_schema_release(schema);
  return rc;
}
