/* Request/response over the protocol (FORMAT.md 9.5; docs/CLIENT.md): the client, a
 * Sender and a Receiver joined for the messages a schema marks `[request]`,
 * `[response(...)]` and `[reject(...)]` (SCHEMA.md 6.6), for any package of any schema
 * loaded at run time; and the one rule of a server's replies.
 *
 * The core has no threads and no timers: the caller passes the time (`now`, in
 * nanoseconds of any clock that does not go back) and calls fbe_client_watchdog when
 * it wants timeouts checked (fbe_client_next_deadline says when). A request ends
 * exactly once, through the client's done callback: the bindings turn that into their
 * language's future. */
#ifndef FBE_CLIENT_H
#define FBE_CLIENT_H

#include <stddef.h>
#include <stdint.h>
#include "fbe/export.h"
#include "fbe/error.h"
#include "fbe/codec.h"
#include "fbe/message.h"
#include "fbe/schema.h"
#include "fbe/protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fbe_client fbe_client;

/* How a request ended. */
typedef enum fbe_request_end {
  FBE_REQUEST_SENT = 0,  /* sent: its type has no [response], so that is its end */
  FBE_REQUEST_RESPONDED, /* msg: the response */
  FBE_REQUEST_REJECTED,  /* msg: the reject; err: FBE_ERR_REJECTED, the reject's text form */
  FBE_REQUEST_TIMED_OUT, /* err: FBE_ERR_TIMEOUT "Timeout!" */
  FBE_REQUEST_RESET      /* err: FBE_ERR_RESET "Reset client!" */
} fbe_request_end;

/* The end of the request fbe_client_request took with `token`: called once per request,
 * from fbe_client_request itself (SENT), fbe_client_feed (RESPONDED, REJECTED),
 * fbe_client_watchdog (TIMED_OUT) or fbe_client_reset (RESET). msg and err (NULL when
 * none) are valid during the call. The request is no longer pending when it is called:
 * the callback may make new requests; it must not free the client. */
typedef void (*fbe_request_done_fn)(void *ctx, uint64_t token, fbe_request_end end, const fbe_msg *msg,
                                    const fbe_error *err);

/* The default cap on pending requests (fbe_client_options.max_pending = 0). */
#define FBE_DEFAULT_MAX_PENDING 65536u

typedef struct fbe_client_options {
  fbe_model model;               /* of every frame sent and received */
  const fbe_limits *limits;      /* of every received frame (NULL: the defaults) */
  size_t max_pending;            /* requests waiting at once; 0: FBE_DEFAULT_MAX_PENDING */
  fbe_sink_fn sink;              /* where the bytes go (required) */
  void *sink_ctx;
  fbe_request_done_fn done;      /* required */
  fbe_handler_fn notify;         /* every received message that is no pending request's
                                    response or reject (events, pushes); NULL: dropped.
                                    Non-zero stops the feed, as a receiver's handler. */
  void *ctx;                     /* of done and notify */
} fbe_client_options;

/* A client for the protocol of `package` (NULL: the schema's root package) and the
 * packages it imports (FORMAT.md 9.4). Keeps a reference to the schema. NULL with err
 * set when the package is unknown, an option is missing, or memory ran out. */
FBE_API fbe_client *fbe_client_new(fbe_schema *schema, const char *package, const fbe_client_options *options,
                                   fbe_error *err);
/* Frees the client; pending requests are dropped without their callbacks. */
FBE_API void fbe_client_free(fbe_client *client);

/* Sends `request`, a message of the protocol whose type is marked [request]
 * (FBE_ERR_TYPE otherwise). A type without [response] ends at once (SENT, before this
 * returns). One with a response is registered under the value of its field `id`
 * (FBE_ERR_ARGUMENT when it has none, when its type is not a scalar or a string, or when
 * a pending request has an equal id; FBE_ERR_LIMIT past max_pending), with the time
 * `now` (made strictly increasing: a request at the same time as the last one gets +1),
 * and ends when its response or a reject with an equal `id` is received, or when
 * fbe_client_watchdog finds it past `timeout_ns` (0: no timeout), or at
 * fbe_client_reset. A request whose bytes the sink refused is not registered
 * (FBE_ERR_IO). `token` is the caller's, handed back to done. */
FBE_API fbe_status fbe_client_request(fbe_client *client, const fbe_msg *request, uint64_t timeout_ns,
                                      uint64_t now, uint64_t token, fbe_error *err);

/* Sends any message of the protocol as it is (a notification), as fbe_sender_send. */
FBE_API fbe_status fbe_client_send(fbe_client *client, const fbe_msg *msg, fbe_error *err);

/* Takes received bytes, in chunks of any size, as fbe_receiver_feed (its errors, its
 * reset after a bad frame; pending requests stay). Each message is offered first as a
 * response (the pending request whose response type it is, with an equal id, is
 * RESPONDED), then as a reject (the pending request whose [reject(...)] list names its
 * type, with an equal id, is REJECTED: requests of the imported packages too), and
 * otherwise goes to notify. */
FBE_API fbe_status fbe_client_feed(fbe_client *client, const uint8_t *data, size_t size, fbe_error *err);

/* Ends every pending request whose start + timeout <= now as TIMED_OUT, oldest first;
 * how many. O(pending). */
FBE_API size_t fbe_client_watchdog(fbe_client *client, uint64_t now);

/* The earliest time at which fbe_client_watchdog will end a request, or UINT64_MAX when
 * no pending request has a timeout. O(pending). */
FBE_API uint64_t fbe_client_next_deadline(const fbe_client *client);

/* Ends every pending request as RESET, oldest first, and resets the receiver (a
 * partial frame is dropped). Called from a callback of fbe_client_feed, the feed stops
 * after the message being handled and the rest of its bytes are dropped with the
 * receiver's state (the feed returns FBE_OK). */
FBE_API void fbe_client_reset(fbe_client *client);

/* Requests waiting for a response. */
FBE_API size_t fbe_client_pending(const fbe_client *client);

/* The client's sender and receiver, for their counters and log hooks
 * (fbe_sender_set_log, fbe_receiver_set_log). Owned by the client. */
FBE_API fbe_sender *fbe_client_sender(fbe_client *client);
FBE_API fbe_receiver *fbe_client_receiver(fbe_client *client);

/* ---- the server's side: what may answer a request, and with which id ---- */

/* How `reply` may answer a request of type `request`: 1 as its response, 2 as one of its
 * rejects, 0 not at all (then err says why: FBE_ERR_TYPE). */
FBE_API int fbe_reply_kind(const fbe_struct *request, const fbe_struct *reply, fbe_error *err);

/* Makes `reply` an answer to `request`: checks fbe_reply_kind, then sets reply's `id`
 * to request's (its field of the same name and type; FBE_ERR_ARGUMENT when either has
 * none). The reply is then sent as any message. */
FBE_API fbe_status fbe_reply_prepare(const fbe_msg *request, fbe_msg *reply, fbe_error *err);

#ifdef __cplusplus
}
#endif
#endif
