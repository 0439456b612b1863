/* Internal: the syntax tree of one .fbe file, as written (SCHEMA.md 10). Lives in
 * the work arena of the load; every node keeps its source position. */
#ifndef FBE_SCHEMA_AST_H
#define FBE_SCHEMA_AST_H

#include <stdbool.h>
#include <stdint.h>
#include "fbe/schema.h"

typedef struct fbei_ast_pos {
  uint32_t line, col;
} fbei_ast_pos;

/* A dotted name: proto.Order, State.good, proto.State.good. */
typedef struct fbei_ast_name {
  fbei_ast_pos pos;
  uint32_t nparts;
  const char **parts;
  const char *text;          /* the parts joined with '.' */
} fbei_ast_name;

/* An integer literal as sign + magnitude (-2^63 .. 2^64-1). */
typedef struct fbei_ast_int {
  fbei_ast_pos pos;
  bool neg, hex;
  uint64_t mag;
  const char *text;
} fbei_ast_int;

typedef enum fbei_ast_const_kind {
  FBE_AST_CONST_INT, FBE_AST_CONST_FLOAT, FBE_AST_CONST_CHAR, FBE_AST_CONST_STRING,
  FBE_AST_CONST_TRUE, FBE_AST_CONST_FALSE, FBE_AST_CONST_NULL, FBE_AST_CONST_EPOCH,
  FBE_AST_CONST_UTC, FBE_AST_CONST_UUID0, FBE_AST_CONST_UUID1, FBE_AST_CONST_UUID4,
  FBE_AST_CONST_NAME
} fbei_ast_const_kind;

/* A field default: constant { "|" dotted_name }. */
typedef struct fbei_ast_default {
  fbei_ast_pos pos;
  fbei_ast_const_kind kind;
  const char *text;          /* the whole default as written, for messages */
  const char *literal;       /* INT/FLOAT: the number's text */
  fbei_ast_int ival;          /* INT */
  uint32_t ch;               /* CHAR: code point */
  const char *str;           /* STRING: decoded, NUL-terminated */
  uint32_t len;
  fbei_ast_name name;         /* NAME */
  uint32_t nmore;            /* names after '|' */
  fbei_ast_name *more;
} fbei_ast_default;

/* A simple type: a type keyword or a (dotted) type name. */
typedef struct fbei_ast_simple {
  fbei_ast_pos pos;
  bool is_named;
  fbe_kind prim;             /* !is_named */
  fbei_ast_name name;         /* is_named */
  const char *text;
} fbei_ast_simple;

typedef enum fbei_ast_form {
  FBE_AST_PLAIN,             /* T */
  FBE_AST_OPTIONAL,          /* T? */
  FBE_AST_RESET,             /* T~ */
  FBE_AST_ARRAY,             /* T[N], T?[N] */
  FBE_AST_VECTOR,            /* T[], T?[] */
  FBE_AST_LIST,              /* T(), T?() */
  FBE_AST_SET,               /* T! */
  FBE_AST_MAP,               /* V<K>, V?<K> */
  FBE_AST_HASH               /* V{K}, V?{K} */
} fbei_ast_form;

typedef struct fbei_ast_type {
  fbei_ast_pos pos;
  fbei_ast_form form;
  fbei_ast_simple elem;       /* T, or the map value V */
  bool elem_optional;        /* the '?' of T?[N], T?[], T?(), V?<K>, V?{K} */
  fbei_ast_simple key;        /* MAP/HASH */
  fbei_ast_int size;          /* ARRAY */
  const char *text;          /* as written, for messages */
} fbei_ast_type;

typedef struct fbei_ast_field {
  fbei_ast_pos pos;           /* of the name, or of [id] */
  bool hidden, deprecated, key, id;
  fbei_ast_type type;
  const char *name;          /* "id" for an [id] field */
  bool has_default;
  fbei_ast_default def;
} fbei_ast_field;

typedef enum fbei_ast_value_kind {
  FBE_AST_VALUE_AUTO,        /* no '=' */
  FBE_AST_VALUE_INT,
  FBE_AST_VALUE_CHAR,
  FBE_AST_VALUE_NAMES        /* one name (enum alias) or names joined by '|' (flags) */
} fbei_ast_value_kind;

/* One value of an enum or flags type. */
typedef struct fbei_ast_value {
  fbei_ast_pos pos;           /* of the name */
  const char *name;
  bool hidden, deprecated;
  fbei_ast_value_kind kind;
  fbei_ast_int ival;          /* INT */
  uint32_t ch;               /* CHAR */
  fbei_ast_pos literal_pos;   /* INT/CHAR */
  const char *literal;       /* INT/CHAR text */
  uint32_t nnames;           /* NAMES */
  const char **names;
  fbei_ast_pos *name_pos;
} fbei_ast_value;

typedef struct fbei_ast_enum {
  fbei_ast_pos pos;           /* of the name */
  const char *name;
  bool is_flags, hidden, deprecated;
  fbe_kind base;             /* FBE_KIND_INT32 when not written */
  uint32_t nvalues, values_cap;
  fbei_ast_value *values;
} fbei_ast_enum;

typedef enum fbei_ast_numbering {
  FBE_AST_NUM_AUTO,          /* no suffix */
  FBE_AST_NUM_PLUS,          /* (+N) */
  FBE_AST_NUM_EXPLICIT,      /* (N) */
  FBE_AST_NUM_BASE           /* (base) */
} fbei_ast_numbering;

typedef struct fbei_ast_struct {
  fbei_ast_pos pos;           /* of the name */
  const char *name;
  bool is_message, hidden, deprecated;
  fbei_ast_numbering numbering;
  fbei_ast_int number;        /* PLUS / EXPLICIT */
  bool has_base;
  fbei_ast_name base;
  bool is_request, has_response, reject_global;
  fbei_ast_name response;
  uint32_t nrejects, rejects_cap;
  fbei_ast_name *rejects;
  uint32_t nfields, fields_cap;
  fbei_ast_field *fields;
} fbei_ast_struct;

typedef struct fbei_ast_import {
  fbei_ast_pos pos;
  const char *name;
} fbei_ast_import;

typedef struct fbei_ast_file {
  uint32_t file_id;
  bool has_domain;
  fbei_ast_name domain;
  const char *package;       /* NULL when the header is broken */
  fbei_ast_pos package_pos;
  bool has_offset;
  fbei_ast_int offset;
  bool has_version;
  fbei_ast_pos version_pos;
  const char *version;       /* the FLOAT text */
  uint32_t nimports, imports_cap;
  fbei_ast_import *imports;
  uint32_t nenums, enums_cap;     /* enums and flags, declaration order */
  fbei_ast_enum *enums;
  uint32_t nstructs, structs_cap; /* structs and messages, declaration order */
  fbei_ast_struct *structs;
} fbei_ast_file;

#endif
