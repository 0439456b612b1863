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

#endif
