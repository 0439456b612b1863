/* Lexer of the .fbe schema language (SCHEMA.md 2). Never reads past src[len). */
#include <string.h>
#include "schema/schema_lexer.h"

typedef struct keyword {
  const char *text;
  fbei_tok_kind kind;
  fbe_kind type_kind;
} keyword;

static const keyword keywords[] = {
    {"enum", FBE_TOK_ENUM, FBE_KIND_BOOL},
    {"flags", FBE_TOK_FLAGS, FBE_KIND_BOOL},
    {"struct", FBE_TOK_STRUCT, FBE_KIND_BOOL},
    {"message", FBE_TOK_MESSAGE, FBE_KIND_BOOL},
    {"base", FBE_TOK_BASE, FBE_KIND_BOOL},
    {"true", FBE_TOK_TRUE, FBE_KIND_BOOL},
    {"false", FBE_TOK_FALSE, FBE_KIND_BOOL},
    {"null", FBE_TOK_NULL, FBE_KIND_BOOL},
    {"epoch", FBE_TOK_EPOCH, FBE_KIND_BOOL},
    {"utc", FBE_TOK_UTC, FBE_KIND_BOOL},
    {"uuid0", FBE_TOK_UUID0, FBE_KIND_BOOL},
    {"uuid1", FBE_TOK_UUID1, FBE_KIND_BOOL},
    {"uuid4", FBE_TOK_UUID4, FBE_KIND_BOOL},
    {"domain", FBE_TOK_DOMAIN, FBE_KIND_BOOL},
    {"package", FBE_TOK_PACKAGE, FBE_KIND_BOOL},
    {"offset", FBE_TOK_OFFSET, FBE_KIND_BOOL},
    {"import", FBE_TOK_IMPORT, FBE_KIND_BOOL},
    {"version", FBE_TOK_VERSION, FBE_KIND_BOOL},
    {"request", FBE_TOK_REQUEST, FBE_KIND_BOOL},
    {"response", FBE_TOK_RESPONSE, FBE_KIND_BOOL},
    {"reject", FBE_TOK_REJECT, FBE_KIND_BOOL},
    {"bool", FBE_TOK_TYPE, FBE_KIND_BOOL},
    {"byte", FBE_TOK_TYPE, FBE_KIND_BYTE},
    {"bytes", FBE_TOK_TYPE, FBE_KIND_BYTES},
    {"char", FBE_TOK_TYPE, FBE_KIND_CHAR},
    {"wchar", FBE_TOK_TYPE, FBE_KIND_WCHAR},
    {"int8", FBE_TOK_TYPE, FBE_KIND_INT8},
    {"uint8", FBE_TOK_TYPE, FBE_KIND_UINT8},
    {"int16", FBE_TOK_TYPE, FBE_KIND_INT16},
    {"uint16", FBE_TOK_TYPE, FBE_KIND_UINT16},
    {"int32", FBE_TOK_TYPE, FBE_KIND_INT32},
    {"uint32", FBE_TOK_TYPE, FBE_KIND_UINT32},
    {"int64", FBE_TOK_TYPE, FBE_KIND_INT64},
    {"uint64", FBE_TOK_TYPE, FBE_KIND_UINT64},
    {"float", FBE_TOK_TYPE, FBE_KIND_FLOAT},
    {"double", FBE_TOK_TYPE, FBE_KIND_DOUBLE},
    {"decimal", FBE_TOK_TYPE, FBE_KIND_DECIMAL},
    {"string", FBE_TOK_TYPE, FBE_KIND_STRING},
    {"timestamp", FBE_TOK_TYPE, FBE_KIND_TIMESTAMP},
    {"uuid", FBE_TOK_TYPE, FBE_KIND_UUID},
};

/* Attributes are single tokens only when written exactly like this. */
static const keyword attributes[] = {
    {"[id]", FBE_TOK_ATTR_ID, FBE_KIND_BOOL},
    {"[key]", FBE_TOK_ATTR_KEY, FBE_KIND_BOOL},
    {"[hidden]", FBE_TOK_ATTR_HIDDEN, FBE_KIND_BOOL},
    {"[deprecated]", FBE_TOK_ATTR_DEPRECATED, FBE_KIND_BOOL},
};

static const char punctuation[] = ",.:;+*=|!?~()[]<>{}";
static const fbei_tok_kind punctuation_kinds[] = {
    FBE_TOK_COMMA,    FBE_TOK_DOT,      FBE_TOK_COLON,  FBE_TOK_SEMI,     FBE_TOK_PLUS,
    FBE_TOK_STAR,     FBE_TOK_EQUAL,    FBE_TOK_PIPE,   FBE_TOK_BANG,     FBE_TOK_QUESTION,
    FBE_TOK_TILDE,    FBE_TOK_LPAREN,   FBE_TOK_RPAREN, FBE_TOK_LBRACKET, FBE_TOK_RBRACKET,
    FBE_TOK_LESS,     FBE_TOK_GREATER,  FBE_TOK_LBRACE, FBE_TOK_RBRACE,
};

