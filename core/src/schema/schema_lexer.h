/* Internal: tokens of the .fbe schema language (SCHEMA.md 2). */
#ifndef FBE_SCHEMA_LEXER_H
#define FBE_SCHEMA_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "schema/schema_ctx.h"

typedef enum fbei_tok_kind {
  FBE_TOK_EOF,
  FBE_TOK_IDENT,
  FBE_TOK_INT,
  FBE_TOK_FLOAT,
  FBE_TOK_CHAR,
  FBE_TOK_STRING,
  FBE_TOK_TYPE,        /* one of the 19 type keywords; fbei_token.type_kind tells which */
  /* reserved words */
  FBE_TOK_ENUM, FBE_TOK_FLAGS, FBE_TOK_STRUCT, FBE_TOK_MESSAGE, FBE_TOK_BASE,
  /* constant keywords */
  FBE_TOK_TRUE, FBE_TOK_FALSE, FBE_TOK_NULL, FBE_TOK_EPOCH, FBE_TOK_UTC,
  FBE_TOK_UUID0, FBE_TOK_UUID1, FBE_TOK_UUID4,
  /* keywords that are also allowed as names */
  FBE_TOK_DOMAIN, FBE_TOK_PACKAGE, FBE_TOK_OFFSET, FBE_TOK_IMPORT, FBE_TOK_VERSION,
  FBE_TOK_REQUEST, FBE_TOK_RESPONSE, FBE_TOK_REJECT,
  /* single-token attributes */
  FBE_TOK_ATTR_ID, FBE_TOK_ATTR_KEY, FBE_TOK_ATTR_HIDDEN, FBE_TOK_ATTR_DEPRECATED,
  /* punctuation */
  FBE_TOK_COMMA, FBE_TOK_DOT, FBE_TOK_COLON, FBE_TOK_SEMI, FBE_TOK_PLUS, FBE_TOK_STAR,
  FBE_TOK_EQUAL, FBE_TOK_PIPE, FBE_TOK_BANG, FBE_TOK_QUESTION, FBE_TOK_TILDE,
  FBE_TOK_LPAREN, FBE_TOK_RPAREN, FBE_TOK_LBRACKET, FBE_TOK_RBRACKET,
  FBE_TOK_LESS, FBE_TOK_GREATER, FBE_TOK_LBRACE, FBE_TOK_RBRACE
} fbei_tok_kind;

typedef struct fbei_token {
  fbei_tok_kind kind;
  fbe_kind type_kind;    /* FBE_TOK_TYPE */
  uint32_t line, col;    /* 1-based; col counts bytes */
  size_t start, end;     /* byte span in the source */
  /* FBE_TOK_INT: sign and magnitude (the value fits 64 bits: -2^63 .. 2^64-1) */
  bool neg, hex;
  uint64_t mag;
  uint32_t ch;           /* FBE_TOK_CHAR: the code point */
  const char *str;       /* FBE_TOK_STRING: decoded UTF-8 (work arena), NUL-terminated */
  uint32_t len;          /* its length in bytes */
} fbei_token;

typedef struct fbei_lexer {
  fbei_load_ctx *ctx;
  uint32_t file_id;
  const char *src;
  size_t len, pos;
  uint32_t line;
  size_t line_start;     /* offset of the first byte of the current line */
} fbei_lexer;

void fbei_lexer_init(fbei_lexer *lx, fbei_load_ctx *ctx, uint32_t file_id, const char *src, size_t len);

/* Reads the next token. Lexical errors are reported to the context and skipped
 * (a malformed literal still yields its token, so parsing goes on). */
void fbei_lexer_next(fbei_lexer *lx, fbei_token *tok);

#endif
