/* Sender/receiver protocol (FORMAT.md 9): frames are whole models back to back; the
 * receiver reassembles them from chunks of any size and dispatches by type id. */
#include <stdlib.h>
#include <string.h>
#include "fbe/protocol.h"
#include "fbe/text.h"
#include "fbe/internal/endian.h"
#include "fbe/internal/error.h"
#include "fbe/internal/value.h"
#include "fbe/internal/cost.h"
#include "fbe/internal/memory.h"
#include "protocol/protocol_index.h"

const fbe_struct *fbe_protocol_find(const fbe_schema *schema, const char *package,
                                    uint32_t type_id) {
  fbei_protocol_index p;
  if (fbei_protocol_index_init(&p, schema, package)) return NULL;
  const fbe_struct *st = fbei_protocol_index_find(&p, type_id);
  fbei_protocol_index_free(&p);
  return st;
}

/* ------------------------------------------------------------ sender */

struct fbe_sender {
  fbe_schema *schema;
  fbei_protocol_index proto;
  fbe_model model;
  fbe_sink_fn sink;
  void *sink_ctx;
  fbe_buffer buf; /* one message at a time, reused */
  uint64_t bytes;
  fbe_log_fn log;
  void *log_ctx;
  fbe_buffer text; /* the logged text form, reused */
};

/* The text form of msg to a log hook (fbe_log_fn), through a reused buffer. */
static void log_message(fbe_log_fn log, void *ctx, fbe_buffer *text, const fbe_msg *msg) {
  fbe_buffer_reset(text);
  fbe_msg_to_text(msg, text, NULL); /* (never fails on a message: an invalid value prints as such) */
  log(ctx, msg, (const char *)text->data, text->size);
}

fbe_sender *fbe_sender_new(fbe_schema *schema, const char *package, fbe_model model,
                           fbe_sink_fn sink, void *sink_ctx) {
  if (!sink) return NULL;
  fbe_sender *s = fbei_mem_calloc(1, sizeof *s);
  if (!s) return NULL;
  if (fbei_protocol_index_init(&s->proto, schema, package)) {
    fbei_mem_free(s);
    return NULL;
  }
  s->schema = fbe_schema_retain(schema);
  s->model = model;
  s->sink = sink;
  s->sink_ctx = sink_ctx;
  return s;
}

void fbe_sender_free(fbe_sender *s) {
  if (!s) return;
  fbe_buffer_free(&s->buf);
  fbe_buffer_free(&s->text);
  fbei_protocol_index_free(&s->proto);
  fbe_schema_release(s->schema);
  fbei_mem_free(s);
}

uint64_t fbe_sender_bytes(const fbe_sender *s) { return s ? s->bytes : 0; }

void fbe_sender_set_log(fbe_sender *s, fbe_log_fn fn, void *ctx) {
  if (!s) return;
  s->log = fn;
  s->log_ctx = ctx;
}

fbe_status fbe_sender_send(fbe_sender *s, const fbe_msg *msg, fbe_error *err) {
  if (!s || !msg) return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "no sender or message");
  const fbe_struct *st = fbe_msg_type(msg);
  if (!fbei_protocol_index_has(&s->proto, st))
    return fbei_error_set(err, FBE_ERR_TYPE, FBE_NO_OFFSET,
                         "%s is not a message of the protocol of package %s", st->full_name,
                         s->proto.pkg->name);
  fbe_buffer_reset(&s->buf);
  fbe_status rc = fbe_encode(msg, s->model, &s->buf, err);
  if (rc) return rc;
  if (s->log) log_message(s->log, s->log_ctx, &s->text, msg);
  if (s->sink(s->sink_ctx, s->buf.data, s->buf.size))
    return fbei_error_set(err, FBE_ERR_IO, FBE_NO_OFFSET, "the sink refused %zu bytes", s->buf.size);
  s->bytes += s->buf.size;
  return FBE_OK;
}

/* ------------------------------------------------------------ receiver */

struct fbe_receiver {
  fbe_schema *schema;
  fbei_protocol_index proto;
  fbe_model model;
  fbe_limits limits;
  fbe_handler_fn handler;  /* decoded messages; NULL in proxy mode */
  fbe_frame_fn frames;     /* proxy mode: undecoded frames */
  int verify_frames;       /* proxy mode: verify frames of known types */
  void *handler_ctx;
  fbe_log_fn log;
  void *log_ctx;
  fbe_buffer text;         /* the logged text form, reused */
  fbe_buffer pending; /* the start of a frame not yet complete */
  fbe_buffer held;    /* bytes not looked at yet: the rest of a chunk when the handler
                         stopped the feed (the next feed reads them first) */
  fbe_arena *arena;   /* the message being delivered; reset for each */
  uint64_t offset;    /* stream offset of the frame being read */
  uint64_t fed;       /* bytes fed so far */
  uint64_t received, skipped;
};