/* Longest text shown when a message quotes a literal. */
#define SHOWN_MAX 64

static int shown(size_t n) { return (int)(n > SHOWN_MAX ? SHOWN_MAX : n); }

void fbei_lexer_init(fbei_lexer *lx, fbei_load_ctx *ctx, uint32_t file_id, const char *src, size_t len) {
  memset(lx, 0, sizeof *lx);
  lx->ctx = ctx;
  lx->file_id = file_id;
  lx->src = src;
  lx->len = len;
  lx->line = 1;
}

/* The byte `ahead` positions after the current one, or -1 past the end. */
static int peek(const fbei_lexer *lx, size_t ahead) {
  size_t i = lx->pos + ahead;
  return i < lx->len ? (unsigned char)lx->src[i] : -1;
}

static uint32_t column(const fbei_lexer *lx) { return (uint32_t)(lx->pos - lx->line_start + 1); }

static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_hex(int c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static int hex_value(int c) {
  return is_digit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : c - 'A' + 10;
}
static bool is_ident_start(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool is_ident_char(int c) { return is_ident_start(c) || is_digit(c); }

static void newline(fbei_lexer *lx) {
  lx->pos++;
  lx->line++;
  lx->line_start = lx->pos;
}

static void skip_block_comment(fbei_lexer *lx) {
  uint32_t line = lx->line, col = column(lx);
  bool warned = false;
  lx->pos += 2;
  while (lx->pos < lx->len) {
    int c = peek(lx, 0);
    if (c == '\n') {
      newline(lx);
      continue;
    }
    if (c == '*') {
      if (peek(lx, 1) == '/') {
        lx->pos += 2;
        return;
      }
      if (!warned) {
        fbei_ctx_warning(lx->ctx, lx->file_id, lx->line, column(lx),
                         "'*' inside a block comment is rejected by the reference compiler");
        warned = true;
      }
    }
    lx->pos++;
  }
  fbei_ctx_error(lx->ctx, lx->file_id, line, col, "Unterminated block comment");
}

static void skip_space_and_comments(fbei_lexer *lx) {
  for (;;) {
    int c = peek(lx, 0);
    if (c == '\n') {
      newline(lx);
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\b' || c == '\v' || c == '\f') {
      lx->pos++;
    } else if (c == '/' && peek(lx, 1) == '/') {
      while (lx->pos < lx->len && lx->src[lx->pos] != '\n') lx->pos++;
    } else if (c == '/' && peek(lx, 1) == '*') {
      skip_block_comment(lx);
    } else {
      return;
    }
  }
}

static void lex_word(fbei_lexer *lx, fbei_token *tok) {
  while (is_ident_char(peek(lx, 0))) lx->pos++;
  size_t n = lx->pos - tok->start;
  tok->kind = FBE_TOK_IDENT;
  for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++) {
    if (strlen(keywords[i].text) == n && memcmp(keywords[i].text, lx->src + tok->start, n) == 0) {
      tok->kind = keywords[i].kind;
      tok->type_kind = keywords[i].type_kind;
      return;
    }
  }
}

static void int_error(fbei_lexer *lx, const fbei_token *tok, const char *fmt) {
  size_t n = lx->pos - tok->start;
  fbei_ctx_error(lx->ctx, lx->file_id, tok->line, tok->col, fmt, shown(n), lx->src + tok->start);
}

/* Numbers: INT (decimal or 0x hex, optional leading '-') or FLOAT (SCHEMA.md 2.4). */
static void lex_number(fbei_lexer *lx, fbei_token *tok) {
  if (peek(lx, 0) == '-') {
    tok->neg = true;
    lx->pos++;
  }
  uint64_t value = 0;
  bool overflow = false;
  tok->kind = FBE_TOK_INT;
  if (peek(lx, 0) == '0' && (peek(lx, 1) == 'x' || peek(lx, 1) == 'X')) {
    tok->hex = true;
    lx->pos += 2;
    size_t digits_start = lx->pos;
    while (is_hex(peek(lx, 0))) {
      if (value >> 60) overflow = true;
      value = value << 4 | (uint64_t)hex_value(peek(lx, 0));
      lx->pos++;
    }
    if (lx->pos == digits_start) {
      int_error(lx, tok, "Invalid hexadecimal literal %.*s");
      return;
    }
  } else {
    size_t digits_start = lx->pos;
    while (is_digit(peek(lx, 0))) lx->pos++;
    size_t ndigits = lx->pos - digits_start;
    bool is_float = false;
    if (peek(lx, 0) == '.' && (ndigits > 0 || is_digit(peek(lx, 1)))) {
      lx->pos++;
      while (is_digit(peek(lx, 0))) lx->pos++;
      is_float = true;
    }
    int e1 = peek(lx, 1);
    if ((peek(lx, 0) == 'e' || peek(lx, 0) == 'E') &&
        (is_digit(e1) || ((e1 == '+' || e1 == '-') && is_digit(peek(lx, 2))))) {
      lx->pos += 2;
      while (is_digit(peek(lx, 0))) lx->pos++;
      is_float = true;
    }
    if (is_float) {
      tok->kind = FBE_TOK_FLOAT;
      return;
    }
    for (size_t i = digits_start; i < lx->pos; i++) {
      uint64_t digit = (uint64_t)(lx->src[i] - '0');
      if (value > (UINT64_MAX - digit) / 10) overflow = true;
      value = value * 10 + digit;
    }
    if (ndigits > 1 && lx->src[digits_start] == '0') {
      int_error(lx, tok, "Leading zeros are not allowed in decimal literal %.*s");
      return;
    }
  }
  if (overflow || (tok->neg && value > (uint64_t)1 << 63)) {
    int_error(lx, tok, "Integer literal %.*s does not fit in 64 bits");
    return;
  }
  tok->mag = value;
}

/* Reads the escape sequence at the backslash under the cursor. Returns the code
 * point, or a raw byte when *raw_byte is set (\xHH). */
static uint32_t lex_escape(fbei_lexer *lx, bool *raw_byte) {
  uint32_t line = lx->line, col = column(lx);
  *raw_byte = false;
  lx->pos++;
  int c = peek(lx, 0);
  switch (c) {
    case '\\': case '\'': case '"': lx->pos++; return (uint32_t)c;
    case 'n': lx->pos++; return '\n';
    case 'r': lx->pos++; return '\r';
    case 't': lx->pos++; return '\t';
    case '0': lx->pos++; return 0;
    case 'x':
    case 'u': {
      int ndigits = c == 'x' ? 2 : 4;
      lx->pos++;
      uint32_t value = 0;
      for (int i = 0; i < ndigits; i++) {
        if (!is_hex(peek(lx, 0))) {
          fbei_ctx_error(lx->ctx, lx->file_id, line, col,
                         "Invalid escape sequence '\\%c' (expected %d hexadecimal digits)", c,
                         ndigits);
          return 0;
        }
        value = value << 4 | (uint32_t)hex_value(peek(lx, 0));
        lx->pos++;
      }
      if (c == 'u' && value >= 0xD800 && value <= 0xDFFF) {
        fbei_ctx_error(lx->ctx, lx->file_id, line, col,
                       "Invalid escape sequence '\\u%04X' (surrogate code point)", (unsigned)value);
        return 0;
      }
      *raw_byte = c == 'x';
      return value;
    }
    default:
      if (c > ' ' && c < 0x7F) {
        lx->pos++;
        fbei_ctx_error(lx->ctx, lx->file_id, line, col, "Invalid escape sequence '\\%c'", c);
      } else {
        fbei_ctx_error(lx->ctx, lx->file_id, line, col, "Invalid escape sequence");
      }
      return 0;
  }
}

/* Decodes one UTF-8 character; on a malformed sequence consumes one byte and
 * clears *ok. */
static uint32_t lex_utf8(fbei_lexer *lx, bool *ok) {
  int c = peek(lx, 0);
  int extra = c < 0x80 ? 0 : c < 0xC2 ? -1 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : c < 0xF5 ? 3 : -1;
  uint32_t cp = extra == 3 ? (uint32_t)(c & 0x07) : extra == 2 ? (uint32_t)(c & 0x0F)
                                                                : (uint32_t)(c & 0x1F);
  if (extra == 0) {
    lx->pos++;
    return (uint32_t)c;
  }
  for (int i = 1; extra > 0 && i <= extra; i++) {
    int cont = peek(lx, (size_t)i);
    if (cont < 0x80 || cont > 0xBF) {
      extra = -1;
      break;
    }
    cp = cp << 6 | (uint32_t)(cont & 0x3F);
  }
  if (extra < 0) {
    *ok = false;
    lx->pos++;
    return (uint32_t)c;
  }
  lx->pos += (size_t)extra + 1;
  return cp;
}

static uint32_t utf8_encode(uint32_t cp, char *out) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xC0 | cp >> 6);
    out[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  out[0] = (char)(0xE0 | cp >> 12);
  out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
  out[2] = (char)(0x80 | (cp & 0x3F));
  return 3;
}

