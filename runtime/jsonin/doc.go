// Package jsonin is the small JSON scanner that toolgen's generated decoders
// call. It reads one JSON document from a byte slice without reflection and
// with few allocations: object iteration by key, strings (escapes and
// invalid UTF-8 handled as encoding/json does), integers and floats with
// overflow checks, booleans, null, arrays, any value as raw bytes or as a
// generic Go value.
//
// Errors are *Error values that carry the parameter path, built lazily as
// they travel up through the generated decoders (AtField, AtIndex, AtKey),
// so success costs nothing and failure reads, for the model:
//
//	parameter "limit": expected integer, got string
//	parameter "edits[1].old_string": required parameter is missing
package jsonin
