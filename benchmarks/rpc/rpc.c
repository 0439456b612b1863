/* The request/response benchmark's C side (benchmarks/rpc/README.md): a server or a
 * client of schemas/exchange.fbe over a TCP loopback socket, on the core's client
 * (fbe/client.h) and fbe_reply_prepare.
 *
 *   rpc server PORT_FILE            listens on a free loopback port, writes it to
 *                                   PORT_FILE, serves until the client closes
 *   rpc client PORT N WINDOW        N NewOrder requests, WINDOW in flight at a time;
 *                                   checks every one ended as the server's rule says,
 *                                   prints {"requests":N,"seconds":S,"ok":true}
 *
 * The server's rule, the same in every language: a NewOrder of quantity q is accepted
 * with order = q, unless q is a multiple of 10, which is rejected with reason "q". */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "fbe/fbe.h"

static int write_all(void *ctx, const uint8_t *data, size_t size) {
  int fd = *(int *)ctx;
  while (size) {
    ssize_t n = write(fd, data, size);
    if (n <= 0) return -1;
    data += n;
    size -= (size_t)n;
  }
  return 0;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static fbe_schema *load(const char *dir) {
  const char *dirs[] = {dir};
  fbe_load_options options = {dirs, 1};
  char path[4096];
  snprintf(path, sizeof path, "%s/exchange.fbe", dir);
  return fbe_schema_load_file(path, &options, NULL);
}

/* ---- the server */

typedef struct server {
  fbe_schema *schema;
  fbe_sender *sender;
  fbe_arena *arena;
  const fbe_struct *accepted, *reject;
} server;

static int serve(void *ctx, const fbe_msg *request) {
  server *sv = ctx;
  fbe_arena_reset(sv->arena);
  double q = 0;
  fbe_ref_get_double(fbe_ref_field(fbe_msg_ref((fbe_msg *)request), "quantity"), &q);
  long quantity = (long)q;
  fbe_msg *reply = fbe_msg_new(sv->arena, quantity % 10 ? sv->accepted : sv->reject);
  if (quantity % 10) {
    fbe_ref_set_int(fbe_ref_field(fbe_msg_ref(reply), "order"), quantity, NULL);
  } else {
    char reason[32];
    snprintf(reason, sizeof reason, "%ld", quantity);
    fbe_ref_set_string(fbe_ref_field(fbe_msg_ref(reply), "reason"), reason, NULL);
  }
  return fbe_reply_prepare(request, reply, NULL) || fbe_sender_send(sv->sender, reply, NULL);
}

static int run_server(const char *schemas, const char *port_file) {
  int ls = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {0};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof a) || listen(ls, 1) ||
      getsockname(ls, (struct sockaddr *)&a, &len))
    return perror("rpc server"), 1;
  FILE *f = fopen(port_file, "w");
  if (!f) return perror(port_file), 1;
  fprintf(f, "%d\n", ntohs(a.sin_port));
  fclose(f);
  int fd = accept(ls, NULL, NULL);
  if (fd < 0) return perror("accept"), 1;
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  fbe_schema *schema = load(schemas);
  if (!schema) return fprintf(stderr, "rpc server: cannot load %s/exchange.fbe\n", schemas), 1;
  server sv = {schema, fbe_sender_new(schema, NULL, FBE_MODEL_STANDARD, write_all, &fd), fbe_arena_new(),
               fbe_schema_find_struct(schema, "OrderAccepted"), fbe_schema_find_struct(schema, "Reject")};
  fbe_receiver *requests = fbe_receiver_new(schema, NULL, FBE_MODEL_STANDARD, NULL, serve, &sv);
  static uint8_t buf[65536];
  ssize_t n;
  fbe_error err;
  while ((n = read(fd, buf, sizeof buf)) > 0)
    if (fbe_receiver_feed(requests, buf, (size_t)n, &err)) return fprintf(stderr, "rpc server: %s\n", err.message), 1;
  fbe_receiver_free(requests);
  fbe_sender_free(sv.sender);
  fbe_arena_free(sv.arena);
  fbe_schema_release(schema);
  close(fd);
  close(ls);
  return 0;
}

/* ---- the client */

typedef struct client {
  long done, wrong;
} client;

static void ended(void *ctx, uint64_t token, fbe_request_end end, const fbe_msg *msg, const fbe_error *err) {
  client *c = ctx;
  c->done++;
  int64_t order = -1;
  if (end == FBE_REQUEST_RESPONDED) fbe_ref_get_int(fbe_ref_field(fbe_msg_ref((fbe_msg *)msg), "order"), &order);
  int right = token % 10 ? end == FBE_REQUEST_RESPONDED && order == (int64_t)token
                         : end == FBE_REQUEST_REJECTED && err && err->code == FBE_ERR_REJECTED;
  c->wrong += !right;
}

static int run_client(const char *schemas, int port, long n, long window) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {0};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons((uint16_t)port);
  if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a)) return perror("rpc client"), 1;
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  fbe_schema *schema = load(schemas);
  if (!schema) return fprintf(stderr, "rpc client: cannot load %s/exchange.fbe\n", schemas), 1;
  client c = {0, 0};
  fbe_client_options o = {FBE_MODEL_STANDARD, NULL, 0, write_all, &fd, ended, NULL, &c};
  fbe_error err;
  fbe_client *cl = fbe_client_new(schema, NULL, &o, &err);
  fbe_arena *arena = fbe_arena_new();
  const fbe_struct *new_order = fbe_schema_find_struct(schema, "NewOrder");
  static uint8_t buf[65536];
  double t0 = now_s();
  long sent = 0;
  while (c.done < n) {
    while (sent < n && sent - c.done < window) {
      fbe_arena_reset(arena);
      fbe_msg *m = fbe_msg_new(arena, new_order); /* a new uuid1 id */
      fbe_ref_set_double(fbe_ref_field(fbe_msg_ref(m), "quantity"), (double)(sent + 1), NULL);
      if (fbe_client_request(cl, m, 0, 0, (uint64_t)(sent + 1), &err))
        return fprintf(stderr, "rpc client: %s\n", err.message), 1;
      sent++;
    }
    ssize_t got = read(fd, buf, sizeof buf);
    if (got <= 0) return fprintf(stderr, "rpc client: the server closed after %ld answers\n", c.done), 1;
    if (fbe_client_feed(cl, buf, (size_t)got, &err)) return fprintf(stderr, "rpc client: %s\n", err.message), 1;
  }
  double seconds = now_s() - t0;
  printf("{\"requests\":%ld,\"seconds\":%.4f,\"ok\":%s}\n", n, seconds, c.wrong ? "false" : "true");
  fbe_client_free(cl);
  fbe_arena_free(arena);
  fbe_schema_release(schema);
  close(fd);
  return c.wrong ? 1 : 0;
}

int main(int argc, char **argv) {
  const char *schemas = getenv("FBE_SCHEMAS") ? getenv("FBE_SCHEMAS") : "schemas";
  if (argc == 3 && !strcmp(argv[1], "server")) return run_server(schemas, argv[2]);
  if (argc == 5 && !strcmp(argv[1], "client")) return run_client(schemas, atoi(argv[2]), atol(argv[3]), atol(argv[4]));
  fprintf(stderr, "usage: rpc server PORT_FILE | rpc client PORT N WINDOW\n");
  return 2;
}
