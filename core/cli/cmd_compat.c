/* fbe compat: placeholder while it is being written. */
#include <stdio.h>
#include "cli.h"

int cmd_compat(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "fbe compat: not available yet\n");
  return 2;
}
