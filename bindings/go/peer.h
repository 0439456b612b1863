/* The protocol's peers for the Go binding (sender, receiver, client, server, proxy):
 * one C object per Go peer, and one cgo call per operation. What the core's callbacks
 * give during a call (the bytes sent, the messages received, the requests ended, the
 * frames, the log lines) is gathered here, in C memory, and Go reads it after the call
 * returns: C never calls back into Go. */
#ifndef FBEGO_PEER_H
#define FBEGO_PEER_H

#include "glue.h"
#include "fbe/client.h"

enum { FBEGO_SENDER, FBEGO_RECEIVER, FBEGO_CLIENT, FBEGO_SERVER, FBEGO_PROXY };
enum { FBEGO_EV_MESSAGE, FBEGO_EV_END, FBEGO_EV_FRAME };

/* One thing a call's callbacks saw. */
typedef struct fbego_event {
  int kind;             /* FBEGO_EV_* */
  int end;              /* END: fbe_request_end */
  uint64_t token;       /* END: the request's */
  int64_t si;           /* MESSAGE, END: the struct index of the message; -1: none */
  uint32_t n, p;        /* where the message starts on the peer's tape (slot, byte) */
  uint32_t type_id;     /* FRAME */
  int known;            /* FRAME: the protocol has the type */
  uint64_t at, size;    /* FRAME: the frame's bytes in `frames` */
  int has_err;          /* END: err holds the request's error */
  fbe_error err;
} fbego_event;

typedef struct fbego_peer {
  const fbego_schema *s;
  int role;
  fbe_sender *sender;     /* SENDER, SERVER */
  fbe_receiver *receiver; /* RECEIVER, SERVER, PROXY */
  fbe_client *client;     /* CLIENT */
  fbe_buffer out;         /* the bytes sent during the call */
  fbe_buffer log;         /* log lines: a 4-byte little-endian length, then "send TEXT" / "receive TEXT" */
  fbe_buffer frames;      /* PROXY: the frames' bytes */
  fbego_event *events;
  size_t nevents, events_cap;
  int64_t *num; /* the messages of the events, on a tape of the peer's */
  uint32_t num_len, num_cap;
  uint8_t *bytes;
  uint32_t bytes_len, bytes_cap;
  int failed; /* a callback ran out of memory: the call's error */
} fbego_peer;

fbego_peer *fbego_peer_new(int role, const fbego_schema *s, const char *package, int model, size_t max_pending,
                           int verify, int log, fbe_error *err);
void fbego_peer_free(fbego_peer *peer);
/* Each returns 0, or -1 with err; what happened is in the peer until the next call. */
int fbego_peer_send(fbego_peer *peer, size_t si, int64_t *num, uint32_t num_len, uint8_t *bytes, uint32_t bytes_len,
                    fbe_error *err);
int fbego_peer_request(fbego_peer *peer, size_t si, int64_t *num, uint32_t num_len, uint8_t *bytes,
                       uint32_t bytes_len, uint64_t timeout, uint64_t now, uint64_t token, fbe_error *err);
/* reply: the request (struct req_si) then the reply (struct si) on the tape. */
int fbego_peer_reply(fbego_peer *peer, size_t req_si, size_t si, int64_t *num, uint32_t num_len, uint8_t *bytes,
                     uint32_t bytes_len, fbe_error *err);
int fbego_peer_feed(fbego_peer *peer, const uint8_t *data, size_t size, fbe_error *err);
size_t fbego_peer_watchdog(fbego_peer *peer, uint64_t now);
void fbego_peer_reset(fbego_peer *peer);
size_t fbego_peer_pending(const fbego_peer *peer);
uint64_t fbego_peer_next_deadline(const fbego_peer *peer);

#endif
