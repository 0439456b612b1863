/* Symbol visibility: only what the public headers declare is exported. */
#ifndef FBE_EXPORT_H
#define FBE_EXPORT_H

#if defined(FBE_STATIC)
#define FBE_API
#elif defined(_WIN32)
#if defined(FBE_BUILDING)
#define FBE_API __declspec(dllexport)
#else
#define FBE_API __declspec(dllimport)
#endif
#elif defined(__GNUC__)
#define FBE_API __attribute__((visibility("default")))
#else
#define FBE_API
#endif

/* A function that only reports a failure: callers' paths to it are cold (the compiler
 * keeps them out of the hot code, and small callers stay small enough to inline). */
#if defined(__GNUC__)
#define FBE_COLD __attribute__((cold))
#else
#define FBE_COLD
#endif

#endif
