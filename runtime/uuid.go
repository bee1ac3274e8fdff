package runtime

import (
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
)

// NewUUID returns a random (version 4) UUID, the form of Claude Code's
// session ids and event uuids. The bits come from math/rand/v2's global
// generator: ChaCha8, seeded by the runtime from the operating system's
// entropy, so ids are unpredictable without the first getrandom call's
// set-up (a vDSO state page) on the way to a session's first request.
// An id names a session or an event; it is no secret.
func NewUUID() string {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], rand.Uint64())
	binary.LittleEndian.PutUint64(b[8:], rand.Uint64())
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:], b[10:])
	return string(out[:])
}
