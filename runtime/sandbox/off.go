package sandbox

import (
	"fmt"
	"sync/atomic"
)

// Off is a session whose settings turned the sandbox on but whose sandbox
// could not start, without sandbox.failIfUnavailable: its commands run
// unconfined, and the first result of the session says so (Notice). The
// session offers it to tools as a service of the tool context.
type Off struct {
	// Why is the reason the sandbox could not start.
	Why  error
	told atomic.Bool
}

// Notice is the note for the session's first command result, "" for
// every later one.
func (o *Off) Notice() string {
	if o == nil || o.told.Swap(true) {
		return ""
	}
	return o.Warning()
}

// Warning says that the sandbox is off and why.
func (o *Off) Warning() string {
	return fmt.Sprintf("[sandbox] the sandbox is off, commands run without it: %v. Set sandbox.failIfUnavailable to refuse to run commands instead.", o.Why)
}
