/* Internal (never installed): for core/, core/cli/, bindings/, swig/, tests/ and benchmarks/ of this tree only. */
/* Internal: locale-independent double <-> text for JSON. */
#ifndef FBE_FLOAT_TEXT_H
#define FBE_FLOAT_TEXT_H

#include <stddef.h>

/* Room for any output of fbei_double_format, NUL included. */
#define FBE_DOUBLE_TEXT_MAX 32

/* Writes the shortest text that reads back as exactly v, in the style of Python's
 * repr(float): "1000.0", "1.5", "1e+16", "-1.23456e+125", "5e-324", "-0.0".
 * v must be finite. Returns the length (without the NUL). */
size_t fbei_double_format(double v, char out[FBE_DOUBLE_TEXT_MAX]);

/* Converts a number in JSON syntax (-?int(.frac)?([eE][+-]?exp)?, already checked)
 * to the nearest double (as_float = 0) or float (as_float = 1, rounded once, straight
 * from the text). Returns 0, or -1 when the magnitude is too large for the type.
 * Values too small become zero or subnormal, like strtod. */
int fbei_number_parse(const char *text, size_t n, int as_float, double *out);

#endif
