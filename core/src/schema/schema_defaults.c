/* Field defaults: type-checked against the field type and evaluated (SCHEMA.md 7). */
#include <inttypes.h>
#include <string.h>
#include "fbe/message.h"
#include "fbe/internal/float_text.h"
#include "schema/schema_resolve.h"
#include "fbe/internal/utf8.h"

typedef struct default_job {
  fbei_load *load;
  fbei_pkg_draft *p;
  const fbei_ast_field *af;
  const fbei_ast_default *d;
  fbei_default *out;
} default_job;

static void invalid(const default_job *job) {
  fbei_draft_error(job->load, job->p, job->d->pos, "Invalid default value %s for field %s of type %s",
                 job->d->text, job->af->name, job->af->type.text);
}

static void out_of_range(const default_job *job) {
  fbei_draft_error(job->load, job->p, job->d->pos,
                 "Default value %s is out of range for field %s of type %s", job->d->text,
                 job->af->name, job->af->type.text);
}

static void set_int(const default_job *job, uint64_t pattern) {
  job->out->kind = FBE_DEF_INT;
  job->out->u = pattern;
}

/* Integers, char, wchar and timestamp: INT literals; CHAR literals for char/wchar. */
static void integer_default(const default_job *job, fbe_kind kind) {
  const fbei_ast_default *d = job->d;
  bool neg = false;
  uint64_t mag;
  if (d->kind == FBE_AST_CONST_INT) {
    neg = d->ival.neg;
    mag = d->ival.mag;
  } else if (d->kind == FBE_AST_CONST_CHAR && (kind == FBE_KIND_CHAR || kind == FBE_KIND_WCHAR)) {
    mag = d->ch;
  } else {
    invalid(job);
    return;
  }
  if (fbei_int_fits(kind, neg, mag)) {
    set_int(job, fbei_int_pattern(neg, mag));
  } else {
    out_of_range(job);
  }
}

static bool is_number(const fbei_ast_default *d) {
  return d->kind == FBE_AST_CONST_INT || d->kind == FBE_AST_CONST_FLOAT;
}

/* The text of a number default, in decimal (an INT may be written in hex). */
static const char *number_text(const default_job *job) {
  if (job->d->kind == FBE_AST_CONST_FLOAT) return job->d->literal;
  return fbei_ctx_printf(job->load->ctx, job->load->ctx->work, "%s%" PRIu64,
                         job->d->ival.neg ? "-" : "", job->d->ival.mag);
}

static void float_default(const default_job *job, fbe_kind kind) {
  if (!is_number(job->d)) {
    invalid(job);
    return;
  }
  const char *text = number_text(job);
  double value;
  /* Straight from the text, rounded once to the field's precision, locale-independent. */
  if (fbei_number_parse(text, strlen(text), kind == FBE_KIND_FLOAT, &value) != 0) {
    out_of_range(job);
    return;
  }
  job->out->kind = FBE_DEF_FLOAT;
  job->out->d = value;
}

static void decimal_default(const default_job *job) {
  if (!is_number(job->d)) {
    invalid(job);
    return;
  }
  const char *text = number_text(job);
  fbe_decimal value;
  fbe_status status = fbe_decimal_parse(text, strlen(text), &value);
  if (status == FBE_ERR_RANGE) {
    out_of_range(job);
  } else if (status != FBE_OK) {
    invalid(job);
  } else {
    job->out->kind = FBE_DEF_DECIMAL;
    memcpy(job->out->bytes, value.bytes, 16);
  }
}

static void uuid_default(const default_job *job) {
  const fbei_ast_default *d = job->d;
  switch (d->kind) {
    case FBE_AST_CONST_UUID0: job->out->kind = FBE_DEF_UUID; return; /* bytes stay zero */
    case FBE_AST_CONST_UUID1: job->out->kind = FBE_DEF_UUID1; return;
    case FBE_AST_CONST_UUID4: job->out->kind = FBE_DEF_UUID4; return;
    case FBE_AST_CONST_STRING: {
      fbe_uuid value;
      if (fbe_uuid_parse(d->str, d->len, &value) != FBE_OK) {
        fbei_draft_error(job->load, job->p, d->pos, "Invalid UUID text %s", d->text);
        return;
      }
      job->out->kind = FBE_DEF_UUID;
      memcpy(job->out->bytes, value.bytes, 16);
      return;
    }
    default: invalid(job);
  }
}

/* `Type.value` or `pkg.Type.value` naming a value of enm. */
static bool enum_value(const default_job *job, const fbei_ast_name *ref, const fbe_enum *enm,
                       uint64_t *out) {
  if (ref->nparts < 2) {
    invalid(job); /* an unqualified value is not allowed */
    return false;
  }
  fbei_ast_name type_name = *ref;
  type_name.nparts--;
  type_name.text = fbei_ctx_strndup(job->load->ctx, job->load->ctx->work, ref->text,
                                    (size_t)(strrchr(ref->text, '.') - ref->text));
  fbei_symbol sym;
  if (!fbei_resolve_type_name(job->load, job->p, &type_name, &sym)) return false;
  if (sym.enm != enm) {
    invalid(job);
    return false;
  }
  const fbei_name_entry *value = fbei_names_find(sym.pkg->value_names[sym.enum_index], enm->nvalues,
                                               ref->parts[ref->nparts - 1]);
  if (value) {
    *out = enm->values[value->index].value;
    return true;
  }
  fbei_draft_error(job->load, job->p, ref->pos, "Unknown %s value %s",
                 enm->is_flags ? "flags" : "enum", ref->text);
  return false;
}

