/* Prints the constants of org.libfbe.Status (Status.java.in) from the core's status
 * table, FBE_STATUS_LIST (fbe/error.h): the C preprocessor reads the table, so Java
 * holds no copy of it. CMake compiles and runs this at configure time (try_run). */
#include <stdio.h>
#include <string.h>
#include "fbe/error.h"

/* FBE_ERR_NOT_FOUND -> NOT_FOUND, FBE_OK -> OK */
static const char *java_name(const char *c_name) { return c_name + (strncmp(c_name, "FBE_ERR_", 8) ? 4 : 8); }

int main(void) {
#define CONSTANT(name, value, text, cls, parent) \
  printf("  %s(%d, %s, %s, %d),\n", java_name(#name), value, #text, #cls, (int)parent);
  FBE_STATUS_LIST(CONSTANT)
  return 0;
}
