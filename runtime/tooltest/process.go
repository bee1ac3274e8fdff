package tooltest

import (
	"os"
	"strconv"
	"strings"

	"github.com/agentcore/agentcore/runtime/procgroup"
)

// Alive reports whether pid is a live process: it exists and is not a
// zombie waiting to be reaped (Linux /proc). Specs use it to check that a
// session's Close really stopped what its tools started.
func Alive(pid int) bool {
	if !procgroup.Alive(pid) {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// GroupMembers lists the live (not zombie) processes of process group
// pgid, scanning /proc: the fault specs check that a killed command left
// nothing behind, grandchildren that ignore SIGTERM included.
func GroupMembers(pgid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		// After "(comm)": state, ppid, pgrp, ...
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g == pgid {
			out = append(out, pid)
		}
	}
	return out
}
