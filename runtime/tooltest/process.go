package tooltest

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Alive reports whether pid is a live process: it exists and is not a
// zombie waiting to be reaped (Linux /proc). Specs use it to check that a
// session's Close really stopped what its tools started.
func Alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
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
