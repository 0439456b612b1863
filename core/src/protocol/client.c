/* The client (fbe/client.h; FORMAT.md 9.5): a sender and a receiver joined, with the
 * table of pending requests. A request is found by the value of its `id` field: a
 * chained hash of it (buckets of entry indexes), and every entry is also on a list in
 * the order requests were made (oldest first: the watchdog's and reset's order). */
#include <stdlib.h>
#include <string.h>
#include "fbe/client.h"
#include "fbe/text.h"
#include "fbe/internal/error.h"
#include "fbe/internal/memory.h"
#include "fbe/internal/value.h"

#define NONE UINT32_MAX

/* The value of a message's `id` field as bytes: a fixed-size scalar's in-memory slot,
 * a string's or bytes' contents. Two ids are equal when their types are alike and their
 * bytes are. */
typedef struct id_value {
  const fbe_type *type;
  const uint8_t *data;
  size_t size;
} id_value;

typedef struct entry {
  uint64_t token, started, deadline; /* deadline 0: no timeout */
  uint64_t hash;
  const fbe_struct *request;
  const fbe_type *id_type;
  size_t id_size;
  uint8_t *id_large; /* the id's bytes when over 16 (else in id_small: entries move as the table grows) */
  uint8_t id_small[16];
  uint32_t bucket_next;  /* the next entry of its bucket (NONE: the last) */
  uint32_t older, newer; /* the age list */
  uint32_t generation;   /* how many times this slot was used: a (slot, generation) names one request */
  int live;              /* 0: on the free list (bucket_next: the next free) */
} entry;

struct fbe_client {
  fbe_schema *schema;
  fbe_sender *sender;
  fbe_receiver *receiver;
  fbe_client_options opt;
  entry *entries;
  uint32_t capacity, count, free_list;
  uint32_t *buckets; /* a power of two, at least twice the capacity */
  uint32_t nbuckets;
  uint32_t oldest, newest;
  uint64_t last_time; /* of the last request; any at first */
  int timed;          /* a request was made: last_time is one */
  int feeding;       /* inside fbe_client_feed: its callbacks may not feed again */
  int reset_in_feed; /* fbe_client_reset from a callback of the feed: the receiver is reset when it returns */
  fbe_buffer text;   /* a reject's text form */
};

/* A read-only ref of a message (fbe_msg_ref takes the message as writable). */
static fbe_ref ref_of(const fbe_msg *m) { return fbe_msg_ref((fbe_msg *)(uintptr_t)m); }

static uint64_t hash_id(const id_value *v) {
  uint64_t h = 1469598103934665603u ^ (uint64_t)v->type->wire;
  for (size_t i = 0; i < v->size; i++) h = (h ^ v->data[i]) * 1099511628211u;
  return h ^ (h >> 29);
}

/* The id of message m: 0, -1 when its type has no field `id`, -2 when that field's type
 * is neither a fixed-size scalar nor a string or bytes. */
static int id_of(const fbe_msg *m, id_value *out) {
  const fbe_field *f = fbe_struct_field(fbe_msg_type(m), "id");
  if (!f) return -1;
  const fbe_type *t = fbe_field_type(f);
  fbe_ref r = fbe_ref_field_at(ref_of(m), fbe_field_index(f));
  out->type = t;
  if (t->wire < FBE_KIND_STRING) { /* bool .. uuid: the slot, as it is in memory */
    out->data = r.slot;
    out->size = t->mem_size;
    return 0;
  }
  if (t->wire == FBE_KIND_STRING || t->wire == FBE_KIND_BYTES) {
    const uint8_t *p = NULL;
    size_t n = 0;
    fbe_ref_get_bytes(r, &p, &n);
    out->data = n ? p : (const uint8_t *)"";
    out->size = n;
    return 0;
  }
  return -2;
}

static const uint8_t *entry_id(const entry *e) { return e->id_large ? e->id_large : e->id_small; }

static int same_id(const entry *e, const id_value *v, uint64_t hash) {
  return e->hash == hash && e->id_size == v->size && fbei_type_same(e->id_type, v->type) &&
         (!v->size || memcmp(entry_id(e), v->data, v->size) == 0);
}

/* The live entry whose id equals v, or NONE. */
static uint32_t find(const fbe_client *c, const id_value *v, uint64_t hash) {
  for (uint32_t i = c->buckets[hash & (c->nbuckets - 1)]; i != NONE; i = c->entries[i].bucket_next)
    if (same_id(&c->entries[i], v, hash)) return i;
  return NONE;
}

