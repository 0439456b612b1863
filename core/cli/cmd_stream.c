/* fbe stream encode|decode: JSON Lines of messages <-> a framed protocol stream. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stream_item.h"

static int append_sink(void *ctx, const uint8_t *data, size_t size) {
  return fbe_buffer_append(ctx, data, size);
}

static int stream_encode(fbe_schema *schema, const cli_options *o, const uint8_t *data, size_t size) {
  fbe_buffer out;
  fbe_buffer_init(&out);
  fbe_arena *arena = fbe_arena_new();
  fbe_sender *sender = fbe_sender_new(schema, o->package, o->final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD,
                                      append_sink, &out);
  int rc = arena && sender ? 0 : 1;
  fbe_json_options in = cli_json_options(o, NULL);
  const char *p = (const char *)data, *end = p + size;
  for (size_t line = 1; p < end && rc == 0; line++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p)), *stop = nl ? nl : end;
    span item = {p, (size_t)(stop - p)};
    p = nl ? nl + 1 : end;
    if (strspn(item.at, " \t\r") >= item.len) continue; /* blank line */
    char why[512];
    fbe_msg *msg;
    fbe_error err;
    fbe_arena_reset(arena);
    if (stream_item_build_opts(schema, item, arena, &in, &msg, why, sizeof why)) {
      fprintf(stderr, "fbe: line %zu: %s\n", line, why);
      rc = 1;
    } else if (fbe_sender_send(sender, msg, &err)) {
      char text[400];
      fbe_error_format(&err, text, sizeof text);
      fprintf(stderr, "fbe: line %zu: %s\n", line, text);
      rc = 1;
    }
  }
  if (rc == 0) rc = cli_write_file(o->output, out.data, out.size) ? 1 : 0;
  fbe_sender_free(sender);
  fbe_arena_free(arena);
  fbe_buffer_free(&out);
  return rc;
}

typedef struct printer {
  fbe_buffer out;
  int failed;
  fbe_json_options json;
} printer;

static int print_message(void *ctx, const fbe_msg *msg) {
  printer *pr = ctx;
  fbe_error err;
  if (stream_item_write_opts(msg, &pr->json, &pr->out, &err) || fbe_buffer_append(&pr->out, "\n", 1)) {
    pr->failed = 1;
    return 1;
  }
  return 0;
}

static int stream_decode(fbe_schema *schema, const cli_options *o, const uint8_t *in, size_t size) {
  printer pr = {{0}, 0, cli_json_options(o, NULL)};
  pr.json.pretty = 0; /* one message a line */
  fbe_receiver *receiver = fbe_receiver_new(schema, o->package, o->final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD,
                                            &o->limits, print_message, &pr);
  int rc = receiver ? 0 : 1;
  fbe_error err;
  if (receiver && fbe_receiver_feed(receiver, in, size, &err)) {
    cli_print_error(pr.failed ? "cannot write JSON" : "bad stream", &err);
    rc = 1;
  } else if (receiver && fbe_receiver_pending(receiver)) {
    fprintf(stderr, "fbe: the stream ends inside a message (%zu bytes of it)\n",
            fbe_receiver_pending(receiver));
    rc = 1;
  }
  if (receiver && fbe_receiver_skipped(receiver))
    fprintf(stderr, "fbe: skipped %llu messages of types this protocol does not know\n",
            (unsigned long long)fbe_receiver_skipped(receiver));
  /* the messages before an error are written too: they were received */
  if (cli_write_file(o->output, pr.out.data, pr.out.size)) rc = 1;
  fbe_receiver_free(receiver);
  fbe_buffer_free(&pr.out);
  return rc;
}

int cmd_stream(int argc, char **argv) {
  const char *usage =
      "usage: fbe stream encode [-I DIR]... -p PACKAGE [--final] [--ignore-unknown] [IN.jsonl] [-o OUT]\n"
      "       fbe stream decode [-I DIR]... -p PACKAGE [--final] [--enum-names] [--int64-strings] [IN.bin] [-o OUT]\n";
  if (argc < 1 || (strcmp(argv[0], "encode") && strcmp(argv[0], "decode"))) {
    fputs(usage, stderr);
    return 2;
  }
  int encode = !strcmp(argv[0], "encode");
  cli_options o;
  if (cli_parse(argc - 1, argv + 1, &o)) return 2;
  if (!o.package || o.positional_count > 1) {
    fputs(usage, stderr);
    return 2;
  }
  fbe_schema *schema = cli_load_schema(&o);
  if (!schema) return 1;
  size_t size = 0;
  uint8_t *in = cli_read_file(o.positional_count ? o.positional[0] : NULL, &size);
  int rc = in ? (encode ? stream_encode(schema, &o, in, size) : stream_decode(schema, &o, in, size)) : 1;
  cli_free_file(in);
  fbe_schema_release(schema);
  return rc;
}
