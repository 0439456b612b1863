/* libfbe: Fast Binary Encoding with schemas loaded at run time. The whole API. */
#ifndef FBE_FBE_H
#define FBE_FBE_H

#include "fbe/export.h"
#include "fbe/version.h"
#include "fbe/error.h"
#include "fbe/memory.h"
#include "fbe/arena.h"
#include "fbe/buffer.h"
#include "fbe/schema.h"
#include "fbe/loader.h"
#include "fbe/message.h"
#include "fbe/codec.h"
#include "fbe/view.h"
#include "fbe/json.h"
#include "fbe/text.h"
#include "fbe/protocol.h"
#include "fbe/client.h"
#include "fbe/dump.h"
#include "fbe/compat.h"
#include "fbe/field.h"
#include "fbe/generated.h"

#endif
