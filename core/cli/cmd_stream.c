/* fbe stream: placeholder while it is being written. */
#include <stdio.h>
#include "cli.h"

int cmd_stream(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "fbe stream: not available yet\n");
  return 2;
}
