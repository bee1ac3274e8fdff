//go:build unix

package gnu

import "syscall"

// oNoFollow is O_NOFOLLOW.
const oNoFollow = syscall.O_NOFOLLOW

// openFD is open(2).
func openFD(path string, flags int) (int, error) { return syscall.Open(path, flags, 0) }

// readFD is read(2).
func readFD(fd int, b []byte) (int, error) { return syscall.Read(fd, b) }

// closeFD is close(2).
func closeFD(fd int) error { return syscall.Close(fd) }
