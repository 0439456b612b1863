/* Internal: recursive-descent parser of one .fbe file into its syntax tree. */
#ifndef FBE_SCHEMA_PARSER_H
#define FBE_SCHEMA_PARSER_H

#include <stddef.h>
#include <stdint.h>
#include "schema/schema_ast.h"
#include "schema/schema_ctx.h"

/* Parses src[0..len) (need not be NUL-terminated). Every lexical and syntax error
 * is reported to ctx (the parser recovers at the next ';', '}' or declaration);
 * the returned tree (work arena, never NULL) holds what could be parsed. */
fbei_ast_file *fbei_parse_file(fbei_load_ctx *ctx, uint32_t file_id, const char *src, size_t len);

#endif
