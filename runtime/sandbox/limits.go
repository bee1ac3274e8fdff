package sandbox

import "strconv"

// Limits bound what one sandboxed command may take (sandbox.limits); zero
// means no bound. A cgroup per command holds them where this process may
// make one (see cgroup_linux.go), rlimits where not (prefix).
type Limits struct {
	// MemoryBytes bounds the command's memory: its processes' together
	// in a cgroup, each process's address space as an rlimit.
	MemoryBytes int64
	// Processes bounds the processes the command may have at once
	// (threads included, in a cgroup).
	Processes int
}

func (s *Spec) limits() string {
	return strconv.FormatInt(s.Limits.MemoryBytes, 10) + "/" + strconv.Itoa(s.Limits.Processes)
}

// prefix is the shell that sets l's bounds as rlimits on the bash that runs the
// command, before the command and on its line (so that bash's line
// numbers stay the command's): hard limits, which a command cannot raise
// (it has no capability left). A bound bash cannot set fails the command
// rather than run it unbounded.
func (l Limits) prefix() string {
	p := ""
	if l.MemoryBytes > 0 {
		p += " -v " + strconv.FormatInt(max(l.MemoryBytes>>10, 1), 10)
	}
	if l.Processes > 0 {
		p += " -u " + strconv.Itoa(l.Processes)
	}
	if p == "" {
		return ""
	}
	return "ulimit -H -S" + p + " || exit 126; "
}

// note explains a failure that reads like a limit's, or returns "".
func (l Limits) note(output string) string {
	switch {
	case l.MemoryBytes > 0 && containsAny(output, "cannot allocate", "Cannot allocate memory", "MemoryError", "out of memory", "std::bad_alloc", "fatal error: runtime: out of memory"):
		return "\n[sandbox] the command ran out of memory: sandbox.limits.memoryMB bounds each of its processes to " + strconv.FormatInt(l.MemoryBytes>>20, 10) + " MiB"
	case l.Processes > 0 && containsAny(output, "Resource temporarily unavailable", "fork: retry", "Cannot fork"):
		return "\n[sandbox] the command could not start more processes: sandbox.limits.maxProcesses is " + strconv.Itoa(l.Processes)
	}
	return ""
}
