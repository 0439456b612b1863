/* Values of enums (automatic numbering, SCHEMA.md 4.1) and flags (SCHEMA.md 5). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "schema/schema_resolve.h"

/* A value being computed: sign + magnitude, plus "2^64" for an automatic value
 * that ran past UINT64_MAX. */
typedef struct wide {
  bool neg;
  uint64_t mag;
  bool beyond;
} wide;

static wide wide_next(wide v) {
  if (v.beyond) return v;
  if (v.neg) {
    v.mag--;
    v.neg = v.mag != 0;
  } else if (v.mag == UINT64_MAX) {
    v.beyond = true;
  } else {
    v.mag++;
  }
  return v;
}

static bool wide_fits(fbe_kind kind, wide v) {
  return !v.beyond && fbei_int_fits(kind, v.neg, v.mag);
}

static const char *wide_text(fbei_load *load, wide v) {
  if (v.beyond) return "18446744073709551616";
  return fbei_ctx_printf(load->ctx, load->ctx->work, "%s%" PRIu64, v.neg ? "-" : "", v.mag);
}

typedef struct enum_job {
  fbei_load *load;
  fbei_pkg_draft *p;
  const fbei_ast_enum *ast;
  fbe_enum *e;
  fbei_name_entry *names;   /* value names, sorted */
  wide *values;            /* computed values, by declaration index */
} enum_job;

static const char *kind_word(const enum_job *job) { return job->e->is_flags ? "flags" : "enum"; }

/* Finds the earlier value `name` referenced by value `index`; reports otherwise. */
static bool find_earlier(const enum_job *job, uint32_t index, const char *name, fbei_ast_pos pos,
                         uint32_t *found) {
  const fbei_name_entry *entry = fbei_names_find(job->names, job->ast->nvalues, name);
  if (!entry) {
    fbei_draft_error(job->load, job->p, pos, "Unknown %s value %s", kind_word(job), name);
    return false;
  }
  if (entry->index >= index) {
    fbei_draft_error(job->load, job->p, pos, "%s value %s must be declared before it is used",
                   job->e->is_flags ? "Flags" : "Enum", name);
    return false;
  }
  *found = entry->index;
  return true;
}

static void check_range(const enum_job *job, const fbei_ast_value *v, wide value, bool automatic) {
  if (wide_fits(job->e->base, value)) return;
  fbei_draft_error(job->load, job->p, automatic ? v->pos : v->literal_pos,
                 "%s%s value %s = %s is out of range for %s", automatic ? "Automatic " : "",
                 automatic ? kind_word(job) : (job->e->is_flags ? "Flags" : "Enum"), v->name,
                 wide_text(job->load, value), fbe_kind_name(job->e->base));
}

/* SCHEMA.md 4.1: no '=' gives the previous value + 1 (0 for the first). */
static void number_enum(enum_job *job) {
  const fbei_ast_enum *a = job->ast;
  fbe_kind base = job->e->base;
  bool prev_ok = true, prev_alias = false;
  for (uint32_t i = 0; i < a->nvalues; i++) {
    const fbei_ast_value *v = &a->values[i];
    wide value = {false, 0, false};
    bool ok = true, alias = false;
    uint32_t target;
    switch (v->kind) {
      case FBE_AST_VALUE_AUTO:
        if (i > 0) value = wide_next(job->values[i - 1]);
        if (prev_alias) {
          fbei_draft_warning(job->load, job->p, v->pos,
                           "Automatic enum value %s = %s follows an alias; some reference "
                           "generators give it the alias's value",
                           v->name, wide_text(job->load, value));
        }
        ok = wide_fits(base, value);
        if (prev_ok) check_range(job, v, value, true);
        break;
      case FBE_AST_VALUE_CHAR:
        if (base != FBE_KIND_CHAR && base != FBE_KIND_WCHAR) {
          fbei_draft_error(job->load, job->p, v->literal_pos,
                         "Character literal %s is not allowed in enum %s of base type %s",
                         v->literal, job->e->name, fbe_kind_name(base));
        }
        value.mag = v->ch;
        ok = wide_fits(base, value);
        check_range(job, v, value, false);
        break;
      case FBE_AST_VALUE_INT:
        value.neg = v->ival.neg;
        value.mag = v->ival.mag;
        ok = wide_fits(base, value);
        check_range(job, v, value, false);
        break;
      case FBE_AST_VALUE_NAMES:
        alias = true;
        if (find_earlier(job, i, v->names[0], v->name_pos[0], &target)) {
          value = job->values[target];
        }
        ok = wide_fits(base, value);
        break;
    }
    job->values[i] = value;
    job->e->values[i].value = fbei_int_pattern(value.neg, value.mag);
    prev_ok = ok;
    prev_alias = alias;
  }
}

/* SCHEMA.md 5: every flag is an integer or an OR of earlier flags. */
static void evaluate_flags(enum_job *job) {
  const fbei_ast_enum *a = job->ast;
  for (uint32_t i = 0; i < a->nvalues; i++) {
    const fbei_ast_value *v = &a->values[i];
    uint64_t bits = 0;
    if (v->kind == FBE_AST_VALUE_INT) {
      wide value = {v->ival.neg, v->ival.mag, false};
      check_range(job, v, value, false);
      bits = fbei_int_pattern(value.neg, value.mag);
    } else {
      for (uint32_t k = 0; k < v->nnames; k++) {
        uint32_t target;
        if (find_earlier(job, i, v->names[k], v->name_pos[k], &target)) {
          bits |= job->e->values[target].value;
        }
      }
    }
    job->e->values[i].value = bits;
  }
}

static void resolve_enum(fbei_load *load, fbei_pkg_draft *p, uint32_t index) {
  const fbei_ast_enum *a = &p->ast->enums[index];
  fbe_enum *e = &p->enums[index];
  uint32_t n = a->nvalues;
  enum_job job = {load, p, a, e, NULL, NULL};
  e->nvalues = n;
  e->values = fbei_ctx_alloc(load->ctx, load->arena, (n + 1) * sizeof *e->values);
  job.names = fbei_ctx_alloc(load->ctx, load->ctx->work, (n + 1) * sizeof *job.names);
  job.values = fbei_ctx_alloc(load->ctx, load->ctx->work, (n + 1) * sizeof *job.values);
  for (uint32_t i = 0; i < n; i++) {
    const fbei_ast_value *v = &a->values[i];
    fbei_enum_value *out = &e->values[i];
    out->name = fbei_ctx_strdup(load->ctx, load->arena, v->name);
    out->line = v->pos.line;
    out->col = v->pos.col;
    out->hidden = v->hidden;
    out->deprecated = v->deprecated;
    job.names[i].name = v->name;
    job.names[i].index = i;
  }
  fbei_names_sort(job.names, n);
  p->value_names[index] = job.names; /* kept for defaults naming these values */
  for (uint32_t i = 1; i < n; i++) {
    if (strcmp(job.names[i].name, job.names[i - 1].name) == 0) {
      const fbei_ast_value *v = &a->values[job.names[i].index];
      fbei_draft_error(load, p, v->pos, "Duplicate %s name %s", kind_word(&job), v->name);
    }
  }
  if (a->is_flags) {
    evaluate_flags(&job);
  } else {
    number_enum(&job);
  }
}

void fbei_resolve_enum_values(fbei_load *load, fbei_pkg_draft *p) {
  p->value_names =
      fbei_ctx_alloc(load->ctx, load->ctx->work, (p->ast->nenums + 1) * sizeof *p->value_names);
  for (uint32_t i = 0; i < p->ast->nenums; i++) resolve_enum(load, p, i);
}
