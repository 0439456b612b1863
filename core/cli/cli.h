/* Shared pieces of the `fbe` command-line tool. */
#ifndef FBE_CLI_H
#define FBE_CLI_H

#include <stddef.h>
#include <stdint.h>
#include "fbe/fbe.h"

#define CLI_MAX_INCLUDES 64

/* Options common to the schema-driven commands. */
typedef struct cli_options {
  const char *includes[CLI_MAX_INCLUDES];
  size_t include_count;
  const char *schema_file;  /* -s */
  const char *package;      /* -p */
  const char *type;         /* -t */
  const char *output;       /* -o */
  int final;                /* --final */
  int pretty;               /* --pretty */
  int text;                 /* --text: decode prints the text form (docs/TEXT.md) */
  int trusted;              /* --trusted: decode without verifying */
  int enum_names;           /* --enum-names: JSON out with enum and flags names */
  int int64_strings;        /* --int64-strings: JSON out with 64-bit integers as strings */
  int ignore_unknown;       /* --ignore-unknown: JSON in may hold members of a newer schema */
  fbe_limits limits;        /* --max-depth, --max-size, --max-memory (0: the default) */
  const char *positional[64];
  size_t positional_count;
} cli_options;

/* fbe_decode (verifying) or fbe_decode_trusted, chosen by an option or a request. */
typedef fbe_status (*cli_decode_fn)(const fbe_struct *type, fbe_model model, const uint8_t *data,
                                    size_t size, fbe_arena *arena, const fbe_limits *limits,
                                    fbe_msg **out, size_t *model_size, fbe_error *err);

/* The JSON options the flags give (json.h), with limits. */
static inline fbe_json_options cli_json_options(const cli_options *o, const fbe_limits *limits) {
  fbe_json_options j = {o->pretty, o->enum_names, o->int64_strings, o->ignore_unknown, limits};
  return j;
}

/* Parses argv (after the command name). Prints the problem and returns -1 on a bad option. */
int cli_parse(int argc, char **argv, cli_options *o);

/* Loads the schema named by -s or -p, printing every diagnostic to stderr. */
fbe_schema *cli_load_schema(const cli_options *o);

/* Reads a whole regular file ("-" or NULL = stdin) of at most the default max_model_size
 * (1 GiB, codec.h): the largest model the codecs take. Returns the data (NUL-terminated;
 * free with cli_free_file) or NULL with the reason printed ("not a regular file",
 * "too large: N bytes, the limit is M", "out of memory", the system's reason). */
uint8_t *cli_read_file(const char *path, size_t *size);
void cli_free_file(uint8_t *data);

/* Writes data to path (NULL or "-" = stdout). 0 on success. */
int cli_write_file(const char *path, const void *data, size_t size);

/* Prints "fbe: what: <error formatted>" to stderr. */
void cli_print_error(const char *what, const fbe_error *err);

int cmd_check(int argc, char **argv);
int cmd_encode(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_conformance(int argc, char **argv);
int cmd_gen(int argc, char **argv); /* gen_c.c */
int cmd_stream(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_compat(int argc, char **argv);
int cmd_testee(int argc, char **argv);

#endif
