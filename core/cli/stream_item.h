/* Messages of a stream written as {"schema": PACKAGE, "type": TYPE, "json": VALUE}
 * (the shape of the conformance stream records and of `fbe stream` JSON Lines). */
#ifndef FBE_CLI_STREAM_ITEM_H
#define FBE_CLI_STREAM_ITEM_H

#include "cli.h"
#include "record.h"

/* Builds the message of one item in arena, its JSON read with opts (NULL: the
 * defaults). 0, or -1 with the reason in why. */
int stream_item_build_opts(fbe_schema *schema, span item, fbe_arena *arena, const fbe_json_options *opts,
                           fbe_msg **out, char *why, size_t why_size);
int stream_item_build(fbe_schema *schema, span item, fbe_arena *arena, fbe_msg **out, char *why,
                      size_t why_size);

/* Appends {"schema":...,"type":...,"json":...} for msg to out, its JSON written with
 * opts (NULL: the defaults). */
fbe_status stream_item_write_opts(const fbe_msg *msg, const fbe_json_options *opts, fbe_buffer *out,
                                  fbe_error *err);
fbe_status stream_item_write(const fbe_msg *msg, fbe_buffer *out, fbe_error *err);

#endif
