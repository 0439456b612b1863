/* fbe encode / decode / verify: one message between JSON and the wire models. */
#include <stdio.h>
#include <stdlib.h>
#include "cli.h"

typedef struct job {
  cli_options o;
  fbe_schema *schema;
  const fbe_struct *type;
  uint8_t *input;
  size_t input_size;
} job;

/* Parses options, loads the schema, finds the type and reads the input. */
static int job_open(job *j, int argc, char **argv, const char *usage) {
  j->schema = NULL;
  j->input = NULL;
  if (cli_parse(argc, argv, &j->o)) return 2;
  if (!j->o.type || j->o.positional_count > 1) {
    fprintf(stderr, "usage: fbe %s\n", usage);
    return 2;
  }
  j->schema = cli_load_schema(&j->o);
  if (!j->schema) return 1;
  j->type = fbe_schema_find_struct(j->schema, j->o.type);
  if (!j->type) {
    fprintf(stderr, "fbe: no struct or message '%s' in package %s\n", j->o.type,
            fbe_package_name(fbe_schema_root(j->schema)));
    return 1;
  }
  j->input = cli_read_file(j->o.positional_count ? j->o.positional[0] : NULL, &j->input_size);
  return j->input ? 0 : 1;
}

static void job_close(job *j) {
  cli_free_file(j->input);
  fbe_schema_release(j->schema);
}

static fbe_model job_model(const job *j) { return j->o.final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD; }

int cmd_encode(int argc, char **argv) {
  job j;
  int rc = job_open(&j, argc, argv,
                    "encode [-I DIR]... (-s SCHEMA.fbe | -p PACKAGE) -t TYPE [--final] [--ignore-unknown] [IN.json] [-o OUT]");
  if (rc) {
    job_close(&j);
    return rc;
  }
  fbe_arena *arena = fbe_arena_new();
  fbe_buffer out;
  fbe_buffer_init(&out);
  fbe_error err;
  fbe_msg *msg = NULL;
  fbe_json_options in = cli_json_options(&j.o, &j.o.limits);
  if (fbe_msg_from_json_opts(j.type, (const char *)j.input, j.input_size, arena, &in, &msg, &err)) {
    cli_print_error("invalid JSON input", &err);
    rc = 1;
  } else if (fbe_encode(msg, job_model(&j), &out, &err)) {
    cli_print_error("cannot encode", &err);
    rc = 1;
  } else {
    rc = cli_write_file(j.o.output, out.data, out.size) ? 1 : 0;
  }
  fbe_buffer_free(&out);
  fbe_arena_free(arena);
  job_close(&j);
  return rc;
}

int cmd_decode(int argc, char **argv) {
  job j;
  int rc = job_open(&j, argc, argv,
                    "decode [-I DIR]... (-s SCHEMA.fbe | -p PACKAGE) -t TYPE [--final] [--pretty | --text] [--enum-names] [--int64-strings] [--trusted] [IN.bin] [-o OUT]");
  if (!rc && j.o.text && (j.o.pretty || j.o.enum_names || j.o.int64_strings)) {
    fprintf(stderr, "fbe: --pretty, --enum-names and --int64-strings are for JSON output, not --text\n");
    rc = 2;
  }
  if (rc) {
    job_close(&j);
    return rc;
  }
  fbe_arena *arena = fbe_arena_new();
  fbe_buffer out;
  fbe_buffer_init(&out);
  fbe_error err;
  fbe_msg *msg = NULL;
  /* verified unless --trusted (e.g. a sibling type read by another schema version) */
  cli_decode_fn decode = j.o.trusted ? fbe_decode_trusted : fbe_decode;
  size_t model_size = 0;
  if (decode(j.type, job_model(&j), j.input, j.input_size, arena, &j.o.limits, &msg, &model_size, &err)) {
    cli_print_error("cannot decode", &err);
    rc = 1;
  } else {
    /* the output, like the decode, is bounded by the model's size (json.h, text.h, codec.h) */
    fbe_limits budget = j.o.limits;
    budget.max_memory = FBE_DEFAULT_OUTPUT_FACTOR * (uint64_t)model_size + FBE_DEFAULT_MEMORY_FLOOR;
    fbe_json_options json = cli_json_options(&j.o, &budget);
    fbe_status s = j.o.text ? fbe_msg_to_text_limited(msg, &budget, &out, &err)
                            : fbe_msg_to_json_opts(msg, &json, &out, &err);
    if (s || fbe_buffer_append(&out, "\n", 1)) {
      cli_print_error(j.o.text ? "cannot write the text" : "cannot write JSON", &err);
      rc = 1;
    } else {
      rc = cli_write_file(j.o.output, out.data, out.size) ? 1 : 0;
    }
  }
  fbe_buffer_free(&out);
  fbe_arena_free(arena);
  job_close(&j);
  return rc;
}

int cmd_verify(int argc, char **argv) {
  job j;
  int rc = job_open(&j, argc, argv,
                    "verify [-I DIR]... (-s SCHEMA.fbe | -p PACKAGE) -t TYPE [--final] [IN.bin]");
  if (rc) {
    job_close(&j);
    return rc;
  }
  fbe_error err;
  size_t size = 0;
  if (fbe_verify(j.type, job_model(&j), j.input, j.input_size, &j.o.limits, &size, &err)) {
    cli_print_error("invalid", &err);
    rc = 1;
  } else {
    printf("valid %s model of %s, %zu bytes\n", j.o.final ? "final" : "standard",
           fbe_struct_full_name(j.type), size);
  }
  job_close(&j);
  return rc;
}
