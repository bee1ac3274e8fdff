package grepengine

import (
	"bytes"
	"io"
	"os"
	"time"
)

// readFile reads the whole file at path into buf's storage (growing it
// when needed) and returns the content and modification time, or only its
// start and true when a NUL byte in the first binaryWindow bytes makes it
// binary. It is replaced
// by a version with fewer system calls where one exists (read_linux.go).
var readFile = readFileOS

func readFileOS(path string, buf []byte) ([]byte, time.Time, bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, time.Time{}, false, err
	}
	defer f.Close()
	var mtime time.Time
	if fi, err := f.Stat(); err == nil {
		mtime = fi.ModTime()
	}
	if cap(buf) < binaryWindow {
		buf = make([]byte, 0, binaryWindow)
	}
	head, err := io.ReadFull(f, buf[:binaryWindow])
	buf = buf[:head]
	if bytes.IndexByte(buf, 0) >= 0 {
		return buf, mtime, true, nil
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return buf, mtime, false, nil
	}
	if err != nil {
		return buf, mtime, false, err
	}
	data, err := readAll(f, buf)
	return data, mtime, false, err
}

func readAll(r io.Reader, buf []byte) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir()
}
