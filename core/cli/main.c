/* `fbe`: check schemas, encode/decode/verify messages, run conformance files. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#endif

static void usage(FILE *to) {
  fprintf(to,
          "usage: fbe COMMAND [OPTIONS]\n"
          "\n"
          "commands:\n"
          "  check [-I DIR]... SCHEMA.fbe            parse and resolve a schema\n"
          "  encode [-I DIR]... (-s SCHEMA.fbe | -p PACKAGE) -t TYPE [--final] [--ignore-unknown]\n"
          "         [IN.json] [-o OUT]                JSON to binary; members the type does not have\n"
          "                                           are an error unless --ignore-unknown\n"
          "  decode ...same options... [--pretty | --text] [--enum-names] [--int64-strings]\n"
          "         [--trusted] [IN.bin]              binary to JSON, verified first (refused with\n"
          "                                           verify's reason); --enum-names: enums and flags\n"
          "                                           as names; --int64-strings: 64-bit integers as\n"
          "                                           strings; --text: the text form (docs/TEXT.md)\n"
          "                                           instead of JSON; --trusted: without verifying\n"
          "  verify ...same options... [IN.bin]       exit 0 when valid, 1 with reason and offset\n"
          "    encode, decode, verify, stream, dump: [--max-depth N] [--max-size N] [--max-memory N]\n"
          "                                           limits (codec.h; default 256, 1 GiB, and\n"
          "                                           16 x the input + 1 MiB); decode's JSON or\n"
          "                                           text is at most 32 x the model size + 1 MiB\n"
          "  conformance [-I DIR]... FILE.jsonl...    run conformance records\n"
          "  stream encode|decode [-I DIR]... -p PACKAGE [--final] [IN] [-o OUT]\n"
          "                                           JSON Lines of messages <-> a framed stream\n"
          "  dump ...same options as decode... [IN.bin]   annotated hex dump of a model\n"
          "  compat [-I DIR]... OLD.fbe NEW.fbe       what changed and whether it is safe\n"
          "  gen c [-I DIR]... SCHEMA.fbe -o OUTDIR  C structs and codecs for every package\n"
          "  testee                                   conformance testee: JSON requests on stdin\n"
          "  version                                  print the library version\n");
}

int main(int argc, char **argv) {
#ifdef _WIN32
  /* Encoded bytes go through stdin and stdout: no CR/LF translation, no ^Z as the end. */
  _setmode(_fileno(stdin), _O_BINARY);
  _setmode(_fileno(stdout), _O_BINARY);
#endif
  if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "check")) return cmd_check(argc - 2, argv + 2);
  if (!strcmp(cmd, "encode")) return cmd_encode(argc - 2, argv + 2);
  if (!strcmp(cmd, "decode")) return cmd_decode(argc - 2, argv + 2);
  if (!strcmp(cmd, "verify")) return cmd_verify(argc - 2, argv + 2);
  if (!strcmp(cmd, "conformance")) return cmd_conformance(argc - 2, argv + 2);
  if (!strcmp(cmd, "stream")) return cmd_stream(argc - 2, argv + 2);
  if (!strcmp(cmd, "dump")) return cmd_dump(argc - 2, argv + 2);
  if (!strcmp(cmd, "compat")) return cmd_compat(argc - 2, argv + 2);
  if (!strcmp(cmd, "gen")) return cmd_gen(argc - 2, argv + 2);
  if (!strcmp(cmd, "testee")) return cmd_testee(argc - 2, argv + 2);
  if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
    printf("fbe %s\n", fbe_version());
    return 0;
  }
  fprintf(stderr, "fbe: unknown command '%s'\n\n", cmd);
  usage(stderr);
  return 2;
}