/* Room for one more entry: the arrays doubled and the buckets rebuilt. -1 when out of memory. */
static int grow(fbe_client *c) {
  uint32_t cap = c->capacity ? c->capacity * 2 : 16;
  entry *e = fbei_mem_realloc(c->entries, (size_t)cap * sizeof *e);
  if (!e) return -1;
  c->entries = e;
  uint32_t *b = fbei_mem_realloc(c->buckets, (size_t)cap * 2 * sizeof *b);
  if (!b) return -1;
  c->buckets = b;
  c->nbuckets = cap * 2;
  for (uint32_t i = 0; i < c->nbuckets; i++) b[i] = NONE;
  for (uint32_t i = 0; i < c->capacity; i++) { /* the live ones back into buckets */
    if (!e[i].live) continue;
    uint32_t *head = &b[e[i].hash & (c->nbuckets - 1)];
    e[i].bucket_next = *head;
    *head = i;
  }
  for (uint32_t i = cap; i-- > c->capacity;) { /* the new slots onto the free list */
    e[i].live = 0;
    e[i].generation = 0;
    e[i].bucket_next = c->free_list;
    c->free_list = i;
  }
  c->capacity = cap;
  return 0;
}

/* Takes entry i off the table (its bucket, the age list) and frees its id. */
static void unlink_entry(fbe_client *c, uint32_t i) {
  entry *e = &c->entries[i];
  uint32_t *p = &c->buckets[e->hash & (c->nbuckets - 1)];
  while (*p != i) p = &c->entries[*p].bucket_next;
  *p = e->bucket_next;
  if (e->older != NONE) c->entries[e->older].newer = e->newer;
  else c->oldest = e->newer;
  if (e->newer != NONE) c->entries[e->newer].older = e->older;
  else c->newest = e->older;
  fbei_mem_free(e->id_large);
  e->id_large = NULL;
  e->live = 0;
  e->bucket_next = c->free_list;
  c->free_list = i;
  c->count--;
}

/* Ends request i: off the table first (the callback may make requests), then done. */
static void end_request(fbe_client *c, uint32_t i, fbe_request_end how, const fbe_msg *msg, const fbe_error *err) {
  uint64_t token = c->entries[i].token;
  unlink_entry(c, i);
  c->opt.done(c->opt.ctx, token, how, msg, err);
}

/* ------------------------------------------------------------ receiving */

/* Whether `type` is one of a request type's rejects. */
static int rejects(const fbe_struct *request, const fbe_struct *type) {
  for (uint32_t k = 0; k < request->nrejects; k++)
    if (request->rejects[k] == type) return 1;
  return 0;
}

/* Every received message: a pending request's response, its reject, or a notification
 * (FORMAT.md 9.5, in that order). */
static int on_message(void *ctx, const fbe_msg *msg) {
  fbe_client *c = ctx;
  const fbe_struct *type = fbe_msg_type(msg);
  id_value id;
  uint32_t i = id_of(msg, &id) == 0 && c->count ? find(c, &id, hash_id(&id)) : NONE;
  if (i != NONE) {
    const fbe_struct *request = c->entries[i].request;
    if (request->response == type) {
      end_request(c, i, FBE_REQUEST_RESPONDED, msg, NULL);
      return c->reset_in_feed; /* (a reset in the callback stops the feed here) */
    }
    if (rejects(request, type)) {
      fbe_error err;
      fbe_buffer_reset(&c->text);
      fbe_msg_to_text(msg, &c->text, NULL);
      fbei_error_set(&err, FBE_ERR_REJECTED, FBE_NO_OFFSET, "%.*s", (int)c->text.size, (const char *)c->text.data);
      end_request(c, i, FBE_REQUEST_REJECTED, msg, &err);
      return c->reset_in_feed; /* (a reset in the callback stops the feed here) */
    }
  }
  int stop = c->opt.notify ? c->opt.notify(c->opt.ctx, msg) : 0;
  return stop || c->reset_in_feed;
}

/* ------------------------------------------------------------ the client */

fbe_client *fbe_client_new(fbe_schema *schema, const char *package, const fbe_client_options *options,
                           fbe_error *err) {
  if (!schema || !options || !options->sink || !options->done) {
    fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "a client needs a schema, a sink and a done callback");
    return NULL;
  }
  fbe_client *c = fbei_mem_calloc(1, sizeof *c);
  if (!c) {
    fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
    return NULL;
  }
  c->opt = *options;
  if (!c->opt.max_pending) c->opt.max_pending = FBE_DEFAULT_MAX_PENDING;
  c->free_list = c->oldest = c->newest = NONE;
  c->sender = fbe_sender_new(schema, package, options->model, options->sink, options->sink_ctx);
  c->receiver = fbe_receiver_new(schema, package, options->model, options->limits, on_message, c);
  if (!c->sender || !c->receiver || grow(c)) {
    int known = !package;
    for (size_t k = 0; k < fbe_schema_package_count(schema) && !known; k++)
      known = strcmp(fbe_package_name(fbe_schema_package_at(schema, k)), package) == 0;
    fbei_error_set(err, known ? FBE_ERR_NOMEM : FBE_ERR_NOT_FOUND, FBE_NO_OFFSET,
                   known ? "out of memory" : "no package '%s' in the schema", package ? package : "");
    fbe_client_free(c);
    return NULL;
  }
  c->schema = fbe_schema_retain(schema);
  return c;
}