static void lex_char(fbei_lexer *lx, fbei_token *tok) {
  tok->kind = FBE_TOK_CHAR;
  lx->pos++;
  uint32_t count = 0;
  bool utf8_ok = true;
  for (;;) {
    int c = peek(lx, 0);
    if (c < 0 || c == '\n') {
      fbei_ctx_error(lx->ctx, lx->file_id, tok->line, tok->col, "Unterminated character literal");
      return;
    }
    if (c == '\'') {
      lx->pos++;
      break;
    }
    bool raw_byte;
    uint32_t cp = c == '\\' ? lex_escape(lx, &raw_byte) : lex_utf8(lx, &utf8_ok);
    if (count++ == 0) tok->ch = cp;
  }
  size_t n = lx->pos - tok->start;
  if (!utf8_ok) {
    fbei_ctx_error(lx->ctx, lx->file_id, tok->line, tok->col, "Invalid UTF-8 in character literal");
  } else if (count == 0) {
    fbei_ctx_error(lx->ctx, lx->file_id, tok->line, tok->col, "Empty character literal");
  } else if (count > 1) {
    fbei_ctx_error(lx->ctx, lx->file_id, tok->line, tok->col,
                   "Character literal %.*s must contain exactly one character", shown(n),
                   lx->src + tok->start);
  }
}

