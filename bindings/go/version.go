package fbe

// #include "glue.h"
import "C"

// Version is this module's version (ci/version.sh keeps it equal to VERSION); the core
// compiled into it says the same (CoreVersion).
const Version = "0.1.0"

// CoreVersion is the version of the C core compiled into the package (fbe_version).
func CoreVersion() string { return C.GoString(C.fbe_version()) }
