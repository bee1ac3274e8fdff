//go:build linux || darwin

package provider

import (
	"errors"
	"net"
	"syscall"
)

// alive reports whether the server has not closed c while it waited to
// be used: an HTTP server sends nothing before the request, so a peek
// that would block is the healthy answer. A connection that is not alive
// is closed.
func alive(c net.Conn) bool {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return true
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return true
	}
	healthy := true
	err = rc.Read(func(fd uintptr) bool {
		var b [1]byte
		// Nothing to read is the answer wanted; data, or the end of
		// the stream (0 bytes, no error), is a connection to drop.
		_, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		healthy = errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EWOULDBLOCK)
		return true // one look, never a wait
	})
	if err != nil || !healthy {
		_ = c.Close()
		return false
	}
	return true
}
