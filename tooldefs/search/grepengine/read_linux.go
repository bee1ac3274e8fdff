package grepengine

import (
	"bytes"
	"syscall"
	"time"
)

func init() { readFile = readFileLinux }

// readFileLinux reads with raw system calls (open, fstat, read, close):
// os.File would also try to register every file with the network poller.
// It reads the first binaryWindow bytes first and stops there when they
// hold a NUL byte, so a large binary file costs one small read.
func readFileLinux(path string, buf []byte) ([]byte, time.Time, bool, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, time.Time{}, false, err
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, time.Time{}, false, err
	}
	mtime := time.Unix(st.Mtim.Unix())
	size := int(st.Size)
	if cap(buf) < min(size+1, binaryWindow) {
		buf = make([]byte, 0, binaryWindow)
	}
	buf = buf[:0]
	checked := false
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		end := cap(buf)
		if !checked {
			end = min(end, binaryWindow)
		}
		n, err := syscall.Read(fd, buf[len(buf):end])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return buf, mtime, false, err
		}
		buf = buf[:len(buf)+n]
		eof := n == 0
		whole := size > 0 && len(buf) >= size // read in full at its stat size
		if !checked && (eof || whole || len(buf) >= binaryWindow) {
			checked = true
			if bytes.IndexByte(buf, 0) >= 0 {
				return buf, mtime, true, nil
			}
			if !eof && !whole && cap(buf) < size+1 {
				// Text so far: make room for the rest in one go.
				grown := make([]byte, len(buf), size+1)
				copy(grown, buf)
				buf = grown
			}
		}
		if eof || whole {
			// Skip the read that would confirm EOF: files do not grow
			// while we look.
			return buf, mtime, false, nil
		}
	}
}
