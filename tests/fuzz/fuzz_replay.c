/* Replay driver: runs files through a fuzz target's LLVMFuzzerTestOneInput without
 * libFuzzer, so the committed corpora and tests/regressions/ replay with any compiler,
 * in any build (Release, ASan+UBSan, the fuzz tree) as ordinary ctests.
 *
 *   fuzz_replay_TARGET [--prefix=P] PATH...
 *
 * A file is run as one input; a directory runs each regular file in it, in name order,
 * whose name starts with the last --prefix given (tests/regressions/ holds every
 * target's inputs, named TARGET-description). A broken invariant aborts, a sanitizer
 * report ends the process: either fails the test. Each input is read into a buffer of
 * exactly its size, so a sanitizer sees any read past its end. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fuzz_common.h"

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "replay: cannot open %s\n", path);
    return -1;
  }
  size_t size = 0, cap = 4096;
  uint8_t *data = malloc(cap);
  while (data) {
    size += fread(data + size, 1, cap - size, f);
    if (size < cap) break;
    uint8_t *bigger = realloc(data, cap *= 2);
    if (!bigger) free(data);
    data = bigger;
  }
  int failed = !data || ferror(f);
  fclose(f);
  if (failed) {
    free(data);
    fprintf(stderr, "replay: cannot read %s\n", path);
    return -1;
  }
  /* exactly `size` bytes, so that reading past the input is caught */
  uint8_t *exact = malloc(size ? size : 1);
  if (!exact) {
    free(data);
    return -1;
  }
  if (size) memcpy(exact, data, size);
  free(data);
  printf("  %s (%zu bytes)\n", path, size);
  fflush(stdout);
  LLVMFuzzerTestOneInput(exact, size);
  free(exact);
  return 0;
}

static int compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs the files of dir whose names start with prefix; returns how many, or -1. */
static long run_dir(const char *dir, const char *prefix) {
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "replay: cannot open directory %s\n", dir);
    return -1;
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.' || strncmp(e->d_name, prefix, strlen(prefix)) != 0) continue;
    if (n == cap) {
      char **bigger = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *names);
      if (!bigger) break;
      names = bigger;
    }
    size_t len = strlen(dir) + strlen(e->d_name) + 2;
    if (!(names[n] = malloc(len))) break;
    snprintf(names[n++], len, "%s/%s", dir, e->d_name);
  }
  closedir(d);
  if (n) qsort(names, n, sizeof *names, compare_names);
  long ran = 0;
  for (size_t i = 0; i < n; i++) {
    struct stat st;
    if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
      if (run_file(names[i])) ran = -1;
      else if (ran >= 0) ran++;
    }
    free(names[i]);
  }
  free(names);
  return ran;
}

int main(int argc, char **argv) {
  const char *prefix = "";
  long total = 0;
  int failed = 0;
  if (argc < 2) {
    fprintf(stderr, "usage: %s [--prefix=P] FILE|DIR...\n", argv[0]);
    return 2;
  }
  for (int i = 1; i < argc; i++) {
    if (!strncmp(argv[i], "--prefix=", 9)) {
      prefix = argv[i] + 9;
      continue;
    }
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
      failed = 1;
      continue;
    }
    long ran = S_ISDIR(st.st_mode) ? run_dir(argv[i], prefix) : run_file(argv[i]) ? -1 : 1;
    if (ran < 0) failed = 1;
    else total += ran;
  }
  printf("replay: %ld input(s) passed\n", total);
  return failed;
}