static fbe_receiver *receiver_new(fbe_schema *schema, const char *package, fbe_model model,
                                  const fbe_limits *limits, fbe_handler_fn handler, fbe_frame_fn frames,
                                  int verify_frames, void *handler_ctx) {
  if (!handler == !frames) return NULL;
  fbe_receiver *r = fbei_mem_calloc(1, sizeof *r);
  if (!r) return NULL;
  if (fbei_protocol_index_init(&r->proto, schema, package) || !(r->arena = fbe_arena_new())) {
    fbei_protocol_index_free(&r->proto);
    fbei_mem_free(r);
    return NULL;
  }
  r->schema = fbe_schema_retain(schema);
  r->model = model;
  r->limits = limits ? *limits : fbe_limits_default();
  r->handler = handler;
  r->frames = frames;
  r->verify_frames = verify_frames;
  r->handler_ctx = handler_ctx;
  return r;
}

fbe_receiver *fbe_receiver_new(fbe_schema *schema, const char *package, fbe_model model,
                               const fbe_limits *limits, fbe_handler_fn handler, void *handler_ctx) {
  return receiver_new(schema, package, model, limits, handler, NULL, 0, handler_ctx);
}

fbe_receiver *fbe_proxy_new(fbe_schema *schema, const char *package, fbe_model model,
                            const fbe_limits *limits, int verify, fbe_frame_fn handler, void *handler_ctx) {
  return receiver_new(schema, package, model, limits, NULL, handler, verify, handler_ctx);
}

void fbe_receiver_set_log(fbe_receiver *r, fbe_log_fn fn, void *ctx) {
  if (!r) return;
  r->log = fn;
  r->log_ctx = ctx;
}

void fbe_receiver_free(fbe_receiver *r) {
  if (!r) return;
  fbe_buffer_free(&r->pending);
  fbe_buffer_free(&r->held);
  fbe_buffer_free(&r->text);
  fbe_arena_free(r->arena);
  fbei_protocol_index_free(&r->proto);
  fbe_schema_release(r->schema);
  fbei_mem_free(r);
}

void fbe_receiver_reset(fbe_receiver *r) {
  if (!r) return;
  r->offset = r->fed;
  fbe_buffer_reset(&r->pending);
  fbe_buffer_reset(&r->held);
}

size_t fbe_receiver_pending(const fbe_receiver *r) {
  return r ? r->pending.size + r->held.size : 0;
}
uint64_t fbe_receiver_received(const fbe_receiver *r) { return r ? r->received : 0; }
uint64_t fbe_receiver_skipped(const fbe_receiver *r) { return r ? r->skipped : 0; }

static uint32_t min_frame(fbe_model model) { return model == FBE_MODEL_FINAL ? 8 : 16; }

/* The frame size at the start of a frame, or an error (err set) when no valid frame
 * can have it. */
static fbe_status check_size(fbe_receiver *r, uint32_t size, fbe_error *err) {
  if (size < min_frame(r->model))
    return fbei_error_set(err, FBE_ERR_MALFORMED, (size_t)r->offset,
                         "frame size %u is under the %u bytes of the smallest message", size,
                         min_frame(r->model));
  if (size > fbei_limits_size(&r->limits))
    return fbei_error_set(err, FBE_ERR_LIMIT, (size_t)r->offset,
                         "frame size %u exceeds the limit of %llu bytes (max_model_size)", size,
                         (unsigned long long)fbei_limits_size(&r->limits));
  return FBE_OK;
}

/* Handles one whole frame. Returns FBE_OK (delivered or skipped), FBE_ERR_IO when the
 * handler asked to stop, or the error of a bad frame (err offsets are stream offsets). */
