/* A program that uses libfbe the way a user of the installed package does: only
 * <fbe/fbe.h> from the install prefix, linked against the installed library.
 *
 *   consumer PROTO.fbe [shared|static]
 *
 * Loads the schema, builds a proto.Account from JSON, and for both models encodes,
 * verifies, decodes and checks that the result equals the input and prints the same
 * JSON. Checks that the header's version macros match fbe_version() and, when told
 * which library it was linked against, that FBE_STATIC is defined exactly for the
 * static one. Exit 0 on success, 1 with a message otherwise. */
#include <stdio.h>
#include <string.h>

#include <fbe/fbe.h>

#define STR_(x) #x
#define STR(x) STR_(x)

static int fail_err(const char *what, const fbe_error *err) {
  char text[512];
  fbe_error_format(err, text, sizeof text);
  fprintf(stderr, "consumer: %s: %s\n", what, text);
  return 1;
}

static int fail(const char *what) {
  fprintf(stderr, "consumer: %s\n", what);
  return 1;
}

static int check_version(void) {
  const char *linked = fbe_version();
  printf("fbe_version() = %s, FBE_VERSION_STRING = %s\n", linked, FBE_VERSION_STRING);
  if (strcmp(linked, FBE_VERSION_STRING) != 0)
    return fail("the linked library's version differs from the header's FBE_VERSION_STRING");
  const char *from_parts =
      STR(FBE_VERSION_MAJOR) "." STR(FBE_VERSION_MINOR) "." STR(FBE_VERSION_PATCH);
  if (strcmp(from_parts, FBE_VERSION_STRING) != 0)
    return fail("FBE_VERSION_MAJOR.MINOR.PATCH differ from FBE_VERSION_STRING");
  return 0;
}

static int check_linkage(const char *expected) {
#ifdef FBE_STATIC
  const char *defined = "static";
#else
  const char *defined = "shared";
#endif
  printf("linkage: %s (FBE_STATIC %s)\n", defined,
         strcmp(defined, "static") == 0 ? "defined" : "not defined");
  if (expected && strcmp(expected, defined) != 0) {
    fprintf(stderr, "consumer: expected the %s library's usage requirements, got %s's\n",
            expected, defined);
    return 1;
  }
  return 0;
}

/* JSON of the value as a NUL-terminated string in buf (freed by the caller). */
static int to_json(const fbe_msg *msg, fbe_buffer *buf, fbe_error *err) {
  fbe_buffer_reset(buf);
  if (fbe_msg_to_json(msg, 0, buf, err) != FBE_OK) return -1;
  if (fbe_buffer_append(buf, "", 1) != 0) return -1;
  return 0;
}

static int round_trip(const fbe_struct *type, const fbe_msg *msg, fbe_model model,
                      fbe_arena *arena, const char *expected_json) {
  const char *name = model == FBE_MODEL_FINAL ? "final" : "standard";
  int rc = 1;
  fbe_error err;
  fbe_buffer bytes, json;
  fbe_buffer_init(&bytes);
  fbe_buffer_init(&json);

  size_t checked = 0, used = 0;
  fbe_msg *decoded = NULL;
  if (fbe_encode(msg, model, &bytes, &err) != FBE_OK) {
    fail_err("encode", &err);
  } else if (fbe_verify(type, model, bytes.data, bytes.size, NULL, &checked, &err) != FBE_OK) {
    fail_err("verify", &err);
  } else if (checked != bytes.size) {
    fail("verify: model size differs from the encoded size");
  } else if (fbe_decode_trusted(type, model, bytes.data, bytes.size, arena, NULL, &decoded, &used,
                                &err) != FBE_OK) { /* verified just above */
    fail_err("decode", &err);
  } else if (used != bytes.size) {
    fail("decode: used size differs from the encoded size");
  } else if (!fbe_msg_equal(msg, decoded)) {
    fail("decoded message differs from the encoded one");
  } else if (to_json(decoded, &json, &err) != 0) {
    fail_err("to_json", &err);
  } else if (strcmp((const char *)json.data, expected_json) != 0) {
    fprintf(stderr, "consumer: JSON after the round trip differs:\n  %s\n  %s\n", expected_json,
            (const char *)json.data);
  } else {
    printf("%s model: %zu bytes, verified, decoded, equal\n", name, bytes.size);
    rc = 0;
  }
  fbe_buffer_free(&json);
  fbe_buffer_free(&bytes);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3 ||
      (argc == 3 && strcmp(argv[2], "shared") != 0 && strcmp(argv[2], "static") != 0)) {
    fprintf(stderr, "usage: %s PROTO.fbe [shared|static]\n", argv[0]);
    return 2;
  }
  if (check_version() || check_linkage(argc == 3 ? argv[2] : NULL)) return 1;

  fbe_diagnostics diags = {0, NULL};
  fbe_schema *schema = fbe_schema_load_file(argv[1], NULL, &diags);
  for (size_t i = 0; i < diags.count; i++) {
    char line[512];
    fbe_diagnostic_format(&diags.items[i], line, sizeof line);
    fprintf(stderr, "%s\n", line);
  }
  fbe_diagnostics_free(&diags);
  if (!schema) return fail("cannot load the schema");

  int rc = 1;
  fbe_arena *arena = fbe_arena_new();
  fbe_buffer json;
  fbe_buffer_init(&json);
  const fbe_struct *account = fbe_schema_find_struct(schema, "proto.Account");
  const char *text =
      "{\"id\":42,\"name\":\"Installed\",\"state\":6,"
      "\"wallet\":{\"currency\":\"USD\",\"amount\":1000.5},"
      "\"asset\":{\"currency\":\"EUR\",\"amount\":2.25},"
      "\"orders\":[{\"id\":1,\"symbol\":\"EURUSD\",\"side\":0,\"type\":1,"
      "\"price\":1.23456,\"volume\":1000.0}]}";
  fbe_error err;
  fbe_msg *msg = NULL;
  if (!arena) {
    fail("out of memory");
  } else if (!account) {
    fail("proto.Account not found in the schema");
  } else if (fbe_msg_from_json(account, text, strlen(text), arena, &msg, &err) != FBE_OK) {
    fail_err("from_json", &err);
  } else if (to_json(msg, &json, &err) != 0) {
    fail_err("to_json", &err);
  } else if (round_trip(account, msg, FBE_MODEL_STANDARD, arena, (const char *)json.data) == 0 &&
             round_trip(account, msg, FBE_MODEL_FINAL, arena, (const char *)json.data) == 0) {
    printf("%s\nconsumer: ok\n", (const char *)json.data);
    rc = 0;
  }
  fbe_buffer_free(&json);
  fbe_arena_free(arena);
  fbe_schema_release(schema);
  return rc;
}
