package fbe

import (
	"encoding/hex"
	"time"
)

// Decimal is an FBE decimal as its exact text ("123.450"): every digit and the scale
// are kept. The core parses it when the value is encoded.
type Decimal string

// UUID is an FBE uuid, its 16 bytes in wire order (RFC 4122 byte order).
type UUID [16]byte

// String is the uuid's 8-4-4-4-12 lowercase text.
func (u UUID) String() string {
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return string(b[:])
}

// ParseUUID reads a uuid's text by the core's rule.
func ParseUUID(text string) (UUID, error) { return parseUUID(text) }

// Timestamp is an FBE timestamp: nanoseconds since the Unix epoch, as the wire holds
// them (a time.Time is accepted wherever a Timestamp is; decode gives a Timestamp,
// which round-trips exactly).
type Timestamp uint64

// Time is the timestamp as a time.Time (UTC).
func (t Timestamp) Time() time.Time { return time.Unix(0, int64(t)).UTC() }

// MapEntry is one entry of a map or hash field.
type MapEntry struct {
	Key, Value any
}

// Map is a map or hash field's value: its entries in wire order (a Go map has no
// order, and FBE's keys need not be comparable Go values). Encode also takes a Go map,
// whose entries it writes in the order of their sorted keys.
type Map []MapEntry

// Get is the value of the first entry whose key equals key (==), and whether there is one.
func (m Map) Get(key any) (any, bool) {
	for _, e := range m {
		if e.Key == key {
			return e.Value, true
		}
	}
	return nil, false
}
