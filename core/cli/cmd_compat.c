/* fbe compat: what changed between two versions of a package and whether it is safe
 * (FORMAT.md 8). Exit 0 when the standard model stays readable in both directions,
 * 1 on any breaking change, 2 on usage or load errors. */
#include <stdio.h>
#include "cli.h"
#include "fbe/compat.h"

static int usage(void) {
  fprintf(stderr, "usage: fbe compat [-I DIR]... OLD.fbe NEW.fbe\n");
  return 2;
}

/* Loads one side; imports are found next to the file first, then on the -I dirs. */
static fbe_schema *load_side(const cli_options *common, const char *path) {
  cli_options o = *common;
  o.schema_file = path;
  return cli_load_schema(&o);
}

int cmd_compat(int argc, char **argv) {
  cli_options o;
  if (cli_parse(argc, argv, &o)) return 2;
  if (o.positional_count != 2 || o.schema_file || o.package || o.type || o.output || o.final ||
      o.pretty)
    return usage();
  fbe_schema *old_schema = load_side(&o, o.positional[0]);
  fbe_schema *new_schema = old_schema ? load_side(&o, o.positional[1]) : NULL;
  if (!new_schema) {
    fbe_schema_release(old_schema);
    return 2;
  }
  fbe_compat_report report;
  fbe_error err;
  fbe_status st = fbe_compat_compare(old_schema, new_schema, &report, &err);
  fbe_schema_release(old_schema);
  fbe_schema_release(new_schema);
  if (st != FBE_OK) {
    cli_print_error("compat", &err);
    fbe_compat_report_free(&report);
    return 2;
  }
  for (size_t i = 0; i < report.count; i++) {
    char line[1024];
    fbe_compat_change_format(&report.changes[i], line, sizeof line);
    printf("%s\n", line);
  }
  printf("%zu change%s, %zu breaking, %zu warning%s \xE2\x80\x94 standard: %s, final: %s\n",
         report.count, report.count == 1 ? "" : "s", report.breaking, report.warnings,
         report.warnings == 1 ? "" : "s", fbe_compat_effect_text(report.standard),
         fbe_compat_final_text(report.final));
  int code = report.standard == FBE_COMPAT_SAFE ? 0 : 1;
  fbe_compat_report_free(&report);
  if (fflush(stdout)) return 2;
  return code;
}
