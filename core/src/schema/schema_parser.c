/* Recursive-descent parser for the grammar of SCHEMA.md 10.
 *
 * Every parse_* function returns false right after reporting a syntax error
 * (so one mistake gives one message); the loops over body items and
 * declarations then skip to a synchronisation point and go on. */
#include <string.h>
#include "schema/schema_lexer.h"
#include "schema/schema_parser.h"

typedef struct parser {
  fbei_load_ctx *ctx;
  fbei_lexer lx;
  const char *src;
  fbei_token tok;       /* current token */
  fbei_token next;      /* one token of lookahead */
  size_t prev_end;     /* end of the last consumed token: closes source spans */
  fbei_ast_file *file;
} parser;

#define SHOWN_MAX 64

static void advance(parser *p) {
  p->prev_end = p->tok.end;
  p->tok = p->next;
  fbei_lexer_next(&p->lx, &p->next);
}

static bool at(const parser *p, fbei_tok_kind kind) { return p->tok.kind == kind; }

static bool accept(parser *p, fbei_tok_kind kind) {
  if (!at(p, kind)) return false;
  advance(p);
  return true;
}

static fbei_ast_pos pos_of(const fbei_token *t) {
  fbei_ast_pos pos = {t->line, t->col};
  return pos;
}

static const char *span_text(parser *p, size_t start, size_t end) {
  return fbei_ctx_strndup(p->ctx, p->ctx->work, p->src + start, end - start);
}

static const char *token_text(parser *p) { return span_text(p, p->tok.start, p->tok.end); }

/* Keywords that may also be used as names (SCHEMA.md 2.3). */
static bool is_name_token(fbei_tok_kind kind) {
  return kind == FBE_TOK_IDENT || (kind >= FBE_TOK_DOMAIN && kind <= FBE_TOK_REJECT);
}

static bool at_decl_keyword(const parser *p) {
  return at(p, FBE_TOK_ENUM) || at(p, FBE_TOK_FLAGS) || at(p, FBE_TOK_STRUCT) ||
         at(p, FBE_TOK_MESSAGE);
}

static bool at_decl_start(const parser *p) {
  return at_decl_keyword(p) || at(p, FBE_TOK_ATTR_HIDDEN) || at(p, FBE_TOK_ATTR_DEPRECATED) ||
         (at(p, FBE_TOK_LBRACKET) && p->next.kind == FBE_TOK_REQUEST);
}

static const char *describe_token(parser *p, const fbei_token *t) {
  size_t n = t->end - t->start;
  int shown = (int)(n > SHOWN_MAX ? SHOWN_MAX : n);
  const char *text = p->src + t->start;
  switch (t->kind) {
    case FBE_TOK_EOF: return "end of file";
    case FBE_TOK_IDENT:
      return fbei_ctx_printf(p->ctx, p->ctx->work, "identifier '%.*s'", shown, text);
    case FBE_TOK_INT:
    case FBE_TOK_FLOAT: return fbei_ctx_printf(p->ctx, p->ctx->work, "number %.*s", shown, text);
    case FBE_TOK_CHAR:
      return fbei_ctx_printf(p->ctx, p->ctx->work, "character literal %.*s", shown, text);
    case FBE_TOK_STRING: return fbei_ctx_printf(p->ctx, p->ctx->work, "string %.*s", shown, text);
    default: return fbei_ctx_printf(p->ctx, p->ctx->work, "'%.*s'", shown, text);
  }
}

static bool syntax_error(parser *p, const char *expected) {
  fbei_ctx_error(p->ctx, p->file->file_id, p->tok.line, p->tok.col,
                 "Syntax error: expected %s, found %s", expected, describe_token(p, &p->tok));
  return false;
}

static bool expect(parser *p, fbei_tok_kind kind, const char *expected) {
  return accept(p, kind) || syntax_error(p, expected);
}

/* Skips the rest of a broken body item: past the next ';', or up to a '}' or a
 * declaration keyword (which cannot appear inside a body). */
static void sync_item(parser *p) {
  while (!at(p, FBE_TOK_EOF) && !at(p, FBE_TOK_RBRACE) && !at_decl_keyword(p)) {
    bool semicolon = at(p, FBE_TOK_SEMI);
    advance(p);
    if (semicolon) return;
  }
}