static void lex_string(fbei_lexer *lx, fbei_token *tok) {
  tok->kind = FBE_TOK_STRING;
  lx->pos++;
  const char *nl = memchr(lx->src + lx->pos, '\n', lx->len - lx->pos);
  size_t line_end = nl ? (size_t)(nl - lx->src) : lx->len;
  /* Decoding never makes text longer, so the rest of the line bounds the buffer. */
  char *buf = fbei_ctx_alloc(lx->ctx, lx->ctx->work, line_end - lx->pos + 1);
  uint32_t n = 0;
  bool closed = false;
  while (lx->pos < line_end) {
    char c = lx->src[lx->pos];
    if (c == '"') {
      lx->pos++;
      closed = true;
      break;
    }
    if (c != '\\') {
      buf[n++] = c;
      lx->pos++;
    } else if (lx->pos + 1 >= line_end) {
      lx->pos++; /* a backslash ending the line cannot close the string */
    } else {
      bool raw_byte;
      uint32_t cp = lex_escape(lx, &raw_byte);
      if (raw_byte) {
        buf[n++] = (char)cp;
      } else {
        n += utf8_encode(cp, buf + n);
      }
    }
  }
  if (!closed) {
    fbei_ctx_error(lx->ctx, lx->file_id, tok->line, tok->col, "Unterminated string literal");
  }
  tok->str = buf;
  tok->len = n;
}

static bool lex_attribute(fbei_lexer *lx, fbei_token *tok) {
  for (size_t i = 0; i < sizeof attributes / sizeof attributes[0]; i++) {
    size_t n = strlen(attributes[i].text);
    if (lx->len - lx->pos >= n && memcmp(lx->src + lx->pos, attributes[i].text, n) == 0) {
      tok->kind = attributes[i].kind;
      lx->pos += n;
      return true;
    }
  }
  return false;
}

/* Skips a character that starts no token; a run of them is one error. */
static void skip_unknown(fbei_lexer *lx, size_t *unknown_end) {
  if (lx->pos != *unknown_end) {
    fbei_ctx_error(lx->ctx, lx->file_id, lx->line, column(lx), "Unknown token!");
  }
  bool ok = true;
  lex_utf8(lx, &ok);
  *unknown_end = lx->pos;
}

void fbei_lexer_next(fbei_lexer *lx, fbei_token *tok) {
  size_t unknown_end = SIZE_MAX;
  for (;;) {
    skip_space_and_comments(lx);
    memset(tok, 0, sizeof *tok);
    tok->start = lx->pos;
    tok->line = lx->line;
    tok->col = column(lx);
    int c = peek(lx, 0);
    if (c < 0) {
      tok->kind = FBE_TOK_EOF;
    } else if (is_ident_start(c)) {
      lex_word(lx, tok);
    } else if (is_digit(c) || (c == '-' && is_digit(peek(lx, 1))) ||
               ((c == '.' || (c == '-' && peek(lx, 1) == '.')) &&
                is_digit(peek(lx, c == '-' ? 2 : 1)))) {
      lex_number(lx, tok);
    } else if (c == '\'') {
      lex_char(lx, tok);
    } else if (c == '"') {
      lex_string(lx, tok);
    } else if (c == '[' && lex_attribute(lx, tok)) {
      /* done */
    } else {
      const char *p = c ? strchr(punctuation, c) : NULL;
      if (!p) {
        skip_unknown(lx, &unknown_end);
        continue;
      }
      tok->kind = punctuation_kinds[p - punctuation];
      lx->pos++;
    }
    tok->end = lx->pos;
    return;
  }
}
