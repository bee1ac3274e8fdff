package find

import (
	"bytes"
	"io"
	"unsafe"
)

// The string functions and the output buffer this package needs, on
// package bytes: package strings, and bufio with it, is initialised late
// in a large program (an initialiser-free package still waits its turn by
// import path), bytes among the first (see findfirst's package doc).

// asBytes is s's bytes, shared, for the bytes functions that only read.
func asBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

func hasPrefix(s, prefix string) bool { return len(s) >= len(prefix) && s[:len(prefix)] == prefix }

func hasSuffix(s, suffix string) bool {
	return len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix
}

func trimSuffix(s, suffix string) string {
	if hasSuffix(s, suffix) {
		return s[:len(s)-len(suffix)]
	}
	return s
}

func index(s, sub string) int { return bytes.Index(asBytes(s), asBytes(sub)) }

func contains(s, sub string) bool { return index(s, sub) >= 0 }

func containsAny(s, chars string) bool { return bytes.ContainsAny(asBytes(s), chars) }

func lastIndexByte(s string, c byte) int { return bytes.LastIndexByte(asBytes(s), c) }

// trimSlashes is s less its trailing slashes.
func trimSlashes(s string) string {
	for len(s) > 0 && s[len(s)-1] == '/' {
		s = s[:len(s)-1]
	}
	return s
}

func replaceAll(s, old, new string) string {
	if !contains(s, old) {
		return s
	}
	return string(bytes.ReplaceAll(asBytes(s), asBytes(old), asBytes(new)))
}

// split is strings.Split for a non-empty sep.
func split(s, sep string) []string {
	var out []string
	for {
		i := index(s, sep)
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		s = s[i+len(sep):]
	}
}

func toLower(s string) string { return string(bytes.ToLower(asBytes(s))) }

// writer is a buffered writer (bufio.Writer's part find uses): the first
// error sticks and ends the writing.
type writer struct {
	w   io.Writer
	buf []byte
	err error
}

func newWriter(w io.Writer, size int) *writer { return &writer{w: w, buf: make([]byte, 0, size)} }

func (w *writer) writeString(s string) {
	if len(w.buf)+len(s) > cap(w.buf) {
		w.flush()
		if len(s) > cap(w.buf) {
			if w.err == nil {
				_, w.err = io.WriteString(w.w, s)
			}
			return
		}
	}
	w.buf = append(w.buf, s...)
}

func (w *writer) writeByte(c byte) {
	if len(w.buf) == cap(w.buf) {
		w.flush()
	}
	w.buf = append(w.buf, c)
}

// flush writes what is buffered.
func (w *writer) flush() {
	if len(w.buf) > 0 && w.err == nil {
		_, w.err = w.w.Write(w.buf)
	}
	w.buf = w.buf[:0]
}