/* Skips to the next declaration outside braces. */
static void sync_declaration(parser *p) {
  uint32_t depth = 0;
  while (!at(p, FBE_TOK_EOF)) {
    if (depth == 0 && at_decl_start(p)) return;
    if (at(p, FBE_TOK_LBRACE)) {
      depth++;
    } else if (at(p, FBE_TOK_RBRACE) && depth > 0) {
      depth--;
    }
    advance(p);
  }
}

/* Reserved words (SCHEMA.md 2.3) cannot be names. */
static bool is_reserved_word(fbei_tok_kind kind) {
  return kind == FBE_TOK_TYPE || (kind >= FBE_TOK_ENUM && kind <= FBE_TOK_UUID4);
}

static bool parse_name(parser *p, const char *expected, const char **name, fbei_ast_pos *pos) {
  if (!is_name_token(p->tok.kind)) {
    syntax_error(p, expected);
    /* A reserved word here was meant as a name: skip it, so that recovery does not
     * restart a declaration at it ("struct message {}" is one error, not two). */
    if (is_reserved_word(p->tok.kind)) advance(p);
    return false;
  }
  *name = token_text(p);
  *pos = pos_of(&p->tok);
  advance(p);
  return true;
}

static bool parse_dotted_name(parser *p, const char *expected, fbei_ast_name *out) {
  uint32_t cap = 0;
  fbei_ast_pos pos;
  memset(out, 0, sizeof *out);
  out->pos = pos_of(&p->tok);
  do {
    const char **part = FBEI_CTX_PUSH(p->ctx, out->parts, out->nparts, cap);
    if (!parse_name(p, out->nparts == 1 ? expected : "a name", part, &pos)) return false;
  } while (accept(p, FBE_TOK_DOT));
  /* Whitespace around the dots is allowed, so join the parts instead of taking the span. */
  size_t len = 0;
  for (uint32_t i = 0; i < out->nparts; i++) len += strlen(out->parts[i]) + 1;
  char *text = fbei_ctx_alloc(p->ctx, p->ctx->work, len);
  for (uint32_t i = 0; i < out->nparts; i++) {
    if (i) strcat(text, ".");
    strcat(text, out->parts[i]);
  }
  out->text = text;
  return true;
}

static bool parse_int(parser *p, const char *expected, fbei_ast_int *out) {
  if (!at(p, FBE_TOK_INT)) return syntax_error(p, expected);
  out->pos = pos_of(&p->tok);
  out->neg = p->tok.neg;
  out->hex = p->tok.hex;
  out->mag = p->tok.mag;
  out->text = token_text(p);
  advance(p);
  return true;
}

static void parse_attributes(parser *p, bool *hidden, bool *deprecated) {
  for (;;) {
    if (accept(p, FBE_TOK_ATTR_HIDDEN)) {
      *hidden = true;
    } else if (accept(p, FBE_TOK_ATTR_DEPRECATED)) {
      *deprecated = true;
    } else {
      return;
    }
  }
}

/* ---- header ---- */

static bool parse_header(parser *p) {
  fbei_ast_file *f = p->file;
  if (accept(p, FBE_TOK_DOMAIN)) {
    if (!parse_dotted_name(p, "a domain name", &f->domain)) return false;
    f->has_domain = true;
  }
  if (!expect(p, FBE_TOK_PACKAGE, "'package'")) return false;
  if (!parse_name(p, "a package name", &f->package, &f->package_pos)) return false;
  if (accept(p, FBE_TOK_OFFSET)) {
    if (!parse_int(p, "an integer offset", &f->offset)) return false;
    f->has_offset = true;
  }
  if (accept(p, FBE_TOK_VERSION)) {
    if (!at(p, FBE_TOK_FLOAT)) return syntax_error(p, "a version number MAJOR.MINOR");
    f->has_version = true;
    f->version_pos = pos_of(&p->tok);
    f->version = token_text(p);
    advance(p);
  }
  while (accept(p, FBE_TOK_IMPORT)) {
    fbei_ast_import imp;
    if (!parse_name(p, "a package name", &imp.name, &imp.pos)) return false;
    *FBEI_CTX_PUSH(p->ctx, f->imports, f->nimports, f->imports_cap) = imp;
  }
  return true;
}

