//go:build windows

package gnu

import "syscall"

// oNoFollow is 0: Windows opens the target of a link.
const oNoFollow = 0

// openFD opens path, its handle standing for a file descriptor.
func openFD(path string, flags int) (int, error) {
	h, err := syscall.Open(path, flags, 0)
	return int(h), err
}

// readFD reads from the handle fd.
func readFD(fd int, b []byte) (int, error) { return syscall.Read(syscall.Handle(fd), b) }

// closeFD closes the handle fd.
func closeFD(fd int) error { return syscall.Close(syscall.Handle(fd)) }
