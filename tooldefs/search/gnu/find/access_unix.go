//go:build unix

package find

import "syscall"

// access is access(2).
func access(path string, mode uint32) error { return syscall.Access(path, mode) }

// isRegular reports whether stat(2) of path gives a regular file.
func isRegular(path string) bool {
	var st syscall.Stat_t
	return syscall.Stat(path, &st) == nil && st.Mode&syscall.S_IFMT == syscall.S_IFREG
}
