package sandbox

import "strconv"

// Limits bound what one sandboxed command may take (sandbox.limits); zero
// means no bound.
type Limits struct {
	// MemoryBytes bounds the command's memory (its address space, each
	// process).
	MemoryBytes int64
	// Processes bounds the processes the command may have at once.
	Processes int
}

func (s *Spec) limits() string {
	return strconv.FormatInt(s.Limits.MemoryBytes, 10) + "/" + strconv.Itoa(s.Limits.Processes)
}
