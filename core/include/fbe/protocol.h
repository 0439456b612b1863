/* The sender/receiver protocol (FORMAT.md 9): messages framed back to back on any
 * byte stream, dispatched by type id. A package's protocol is its `message` types
 * plus those of the packages it imports (recursively), so a `protoex` receiver also
 * receives `proto` messages. */
#ifndef FBE_PROTOCOL_H
#define FBE_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>
#include "fbe/export.h"
#include "fbe/error.h"
#include "fbe/codec.h"
#include "fbe/message.h"
#include "fbe/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fbe_sender fbe_sender;
typedef struct fbe_receiver fbe_receiver;

/* Where a sender's bytes go. Returns 0 when it took all `size` bytes, non-zero to
 * make fbe_sender_send fail with FBE_ERR_IO. */
typedef int (*fbe_sink_fn)(void *ctx, const uint8_t *data, size_t size);

/* Called once per received message, in stream order. `msg` and everything in it are
 * valid only during the call (copy what you keep). Return 0 to go on, non-zero to
 * stop: fbe_receiver_feed then returns FBE_ERR_IO ("stopped by the handler") and the
 * bytes after that message stay buffered; the next feed (even of 0 bytes) goes on. */
typedef int (*fbe_handler_fn)(void *ctx, const fbe_msg *msg);

/* New sender for the protocol of `package` ("proto"; NULL = the schema's root
 * package), writing every message as one model of `model` to sink. Keeps a
 * reference to the schema. NULL when out of memory or the package is unknown. */
FBE_API fbe_sender *fbe_sender_new(fbe_schema *schema, const char *package, fbe_model model,
                                   fbe_sink_fn sink, void *sink_ctx);
FBE_API void fbe_sender_free(fbe_sender *sender);

/* Encodes msg (a message type of the protocol, else FBE_ERR_TYPE) and hands the
 * bytes to the sink in one call. */
FBE_API fbe_status fbe_sender_send(fbe_sender *sender, const fbe_msg *msg, fbe_error *err);

/* Bytes handed to the sink so far. */
FBE_API uint64_t fbe_sender_bytes(const fbe_sender *sender);

/* New receiver for the protocol of `package` (NULL = root). Keeps a reference to
 * the schema. limits may be NULL (defaults); limits->max_model_size also bounds the
 * size of one frame. NULL when out of memory or the package is unknown. */
FBE_API fbe_receiver *fbe_receiver_new(fbe_schema *schema, const char *package, fbe_model model,
                                       const fbe_limits *limits, fbe_handler_fn handler,
                                       void *handler_ctx);
FBE_API void fbe_receiver_free(fbe_receiver *receiver);

/* Takes the next `size` bytes of the stream, in chunks of any size (one byte at a
 * time works). Every complete frame is verified, decoded and handed to the handler;
 * a frame whose type id the protocol does not know is skipped (counted in
 * fbe_receiver_skipped). A frame that cannot be valid (size under the minimum of the
 * model, over the size limit, failing verify or decode) is an error: the messages
 * before it were delivered, the receiver is reset (buffered bytes and the rest of
 * this chunk are dropped, since frame boundaries are lost) and err names the stream
 * offset of the bad frame. */
FBE_API fbe_status fbe_receiver_feed(fbe_receiver *receiver, const uint8_t *data, size_t size,
                                     fbe_error *err);

/* Drops any partial frame; the next byte fed starts a new frame. */
FBE_API void fbe_receiver_reset(fbe_receiver *receiver);

/* Bytes of an incomplete frame held for the next feed. */
FBE_API size_t fbe_receiver_pending(const fbe_receiver *receiver);

/* Messages delivered / frames skipped because their type id is unknown. */
FBE_API uint64_t fbe_receiver_received(const fbe_receiver *receiver);
FBE_API uint64_t fbe_receiver_skipped(const fbe_receiver *receiver);

/* ---- logging (FORMAT.md 9.5): every message sent or received reported as its text
 * form (fbe/text.h), the same in every language. `msg` and `text` (not NUL-terminated)
 * are valid during the call. A sender reports a message once it is encoded, before the
 * sink takes it; a receiver once it is decoded, before its handler. fn NULL: off. */
typedef void (*fbe_log_fn)(void *ctx, const fbe_msg *msg, const char *text, size_t size);
FBE_API void fbe_sender_set_log(fbe_sender *sender, fbe_log_fn fn, void *ctx);
FBE_API void fbe_receiver_set_log(fbe_receiver *receiver, fbe_log_fn fn, void *ctx);

/* ---- proxy (FORMAT.md 9.5): a receiver that hands every frame over undecoded, for a
 * router or gateway that forwards, filters or logs messages without decoding them.
 * Called once per frame in stream order with its type id, the message type when the
 * protocol knows the id (else NULL: unknown frames are handed over too, so a proxy
 * forwards a stream byte for byte), and the whole frame (its size field included),
 * valid during the call. Return 0 to go on, non-zero to stop, as fbe_handler_fn. */
typedef int (*fbe_frame_fn)(void *ctx, uint32_t type_id, const fbe_struct *type, const uint8_t *frame,
                            size_t size);

/* A receiver in proxy mode: frames are reassembled and checked as fbe_receiver_feed
 * checks them (size, limit, root pointer); with verify non-zero, a frame of a known
 * type is also verified (fbe_verify, limits) and a bad one is the same error as a
 * receiver's. Fed, reset and freed as any receiver (fbe_receiver_feed ...); no log. */
FBE_API fbe_receiver *fbe_proxy_new(fbe_schema *schema, const char *package, fbe_model model,
                                    const fbe_limits *limits, int verify, fbe_frame_fn handler,
                                    void *handler_ctx);

/* The message type of a protocol with this type id (the package's own first, then its
 * imports in import order), or NULL. */
FBE_API const fbe_struct *fbe_protocol_find(const fbe_schema *schema, const char *package,
                                            uint32_t type_id);

#ifdef __cplusplus
}
#endif
#endif