static fbe_status deliver(fbe_receiver *r, const uint8_t *frame, uint32_t size, fbe_error *err) {
  uint64_t type_at = 4;
  if (r->model == FBE_MODEL_STANDARD) {
    uint32_t root = fbe_load32(frame + 4);
    if (root < 8 || (uint64_t)root + 8 > size)
      return fbei_error_set(err, FBE_ERR_MALFORMED, (size_t)(r->offset + 4),
                           "frame's root pointer %u leads outside the frame", root);
    type_at = (uint64_t)root + 4;
  }
  uint32_t type_id = fbe_load32(frame + type_at);
  const fbe_struct *st = fbei_protocol_index_find(&r->proto, type_id);
  if (r->frames) { /* proxy: the frame as it is (verified when asked and its type is known) */
    fbe_status rc = st && r->verify_frames ? fbe_verify(st, r->model, frame, size, &r->limits, NULL, err) : FBE_OK;
    if (rc) {
      if (err && err->offset != FBE_NO_OFFSET) err->offset += (size_t)r->offset;
      return rc;
    }
    if (st) r->received++;
    else r->skipped++;
    if (r->frames(r->handler_ctx, type_id, st, frame, size))
      return fbei_error_set(err, FBE_ERR_IO, FBE_NO_OFFSET, "stopped by the handler");
    return FBE_OK;
  }
  if (!st) { /* not for this protocol (FORMAT.md 9.3) */
    r->skipped++;
    return FBE_OK;
  }
  fbe_msg *msg = NULL;
  fbe_arena_reset(r->arena);
  fbe_status rc = fbe_verify(st, r->model, frame, size, &r->limits, NULL, err);
  /* verified just above: the trusted decode does not verify it again */
  if (!rc) rc = fbe_decode_trusted(st, r->model, frame, size, r->arena, &r->limits, &msg, NULL, err);
  if (rc) {
    if (err && err->offset != FBE_NO_OFFSET) err->offset += (size_t)r->offset;
    return rc;
  }
  r->received++;
  if (r->log) log_message(r->log, r->log_ctx, &r->text, msg);
  if (r->handler(r->handler_ctx, msg))
    return fbei_error_set(err, FBE_ERR_IO, FBE_NO_OFFSET, "stopped by the handler");
  return FBE_OK;
}

/* Reads one chunk of new bytes (the loop below); see fbe_receiver_feed. */
static fbe_status feed_chunk(fbe_receiver *r, const uint8_t *data, size_t size, fbe_error *err) {
  fbe_status rc = FBE_OK;
  fbe_buffer *p = &r->pending;
  for (;;) {
    if (p->size) {
      /* Reassembling a frame: first its 4-byte size, then the rest. */
      size_t want = p->size >= 4 ? fbe_load32(p->data) : 4;
      if (p->size < want) {
        if (!size) break;
        size_t take = want - p->size < size ? want - p->size : size;
        if (fbe_buffer_append(p, data, take)) {
          rc = fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
          break;
        }
        data += take;
        size -= take;
        if (want == 4 && p->size == 4 && (rc = check_size(r, fbe_load32(p->data), err))) break;
        continue;
      }
      rc = deliver(r, p->data, (uint32_t)want, err);
      if (rc != FBE_OK && rc != FBE_ERR_IO) break;
      r->offset += want;
      fbe_buffer_reset(p);
      if (rc) break;
      continue;
    }
    if (!size) break;
    if (size < 4) { /* not even the size field: keep it */
      if (fbe_buffer_append(p, data, size)) rc = fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
      size = 0;
      break;
    }
    /* A frame starts here: deliver it straight from the chunk when it is whole. */
    uint32_t frame = fbe_load32(data);
    if ((rc = check_size(r, frame, err))) break;
    if (size < frame) {
      if (fbe_buffer_append(p, data, size)) rc = fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
      size = 0;
      break;
    }
    rc = deliver(r, data, frame, err);
    if (rc != FBE_OK && rc != FBE_ERR_IO) break;
    r->offset += frame;
    data += frame;
    size -= frame;
    if (rc) break;
  }
  if (rc == FBE_ERR_IO) {
    /* Stopped by the handler: keep the rest of the chunk, unread, for the next feed. */
    if (size && fbe_buffer_append(&r->held, data, size))
      return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  } else if (rc != FBE_OK) {
    /* A bad frame: its boundaries and everything after it in this chunk are lost. */
    fbe_receiver_reset(r);
  }
  return rc;
}

fbe_status fbe_receiver_feed(fbe_receiver *r, const uint8_t *data, size_t size, fbe_error *err) {
  fbe_error local;
  if (!err) err = &local;
  if (!r || (!data && size))
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "no receiver or data");
  r->fed += size;
  if (!r->held.size) return feed_chunk(r, data, size, err);
  /* Bytes a stop left come first, the new ones after them: one chunk, read as any other. */
  if (size && fbe_buffer_append(&r->held, data, size))
    return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  fbe_buffer chunk = r->held;
  fbe_buffer_init(&r->held);
  fbe_status rc = feed_chunk(r, chunk.data, chunk.size, err);
  fbe_buffer_free(&chunk);
  return rc;
}
