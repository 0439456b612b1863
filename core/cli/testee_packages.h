/* The schema texts of a testee's `load` request ("packages": {NAME: TEXT, ...}),
 * written as NAME.fbe into a fresh temporary directory, so that the loader finds them
 * and their imports by package name like any schema on an include directory. */
#ifndef FBE_CLI_TESTEE_PACKAGES_H
#define FBE_CLI_TESTEE_PACKAGES_H

#include <stddef.h>
#include "record.h"

typedef struct testee_packages {
  char *dir;     /* the directory, NULL when none was written */
  char **files;  /* the files written in it */
  size_t count;
} testee_packages;

/* Writes every member of the JSON object `object` (a package name, an identifier, and
 * its schema text) into a new directory. 0, or -1 with the reason in why (nothing is
 * left on disk). */
int testee_packages_write(testee_packages *p, span object, char *why, size_t why_size);

/* Deletes the files and the directory. */
void testee_packages_remove(testee_packages *p);

#endif
