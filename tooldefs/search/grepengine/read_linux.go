package grepengine

import "syscall"

func init() { readFile = readFileLinux }

// readFileLinux reads with raw system calls: open, fstat, one read, close.
// os.File would also try to register every file with the network poller.
func readFileLinux(path string, buf []byte) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, err
	}
	size := int(st.Size)
	if cap(buf) < size+1 {
		buf = make([]byte, 0, max(size+1, 64<<10))
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return buf, err
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
		if len(buf) == size && len(buf) < cap(buf) {
			// One more read confirms EOF; skip it when the file was read in
			// full at its stat size (files do not grow while we look).
			return buf, nil
		}
	}
}