/* ---- enums and flags ---- */

static bool is_enum_base(fbe_kind kind, bool is_flags) {
  switch (kind) {
    case FBE_KIND_CHAR:
    case FBE_KIND_WCHAR: return !is_flags;
    case FBE_KIND_BYTE: case FBE_KIND_INT8: case FBE_KIND_UINT8: case FBE_KIND_INT16:
    case FBE_KIND_UINT16: case FBE_KIND_INT32: case FBE_KIND_UINT32: case FBE_KIND_INT64:
    case FBE_KIND_UINT64: return true;
    default: return false;
  }
}

static bool parse_enum_value(parser *p, fbei_ast_enum *e) {
  fbei_ast_value v;
  memset(&v, 0, sizeof v);
  uint32_t names_cap = 0, npos = 0, pos_cap = 0;
  parse_attributes(p, &v.hidden, &v.deprecated);
  if (!parse_name(p, e->is_flags ? "a flags value name" : "an enum value name", &v.name, &v.pos)) {
    return false;
  }
  if (accept(p, FBE_TOK_EQUAL)) {
    v.literal_pos = pos_of(&p->tok);
    if (at(p, FBE_TOK_INT)) {
      v.kind = FBE_AST_VALUE_INT;
      v.literal = token_text(p);
      parse_int(p, "", &v.ival);
    } else if (at(p, FBE_TOK_CHAR) && !e->is_flags) {
      v.kind = FBE_AST_VALUE_CHAR;
      v.literal = token_text(p);
      v.ch = p->tok.ch;
      advance(p);
    } else if (is_name_token(p->tok.kind)) {
      v.kind = FBE_AST_VALUE_NAMES;
      do {
        const char **name = FBEI_CTX_PUSH(p->ctx, v.names, v.nnames, names_cap);
        fbei_ast_pos *pos = FBEI_CTX_PUSH(p->ctx, v.name_pos, npos, pos_cap);
        if (!parse_name(p, "a flags value name", name, pos)) return false;
      } while (e->is_flags && accept(p, FBE_TOK_PIPE));
    } else {
      return syntax_error(p, e->is_flags ? "an integer or a flags value name"
                                         : "an integer, a character or an enum value name");
    }
    if (!expect(p, FBE_TOK_SEMI, v.kind == FBE_AST_VALUE_NAMES && e->is_flags ? "'|' or ';'"
                                                                                : "';'")) {
      return false;
    }
  } else if (e->is_flags) {
    return syntax_error(p, "'='");
  } else if (!expect(p, FBE_TOK_SEMI, "'=' or ';'")) {
    return false;
  }
  *FBEI_CTX_PUSH(p->ctx, e->values, e->nvalues, e->values_cap) = v;
  return true;
}

static bool parse_enum(parser *p, bool hidden, bool deprecated) {
  fbei_ast_enum e;
  memset(&e, 0, sizeof e);
  e.is_flags = at(p, FBE_TOK_FLAGS);
  e.hidden = hidden;
  e.deprecated = deprecated;
  e.base = FBE_KIND_INT32;
  advance(p);
  if (!parse_name(p, e.is_flags ? "a flags name" : "an enum name", &e.name, &e.pos)) return false;
  if (accept(p, FBE_TOK_COLON)) {
    if (!at(p, FBE_TOK_TYPE) || !is_enum_base(p->tok.type_kind, e.is_flags)) {
      return syntax_error(p, e.is_flags ? "a flags base type (byte, int8 ... uint64)"
                                        : "an enum base type (byte, char, wchar, int8 ... uint64)");
    }
    e.base = p->tok.type_kind;
    advance(p);
  }
  if (!expect(p, FBE_TOK_LBRACE, "'{'")) return false;
  while (!at(p, FBE_TOK_RBRACE) && !at(p, FBE_TOK_EOF) && !at_decl_keyword(p)) {
    if (!parse_enum_value(p, &e)) sync_item(p);
  }
  expect(p, FBE_TOK_RBRACE, "'}'");
  *FBEI_CTX_PUSH(p->ctx, p->file->enums, p->file->nenums, p->file->enums_cap) = e;
  return true;
}

