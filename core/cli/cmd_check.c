/* fbe check: parse and resolve a schema, print every diagnostic. */
#include <stdio.h>
#include "cli.h"

int cmd_check(int argc, char **argv) {
  cli_options o;
  if (cli_parse(argc, argv, &o)) return 2;
  if (o.positional_count != 1) {
    fprintf(stderr, "usage: fbe check [-I DIR]... SCHEMA.fbe\n");
    return 2;
  }
  o.schema_file = o.positional[0];
  fbe_schema *schema = cli_load_schema(&o);
  if (!schema) return 1;
  const fbe_package *root = fbe_schema_root(schema);
  printf("%s: package %s, %zu types, %zu enums/flags\n", o.schema_file, fbe_package_name(root),
         fbe_package_struct_count(root), fbe_package_enum_count(root));
  fbe_schema_release(schema);
  return 0;
}
