//go:build windows

package find

import (
	"os"
	"syscall"
)

// access checks that path exists; Windows has no permission bits to check
// mode against, except that a read-only file is not writable (mode 2).
func access(path string, mode uint32) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if mode&2 != 0 && fi.Mode().Perm()&0o200 == 0 {
		return syscall.EACCES
	}
	return nil
}

// isRegular reports whether path is a regular file, following links.
func isRegular(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}