/* ---- structs ---- */

static bool parse_simple_type(parser *p, fbei_ast_simple *s) {
  size_t start = p->tok.start;
  s->pos = pos_of(&p->tok);
  if (at(p, FBE_TOK_TYPE)) {
    s->prim = p->tok.type_kind;
    advance(p);
  } else if (is_name_token(p->tok.kind)) {
    s->is_named = true;
    if (!parse_dotted_name(p, "a type", &s->name)) return false;
  } else {
    return syntax_error(p, "a type");
  }
  s->text = span_text(p, start, p->prev_end);
  return true;
}

static bool parse_type(parser *p, fbei_ast_type *t) {
  size_t start = p->tok.start;
  t->pos = pos_of(&p->tok);
  t->form = FBE_AST_PLAIN;
  if (!parse_simple_type(p, &t->elem)) return false;
  if (accept(p, FBE_TOK_QUESTION)) {
    t->form = FBE_AST_OPTIONAL;
    t->elem_optional = at(p, FBE_TOK_LBRACKET) || at(p, FBE_TOK_LPAREN) ||
                       at(p, FBE_TOK_LESS) || at(p, FBE_TOK_LBRACE);
  } else if (accept(p, FBE_TOK_TILDE)) {
    t->form = FBE_AST_RESET;
  } else if (accept(p, FBE_TOK_BANG)) {
    t->form = FBE_AST_SET;
  }
  if (t->form == FBE_AST_PLAIN || t->elem_optional) {
    if (accept(p, FBE_TOK_LBRACKET)) {
      if (accept(p, FBE_TOK_RBRACKET)) {
        t->form = FBE_AST_VECTOR;
      } else {
        t->form = FBE_AST_ARRAY;
        if (!parse_int(p, "an array size or ']'", &t->size)) return false;
        if (!expect(p, FBE_TOK_RBRACKET, "']'")) return false;
      }
    } else if (accept(p, FBE_TOK_LPAREN)) {
      t->form = FBE_AST_LIST;
      if (!expect(p, FBE_TOK_RPAREN, "')'")) return false;
    } else if (accept(p, FBE_TOK_LESS)) {
      t->form = FBE_AST_MAP;
      if (!parse_simple_type(p, &t->key) || !expect(p, FBE_TOK_GREATER, "'>'")) return false;
    } else if (accept(p, FBE_TOK_LBRACE)) {
      t->form = FBE_AST_HASH;
      if (!parse_simple_type(p, &t->key) || !expect(p, FBE_TOK_RBRACE, "'}'")) return false;
    }
  }
  t->text = span_text(p, start, p->prev_end);
  return true;
}

static bool parse_default(parser *p, fbei_ast_default *d) {
  static const struct { fbei_tok_kind tok; fbei_ast_const_kind kind; } keywords[] = {
      {FBE_TOK_TRUE, FBE_AST_CONST_TRUE},   {FBE_TOK_FALSE, FBE_AST_CONST_FALSE},
      {FBE_TOK_NULL, FBE_AST_CONST_NULL},   {FBE_TOK_EPOCH, FBE_AST_CONST_EPOCH},
      {FBE_TOK_UTC, FBE_AST_CONST_UTC},     {FBE_TOK_UUID0, FBE_AST_CONST_UUID0},
      {FBE_TOK_UUID1, FBE_AST_CONST_UUID1}, {FBE_TOK_UUID4, FBE_AST_CONST_UUID4},
  };
  size_t start = p->tok.start;
  uint32_t more_cap = 0;
  d->pos = pos_of(&p->tok);
  bool is_keyword = false;
  for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++) {
    if (at(p, keywords[i].tok)) {
      d->kind = keywords[i].kind;
      is_keyword = true;
    }
  }
  if (is_keyword) {
    advance(p);
  } else if (at(p, FBE_TOK_INT)) {
    d->kind = FBE_AST_CONST_INT;
    d->literal = token_text(p);
    parse_int(p, "", &d->ival);
  } else if (at(p, FBE_TOK_FLOAT)) {
    d->kind = FBE_AST_CONST_FLOAT;
    d->literal = token_text(p);
    advance(p);
  } else if (at(p, FBE_TOK_CHAR)) {
    d->kind = FBE_AST_CONST_CHAR;
    d->ch = p->tok.ch;
    advance(p);
  } else if (at(p, FBE_TOK_STRING)) {
    d->kind = FBE_AST_CONST_STRING;
    d->str = p->tok.str;
    d->len = p->tok.len;
    advance(p);
  } else if (is_name_token(p->tok.kind)) {
    d->kind = FBE_AST_CONST_NAME;
    if (!parse_dotted_name(p, "a default value", &d->name)) return false;
  } else {
    return syntax_error(p, "a default value");
  }
  while (accept(p, FBE_TOK_PIPE)) {
    fbei_ast_name *name = FBEI_CTX_PUSH(p->ctx, d->more, d->nmore, more_cap);
    if (!parse_dotted_name(p, "a flags value name", name)) return false;
  }
  d->text = span_text(p, start, p->prev_end);
  return true;
}