void fbe_client_free(fbe_client *c) {
  if (!c) return;
  for (uint32_t i = 0; i < c->capacity; i++)
    if (c->entries[i].live) fbei_mem_free(c->entries[i].id_large);
  fbei_mem_free(c->entries);
  fbei_mem_free(c->buckets);
  fbe_buffer_free(&c->text);
  fbe_sender_free(c->sender);
  fbe_receiver_free(c->receiver);
  fbe_schema_release(c->schema);
  fbei_mem_free(c);
}

fbe_status fbe_client_send(fbe_client *c, const fbe_msg *msg, fbe_error *err) {
  if (!c) return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "no client");
  return fbe_sender_send(c->sender, msg, err);
}

fbe_status fbe_client_request(fbe_client *c, const fbe_msg *request, uint64_t timeout_ns, uint64_t now,
                              uint64_t token, fbe_error *err) {
  if (!c || !request) return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "no client or request");
  const fbe_struct *type = fbe_msg_type(request);
  if (!type->is_request)
    return fbei_error_set(err, FBE_ERR_TYPE, FBE_NO_OFFSET, "%s is not a request (no [request] in the schema)",
                          type->full_name);
  if (!type->response) { /* nothing to wait for: sent is done */
    fbe_status rc = fbe_sender_send(c->sender, request, err);
    if (rc == FBE_OK) c->opt.done(c->opt.ctx, token, FBE_REQUEST_SENT, NULL, NULL);
    return rc;
  }
  id_value id;
  int got = id_of(request, &id);
  if (got)
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET,
                          got == -1 ? "request %s has no field 'id' to match its response with"
                                    : "the id of request %s must be a scalar, a string or bytes",
                          type->full_name);
  uint64_t hash = hash_id(&id);
  if (find(c, &id, hash) != NONE) {
    fbe_buffer_reset(&c->text);
    fbe_text_write(fbe_ref_field_at(ref_of(request), fbe_field_index(fbe_struct_field(type, "id"))), NULL,
                   &c->text, NULL);
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "a request with id %.*s is already pending",
                          (int)(c->text.size > 128 ? 128 : c->text.size), (const char *)c->text.data);
  }
  if (c->count >= c->opt.max_pending)
    return fbei_error_set(err, FBE_ERR_LIMIT, FBE_NO_OFFSET, "%zu requests are pending, the limit (max_pending)",
                          (size_t)c->count);
  if (c->free_list == NONE && grow(c)) return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  uint32_t i = c->free_list;
  entry *e = &c->entries[i];
  uint8_t *large = NULL;
  if (id.size > sizeof e->id_small && !(large = fbei_mem_alloc(id.size)))
    return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  c->free_list = e->bucket_next;
  uint64_t started = !c->timed || now > c->last_time ? now : c->last_time + 1; /* strictly increasing */
  c->last_time = started;
  c->timed = 1;
  uint32_t generation = e->generation + 1;
  uint64_t deadline = !timeout_ns ? 0 : timeout_ns > UINT64_MAX - started ? UINT64_MAX : started + timeout_ns;
  *e = (entry){token, started, deadline, hash, type, id.type, id.size, large, {0},
               NONE, c->newest, NONE, generation, 1};
  if (id.size) memcpy(large ? large : e->id_small, id.data, id.size);
  uint32_t *head = &c->buckets[hash & (c->nbuckets - 1)];
  e->bucket_next = *head;
  *head = i;
  if (c->newest != NONE) c->entries[c->newest].newer = i;
  else c->oldest = i;
  c->newest = i;
  c->count++;
  /* registered before it is sent: a response may come back inside the send */
  fbe_status rc = fbe_sender_send(c->sender, request, err);
  if (rc && c->entries[i].live && c->entries[i].generation == generation) unlink_entry(c, i);
  return rc;
}

fbe_status fbe_client_feed(fbe_client *c, const uint8_t *data, size_t size, fbe_error *err) {
  if (!c) return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "no client");
  if (c->feeding)
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "fbe_client_feed called from one of its callbacks");
  c->feeding = 1;
  fbe_status rc = fbe_receiver_feed(c->receiver, data, size, err);
  c->feeding = 0;
  if (c->reset_in_feed) { /* the rest of what was fed is dropped with the receiver's state */
    c->reset_in_feed = 0;
    fbe_receiver_reset(c->receiver);
    return FBE_OK;
  }
  return rc;
}

