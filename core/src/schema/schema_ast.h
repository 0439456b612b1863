/* Internal: the syntax tree of one .fbe file, as written (SCHEMA.md 10). Lives in
 * the work arena of the load; every node keeps its source position. */
#ifndef FBE_SCHEMA_AST_H
#define FBE_SCHEMA_AST_H

#include <stdbool.h>
#include <stdint.h>
#include "fbe/schema.h"

typedef struct fbe_ast_pos {
  uint32_t line, col;
} fbe_ast_pos;

/* A dotted name: proto.Order, State.good, proto.State.good. */
typedef struct fbe_ast_name {
  fbe_ast_pos pos;
  uint32_t nparts;
  const char **parts;
  const char *text;          /* the parts joined with '.' */
} fbe_ast_name;

/* An integer literal as sign + magnitude (-2^63 .. 2^64-1). */
typedef struct fbe_ast_int {
  fbe_ast_pos pos;
  bool neg, hex;
  uint64_t mag;
  const char *text;
} fbe_ast_int;

typedef enum fbe_ast_const_kind {
  FBE_AST_CONST_INT, FBE_AST_CONST_FLOAT, FBE_AST_CONST_CHAR, FBE_AST_CONST_STRING,
  FBE_AST_CONST_TRUE, FBE_AST_CONST_FALSE, FBE_AST_CONST_NULL, FBE_AST_CONST_EPOCH,
  FBE_AST_CONST_UTC, FBE_AST_CONST_UUID0, FBE_AST_CONST_UUID1, FBE_AST_CONST_UUID4,
  FBE_AST_CONST_NAME
} fbe_ast_const_kind;

/* A field default: constant { "|" dotted_name }. */
typedef struct fbe_ast_default {
  fbe_ast_pos pos;
  fbe_ast_const_kind kind;
  const char *text;          /* the whole default as written, for messages */
  const char *literal;       /* INT/FLOAT: the number's text */
  fbe_ast_int ival;          /* INT */
  uint32_t ch;               /* CHAR: code point */
  const char *str;           /* STRING: decoded, NUL-terminated */
  uint32_t len;
  fbe_ast_name name;         /* NAME */
  uint32_t nmore;            /* names after '|' */
  fbe_ast_name *more;
} fbe_ast_default;

/* A simple type: a type keyword or a (dotted) type name. */
typedef struct fbe_ast_simple {
  fbe_ast_pos pos;
  bool is_named;
  fbe_kind prim;             /* !is_named */
  fbe_ast_name name;         /* is_named */
  const char *text;
} fbe_ast_simple;

typedef enum fbe_ast_form {
  FBE_AST_PLAIN,             /* T */
  FBE_AST_OPTIONAL,          /* T? */
  FBE_AST_RESET,             /* T~ */
  FBE_AST_ARRAY,             /* T[N], T?[N] */
  FBE_AST_VECTOR,            /* T[], T?[] */
  FBE_AST_LIST,              /* T(), T?() */
  FBE_AST_SET,               /* T! */
  FBE_AST_MAP,               /* V<K>, V?<K> */
  FBE_AST_HASH               /* V{K}, V?{K} */
} fbe_ast_form;

typedef struct fbe_ast_type {
  fbe_ast_pos pos;
  fbe_ast_form form;
  fbe_ast_simple elem;       /* T, or the map value V */
  bool elem_optional;        /* the '?' of T?[N], T?[], T?(), V?<K>, V?{K} */
  fbe_ast_simple key;        /* MAP/HASH */
  fbe_ast_int size;          /* ARRAY */
  const char *text;          /* as written, for messages */
} fbe_ast_type;

typedef struct fbe_ast_field {
  fbe_ast_pos pos;           /* of the name, or of [id] */
  bool hidden, deprecated, key, id;
  fbe_ast_type type;
  const char *name;          /* "id" for an [id] field */
  bool has_default;
  fbe_ast_default def;
} fbe_ast_field;

typedef enum fbe_ast_value_kind {
  FBE_AST_VALUE_AUTO,        /* no '=' */
  FBE_AST_VALUE_INT,
  FBE_AST_VALUE_CHAR,
  FBE_AST_VALUE_NAMES        /* one name (enum alias) or names joined by '|' (flags) */
} fbe_ast_value_kind;

/* One value of an enum or flags type. */
typedef struct fbe_ast_value {
  fbe_ast_pos pos;           /* of the name */
  const char *name;
  bool hidden, deprecated;
  fbe_ast_value_kind kind;
  fbe_ast_int ival;          /* INT */
  uint32_t ch;               /* CHAR */
  fbe_ast_pos literal_pos;   /* INT/CHAR */
  const char *literal;       /* INT/CHAR text */
  uint32_t nnames;           /* NAMES */
  const char **names;
  fbe_ast_pos *name_pos;
} fbe_ast_value;

typedef struct fbe_ast_enum {
  fbe_ast_pos pos;           /* of the name */
  const char *name;
  bool is_flags, hidden, deprecated;
  fbe_kind base;             /* FBE_KIND_INT32 when not written */
  uint32_t nvalues, values_cap;
  fbe_ast_value *values;
} fbe_ast_enum;

typedef enum fbe_ast_numbering {
  FBE_AST_NUM_AUTO,          /* no suffix */
  FBE_AST_NUM_PLUS,          /* (+N) */
  FBE_AST_NUM_EXPLICIT,      /* (N) */
  FBE_AST_NUM_BASE           /* (base) */
} fbe_ast_numbering;

typedef struct fbe_ast_struct {
  fbe_ast_pos pos;           /* of the name */
  const char *name;
  bool is_message, hidden, deprecated;
  fbe_ast_numbering numbering;
  fbe_ast_int number;        /* PLUS / EXPLICIT */
  bool has_base;
  fbe_ast_name base;
  bool is_request, has_response, reject_global;
  fbe_ast_name response;
  uint32_t nrejects, rejects_cap;
  fbe_ast_name *rejects;
  uint32_t nfields, fields_cap;
  fbe_ast_field *fields;
} fbe_ast_struct;

typedef struct fbe_ast_import {
  fbe_ast_pos pos;
  const char *name;
} fbe_ast_import;

typedef struct fbe_ast_file {
  uint32_t file_id;
  bool has_domain;
  fbe_ast_name domain;
  const char *package;       /* NULL when the header is broken */
  fbe_ast_pos package_pos;
  bool has_offset;
  fbe_ast_int offset;
  bool has_version;
  fbe_ast_pos version_pos;
  const char *version;       /* the FLOAT text */
  uint32_t nimports, imports_cap;
  fbe_ast_import *imports;
  uint32_t nenums, enums_cap;     /* enums and flags, declaration order */
  fbe_ast_enum *enums;
  uint32_t nstructs, structs_cap; /* structs and messages, declaration order */
  fbe_ast_struct *structs;
} fbe_ast_file;

#endif