static bool parse_field(parser *p, fbei_ast_struct *st) {
  fbei_ast_field f;
  memset(&f, 0, sizeof f);
  parse_attributes(p, &f.hidden, &f.deprecated);
  f.key = accept(p, FBE_TOK_ATTR_KEY);
  if (!parse_type(p, &f.type)) return false;
  if (!f.key && at(p, FBE_TOK_ATTR_ID)) {
    f.id = true;
    f.name = "id";
    f.pos = pos_of(&p->tok);
    advance(p);
  } else if (!parse_name(p, "a field name", &f.name, &f.pos)) {
    return false;
  }
  if (accept(p, FBE_TOK_EQUAL)) {
    if (!parse_default(p, &f.def)) return false;
    f.has_default = true;
  }
  if (!expect(p, FBE_TOK_SEMI, f.has_default ? "'|' or ';'" : "'=' or ';'")) return false;
  *FBEI_CTX_PUSH(p->ctx, st->fields, st->nfields, st->fields_cap) = f;
  return true;
}

/* "[request] [response(T)] [reject(*A, B)]" (SCHEMA.md 6.6). */
static bool parse_request_spec(parser *p, fbei_ast_struct *st) {
  if (!expect(p, FBE_TOK_LBRACKET, "'['") || !expect(p, FBE_TOK_REQUEST, "'request'") ||
      !expect(p, FBE_TOK_RBRACKET, "']'")) {
    return false;
  }
  st->is_request = true;
  if (at(p, FBE_TOK_LBRACKET) && p->next.kind == FBE_TOK_RESPONSE) {
    advance(p);
    advance(p);
    if (!expect(p, FBE_TOK_LPAREN, "'('") ||
        !parse_dotted_name(p, "a response type", &st->response) ||
        !expect(p, FBE_TOK_RPAREN, "')'") || !expect(p, FBE_TOK_RBRACKET, "']'")) {
      return false;
    }
    st->has_response = true;
  }
  if (at(p, FBE_TOK_LBRACKET) && p->next.kind == FBE_TOK_REJECT) {
    advance(p);
    advance(p);
    if (!expect(p, FBE_TOK_LPAREN, "'('")) return false;
    st->reject_global = accept(p, FBE_TOK_STAR);
    do {
      fbei_ast_name *name = FBEI_CTX_PUSH(p->ctx, st->rejects, st->nrejects, st->rejects_cap);
      if (!parse_dotted_name(p, "a reject type", name)) return false;
    } while (accept(p, FBE_TOK_COMMA));
    if (!expect(p, FBE_TOK_RPAREN, "',' or ')'") || !expect(p, FBE_TOK_RBRACKET, "']'")) {
      return false;
    }
  }
  return true;
}

