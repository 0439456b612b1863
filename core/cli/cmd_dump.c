/* fbe dump: placeholder while it is being written. */
#include <stdio.h>
#include "cli.h"

int cmd_dump(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "fbe dump: not available yet\n");
  return 2;
}