/* The (slot, generation) of every pending request `pick` selects, oldest first, ended
 * one by one as `how`: a callback may end or make others meanwhile, so each is looked
 * at again when its turn comes. How many ended. */
static size_t end_all(fbe_client *c, uint64_t now, int timeouts_only, fbe_request_end how, const fbe_error *err) {
  size_t n = 0;
  for (uint32_t i = c->oldest; i != NONE; i = c->entries[i].newer)
    n += !timeouts_only || (c->entries[i].deadline && c->entries[i].deadline <= now);
  if (!n) return 0;
  uint64_t *picked = fbei_mem_alloc(n * sizeof *picked);
  if (!picked) return 0; /* (out of memory: the next call tries again) */
  size_t k = 0;
  for (uint32_t i = c->oldest; i != NONE && k < n; i = c->entries[i].newer)
    if (!timeouts_only || (c->entries[i].deadline && c->entries[i].deadline <= now))
      picked[k++] = (uint64_t)c->entries[i].generation << 32 | i;
  size_t ended = 0;
  for (size_t j = 0; j < k; j++) {
    uint32_t i = (uint32_t)picked[j], generation = (uint32_t)(picked[j] >> 32);
    if (i >= c->capacity || !c->entries[i].live || c->entries[i].generation != generation) continue;
    end_request(c, i, how, NULL, err);
    ended++;
  }
  fbei_mem_free(picked);
  return ended;
}

size_t fbe_client_watchdog(fbe_client *c, uint64_t now) {
  if (!c) return 0;
  fbe_error err;
  fbei_error_set(&err, FBE_ERR_TIMEOUT, FBE_NO_OFFSET, "Timeout!");
  return end_all(c, now, 1, FBE_REQUEST_TIMED_OUT, &err);
}

uint64_t fbe_client_next_deadline(const fbe_client *c) {
  uint64_t next = UINT64_MAX;
  if (c)
    for (uint32_t i = c->oldest; i != NONE; i = c->entries[i].newer)
      if (c->entries[i].deadline && c->entries[i].deadline < next) next = c->entries[i].deadline;
  return next;
}

void fbe_client_reset(fbe_client *c) {
  if (!c) return;
  fbe_error err;
  fbei_error_set(&err, FBE_ERR_RESET, FBE_NO_OFFSET, "Reset client!");
  end_all(c, 0, 0, FBE_REQUEST_RESET, &err);
  if (c->feeding) c->reset_in_feed = 1; /* (a callback of the feed: the receiver is mid-frame) */
  else fbe_receiver_reset(c->receiver);
}

size_t fbe_client_pending(const fbe_client *c) { return c ? c->count : 0; }
fbe_sender *fbe_client_sender(fbe_client *c) { return c ? c->sender : NULL; }
fbe_receiver *fbe_client_receiver(fbe_client *c) { return c ? c->receiver : NULL; }

/* ------------------------------------------------------------ replies */

int fbe_reply_kind(const fbe_struct *request, const fbe_struct *reply, fbe_error *err) {
  if (request && reply && request->is_request) {
    if (request->response == reply) return 1;
    if (rejects(request, reply)) return 2;
  }
  fbei_error_set(err, FBE_ERR_TYPE, FBE_NO_OFFSET, "%s is not the response or a reject of request %s",
                 reply ? reply->full_name : "(none)", request ? request->full_name : "(none)");
  return 0;
}

fbe_status fbe_reply_prepare(const fbe_msg *request, fbe_msg *reply, fbe_error *err) {
  if (!request || !reply) return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "no request or reply");
  if (!fbe_reply_kind(fbe_msg_type(request), fbe_msg_type(reply), err)) return err ? err->code : FBE_ERR_TYPE;
  const fbe_field *from = fbe_struct_field(fbe_msg_type(request), "id");
  const fbe_field *to = fbe_struct_field(fbe_msg_type(reply), "id");
  if (!from || !to || !fbei_type_same(fbe_field_type(from), fbe_field_type(to)))
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "%s and %s have no field 'id' of one type",
                          fbe_msg_type(request)->full_name, fbe_msg_type(reply)->full_name);
  fbe_ref src = fbe_ref_field_at(ref_of(request), fbe_field_index(from));
  fbe_ref dst = fbe_ref_field_at(fbe_msg_ref(reply), fbe_field_index(to));
  return fbei_value_copy(dst.type, src.slot, dst.slot, dst.arena)
             ? FBE_OK
             : fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
}
