/* The C testee's state and its request/response helpers, shared by cmd_testee.c (the
 * requests on values, bytes and streams) and testee_conversation.c (the sessions of
 * clients, servers and proxies): docs/TESTEE.md. */
#ifndef FBE_CLI_TESTEE_H
#define FBE_CLI_TESTEE_H

#include "fbe/fbe.h"
#include "package_cache.h"
#include "record.h"
#include "testee_packages.h"

typedef struct testee_session testee_session;

typedef struct testee {
  char **includes; /* the load's include directories, the packages' directory first */
  size_t include_count;
  testee_packages packages; /* the schema texts of the load, written to a directory */
  package_cache cache;
  fbe_arena *arena;         /* reset for every request */
  fbe_buffer out, tmp;      /* out: the response line */
  testee_session *sessions; /* the conversation sessions (testee_conversation.c) */
} testee;

/* ---- reading the request object's members ---- */
span tj_member(const char *line, size_t len, const char *name);
char *tj_member_text(const char *line, size_t len, const char *name); /* malloc'd; NULL: absent */
int tj_member_is(const char *line, size_t len, const char *name, const char *value);
fbe_model tj_model_of(const char *line, size_t len);
/* The schema of "package" (*package: its name, malloc'd), or NULL after writing the failure. */
fbe_schema *tj_package_of(testee *t, const char *line, size_t len, char **package);
fbe_schema *tj_schema_for(testee *t, const char *package, char *why, size_t why_size);
/* The bytes of "hex" (malloc'd), or NULL after writing the failure. */
uint8_t *tj_hex_of(testee *t, const char *line, size_t len, size_t *size);

/* ---- writing the response ---- */
void tj_put(fbe_buffer *b, const char *s);
void tj_put_escaped(fbe_buffer *b, const char *s);
void tj_put_escaped_n(fbe_buffer *b, const char *s, size_t n);
void tj_put_hex(fbe_buffer *b, const uint8_t *data, size_t size);
/* An error response: the core's status name (NULL: a bad request) and the text. */
void tj_fail_status(testee *t, const char *status, const char *why);
void tj_fail(testee *t, const char *why);
void tj_fail_err(testee *t, const fbe_error *err);

/* ---- conversations (testee_conversation.c) ---- */
/* Answers a session request (client, request, feed, watchdog, reset, server, serve,
 * reply, send, proxy, close): 1, or 0 when op is none of them. */
int testee_conversation(testee *t, const char *op, const char *line, size_t len);
/* Closes every session (at a load and at the end). */
void testee_sessions_close(testee *t);

#endif
