package fbe

// #include "glue.h"
import "C"

import "unsafe"

// parseUUID reads uuid text by the core's rule (fbe_uuid_parse), its error the core's.
func parseUUID(text string) (UUID, error) {
	var u UUID
	var err C.fbe_error
	c := cstr(text)
	defer cfree(c)
	if C.fbego_uuid_parse(c, C.size_t(len(text)), (*C.uint8_t)(unsafe.Pointer(&u[0])), &err) != 0 {
		return UUID{}, errorOf(&err)
	}
	return u, nil
}
