/* Prints the constants of org.libfbe.Got (Got.java.in) from the core's fbei_got
 * (fbe/internal/input.h): what kind of host value a refused input was, the numbers
 * Java hands to the core's input vocabulary. CMake compiles and runs this at configure
 * time (try_run), so Java holds no hand copy of the numbers. */
#include <stdio.h>
#include "fbe/internal/input.h"

int main(void) {
#define CONSTANT(name) printf("  static final int %s = %d;\n", #name, (int)FBEI_GOT_##name);
  CONSTANT(NULL)
  CONSTANT(BOOL)
  CONSTANT(INTEGER)
  CONSTANT(FLOAT)
  CONSTANT(STRING)
  CONSTANT(BYTES)
  CONSTANT(LIST)
  CONSTANT(SET)
  CONSTANT(MAP)
  CONSTANT(STRUCT)
  CONSTANT(ENUM)
  CONSTANT(TIME)
  CONSTANT(UUID)
  CONSTANT(DECIMAL)
  CONSTANT(OTHER)
  return 0;
}
