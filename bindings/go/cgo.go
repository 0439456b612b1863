package fbe

// The core is compiled from the vendored sources (core/, zcore_*.c: tools/vendor.sh),
// statically, with the same optimisation as the other packages' builds.

/*
#cgo CFLAGS: -O2 -std=c11 -DFBE_STATIC -D_POSIX_C_SOURCE=200809L -I${SRCDIR}/core/include -I${SRCDIR}/core/src -I${SRCDIR}
#cgo LDFLAGS: -lm
#include "glue.h"
*/
import "C"
