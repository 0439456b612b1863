package fbe

// #include "glue.h"
import "C"

// MemoryInUse is how many bytes the core holds at the moment (fbe_memory_in_use): the
// schemas, values being encoded, views and peers not yet freed. For a program's (and
// this package's tests') leak checks.
func MemoryInUse() int { return int(C.fbe_memory_in_use()) }