static void enum_default(const default_job *job, const fbe_enum *enm) {
  const fbei_ast_default *d = job->d;
  if (d->kind != FBE_AST_CONST_NAME) {
    invalid(job);
    return;
  }
  uint64_t value = 0, bits;
  bool ok = enum_value(job, &d->name, enm, &value);
  for (uint32_t i = 0; ok && i < d->nmore; i++) { /* flags: A | B | C */
    ok = enum_value(job, &d->more[i], enm, &bits);
    value |= bits;
  }
  if (ok) set_int(job, value);
}

static bool is_min_max(const fbei_ast_default *d, bool *max) {
  if (d->kind != FBE_AST_CONST_NAME || d->name.nparts != 1 || d->nmore) return false;
  *max = strcmp(d->name.parts[0], "max") == 0;
  return *max || strcmp(d->name.parts[0], "min") == 0;
}

void fbei_resolve_default(fbei_load *load, fbei_pkg_draft *p, const fbei_ast_field *af,
                         const fbe_type *type, fbei_default *out) {
  const default_job job = {load, p, af, &af->def, out};
  const fbei_ast_default *d = &af->def;
  bool optional = type->kind == FBE_KIND_OPTIONAL, max;
  const fbe_type *t = optional ? type->elem : type;
  if (d->kind == FBE_AST_CONST_NULL && !d->nmore) {
    if (optional) {
      out->kind = FBE_DEF_NULL;
    } else {
      fbei_draft_error(load, p, d->pos, "Null default for non-optional field %s of type %s",
                     af->name, af->type.text);
    }
    return;
  }
  if (is_min_max(d, &max)) {
    if (fbei_is_integer_kind(t->kind)) {
      set_int(&job, fbei_int_limit(t->kind, max));
    } else {
      fbei_draft_error(load, p, d->pos, "Unsupported type %s for '%s' constant", af->type.elem.text,
                     max ? "max" : "min");
    }
    return;
  }
  if (d->nmore && t->kind != FBE_KIND_FLAGS) {
    invalid(&job);
    return;
  }
  switch (t->kind) {
    case FBE_KIND_BOOL:
      if (d->kind == FBE_AST_CONST_TRUE || d->kind == FBE_AST_CONST_FALSE) {
        out->kind = FBE_DEF_BOOL;
        out->u = d->kind == FBE_AST_CONST_TRUE;
      } else {
        invalid(&job);
      }
      break;
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_WCHAR:
    case FBE_KIND_INT8: case FBE_KIND_UINT8: case FBE_KIND_INT16: case FBE_KIND_UINT16:
    case FBE_KIND_INT32: case FBE_KIND_UINT32: case FBE_KIND_INT64: case FBE_KIND_UINT64:
      integer_default(&job, t->kind);
      break;
    case FBE_KIND_FLOAT:
    case FBE_KIND_DOUBLE:
      float_default(&job, t->kind);
      break;
    case FBE_KIND_DECIMAL:
      decimal_default(&job);
      break;
    case FBE_KIND_STRING:
      if (d->kind == FBE_AST_CONST_STRING && fbei_utf8_valid_prefix((const uint8_t *)d->str, d->len) != d->len) {
        /* the string rule (FORMAT.md 3.4): a default no verify would accept is no default */
        fbei_draft_error(job.load, job.p, d->pos, "Default value of field %s is not valid UTF-8", job.af->name);
      } else if (d->kind == FBE_AST_CONST_STRING) {
        out->kind = FBE_DEF_STRING;
        out->str = fbei_ctx_strndup(load->ctx, load->arena, d->str, d->len);
        out->len = d->len;
      } else {
        invalid(&job);
      }
      break;
    case FBE_KIND_TIMESTAMP:
      if (d->kind == FBE_AST_CONST_EPOCH) {
        set_int(&job, 0);
      } else if (d->kind == FBE_AST_CONST_UTC) {
        out->kind = FBE_DEF_UTC;
      } else {
        integer_default(&job, FBE_KIND_TIMESTAMP);
      }
      break;
    case FBE_KIND_UUID:
      uuid_default(&job);
      break;
    case FBE_KIND_ENUM:
    case FBE_KIND_FLAGS:
      enum_default(&job, t->enm);
      break;
    default: /* bytes, structs, arrays and collections */
      fbei_draft_error(load, p, d->pos, "Field %s of type %s cannot have a default value", af->name,
                     af->type.text);
      break;
  }
}
