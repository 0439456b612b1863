/* fbe dump: annotated hex dump of one model (fbe/dump.h). Exit 0 for a valid model, 1
 * when the dump ends with a "!!" line (or the schema, type or input cannot be had),
 * 2 for bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include "cli.h"
#include "fbe/dump.h"

#define DUMP_USAGE \
  "dump [-I DIR]... (-s SCHEMA.fbe | -p PACKAGE) -t TYPE [--final] [IN.bin] [-o OUT]"

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
  fbe_buffer out;
  fbe_buffer_init(&out);
  fbe_error err;
  fbe_status s = fbe_dump(type, o.final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD, input, size, NULL,
                          &out, &err);
  int rc;
  if (s == FBE_ERR_NOMEM || s == FBE_ERR_ARGUMENT) {
    cli_print_error("cannot dump", &err);
    rc = 1;
  } else {
    /* a malformed model still gets its whole dump: the "!!" line says what is wrong */
    rc = cli_write_file(o.output, out.data, out.size) || s != FBE_OK ? 1 : 0;
  }
  fbe_buffer_free(&out);
  cli_free_file(input);
  fbe_schema_release(schema);
  return rc;
}