/* "(+N)", "(N)" or "(base)" after a struct name. */
static bool parse_numbering(parser *p, fbei_ast_struct *st) {
  if (!accept(p, FBE_TOK_LPAREN)) return true;
  if (accept(p, FBE_TOK_PLUS)) {
    st->numbering = FBE_AST_NUM_PLUS;
    if (!parse_int(p, "an integer", &st->number)) return false;
  } else if (accept(p, FBE_TOK_BASE)) {
    st->numbering = FBE_AST_NUM_BASE;
  } else {
    st->numbering = FBE_AST_NUM_EXPLICIT;
    if (!parse_int(p, "an integer, '+' or 'base'", &st->number)) return false;
  }
  return expect(p, FBE_TOK_RPAREN, "')'");
}

static bool parse_struct(parser *p, fbei_ast_struct *st, bool hidden, bool deprecated) {
  st->is_message = at(p, FBE_TOK_MESSAGE);
  st->hidden = hidden;
  st->deprecated = deprecated;
  advance(p);
  if (!parse_name(p, st->is_message ? "a message name" : "a struct name", &st->name, &st->pos) ||
      !parse_numbering(p, st)) {
    return false;
  }
  if (st->numbering == FBE_AST_NUM_BASE && !at(p, FBE_TOK_COLON)) {
    return syntax_error(p, "':' and the base type of a (base) struct");
  }
  if (accept(p, FBE_TOK_COLON)) {
    if (!parse_dotted_name(p, "a base type", &st->base)) return false;
    st->has_base = true;
  }
  if (!expect(p, FBE_TOK_LBRACE, st->has_base ? "'{'" : "':' or '{'")) return false;
  while (!at(p, FBE_TOK_RBRACE) && !at(p, FBE_TOK_EOF) && !at_decl_keyword(p)) {
    if (!parse_field(p, st)) sync_item(p);
  }
  expect(p, FBE_TOK_RBRACE, "'}'");
  *FBEI_CTX_PUSH(p->ctx, p->file->structs, p->file->nstructs, p->file->structs_cap) = *st;
  return true;
}

static bool parse_declaration(parser *p) {
  fbei_ast_struct st;
  memset(&st, 0, sizeof st);
  if (at(p, FBE_TOK_LBRACKET) && !parse_request_spec(p, &st)) return false;
  bool hidden = false, deprecated = false;
  parse_attributes(p, &hidden, &deprecated);
  if (at(p, FBE_TOK_STRUCT) || at(p, FBE_TOK_MESSAGE)) {
    return parse_struct(p, &st, hidden, deprecated);
  }
  if (st.is_request) return syntax_error(p, "'struct' or 'message'");
  if (at(p, FBE_TOK_ENUM) || at(p, FBE_TOK_FLAGS)) return parse_enum(p, hidden, deprecated);
  return syntax_error(p, "a declaration (enum, flags, struct or message)");
}

fbei_ast_file *fbei_parse_file(fbei_load_ctx *ctx, uint32_t file_id, const char *src, size_t len) {
  parser p;
  memset(&p, 0, sizeof p);
  p.ctx = ctx;
  p.src = src;
  p.file = fbei_ctx_alloc(ctx, ctx->work, sizeof *p.file);
  p.file->file_id = file_id;
  fbei_lexer_init(&p.lx, ctx, file_id, src, len);
  fbei_lexer_next(&p.lx, &p.tok);
  fbei_lexer_next(&p.lx, &p.next);
  if (!parse_header(&p)) sync_declaration(&p);
  while (!at(&p, FBE_TOK_EOF)) {
    /* Each failing parse consumed at least one token or stands before a token
     * that cannot start a declaration, which the sync skips: always progress. */
    if (!at_decl_start(&p)) {
      syntax_error(&p, "a declaration (enum, flags, struct or message)");
      sync_declaration(&p);
    } else if (!parse_declaration(&p)) {
      sync_declaration(&p);
    }
    if (p.file->nstructs + p.file->nenums > FBE_SCHEMA_MAX_DECLARATIONS) {
      /* each costs its syntax tree and its records: a cap, as for fields (schema.h) */
      fbei_ctx_error(ctx, file_id, p.tok.line, p.tok.col,
                     "Too many declarations: a schema file may declare at most %u enums, flags, "
                     "structs and messages", FBE_SCHEMA_MAX_DECLARATIONS);
      break;
    }
  }
  return p.file;
}
