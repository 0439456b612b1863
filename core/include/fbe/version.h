/* Library version: compile-time macros and a run-time call. */
#ifndef FBE_VERSION_H
#define FBE_VERSION_H

#include "fbe/export.h"

#define FBE_VERSION_MAJOR 0
#define FBE_VERSION_MINOR 1
#define FBE_VERSION_PATCH 0
#define FBE_VERSION_STRING "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the linked library, "MAJOR.MINOR.PATCH". Static string. */
FBE_API const char *fbe_version(void);

#ifdef __cplusplus
}
#endif
#endif
