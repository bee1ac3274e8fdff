// Package lite has the string functions and the buffered writer that the
// embedded grep and find need, on package bytes alone. Package strings,
// and bufio and fmt with it, is initialised late in a large program (a
// package without an initialiser of its own still takes its turn by
// import path), bytes among the first; so the packages that must start
// before the rest of the binary (see package early) use these.
package lite

import (
	"bytes"
	"io"
	"unsafe"
)

// asBytes is s's bytes, shared, for the bytes functions that only read.
func asBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// HasPrefix is strings.HasPrefix.
func HasPrefix(s, prefix string) bool { return len(s) >= len(prefix) && s[:len(prefix)] == prefix }

// HasSuffix is strings.HasSuffix.
func HasSuffix(s, suffix string) bool {
	return len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix
}

// TrimPrefix is strings.TrimPrefix.
func TrimPrefix(s, prefix string) string {
	if HasPrefix(s, prefix) {
		return s[len(prefix):]
	}
	return s
}

// TrimSuffix is strings.TrimSuffix.
func TrimSuffix(s, suffix string) string {
	if HasSuffix(s, suffix) {
		return s[:len(s)-len(suffix)]
	}
	return s
}

// TrimSlashes is s less its trailing slashes (strings.TrimRight(s, "/")).
func TrimSlashes(s string) string {
	for len(s) > 0 && s[len(s)-1] == '/' {
		s = s[:len(s)-1]
	}
	return s
}

// Index is strings.Index.
func Index(s, sub string) int { return bytes.Index(asBytes(s), asBytes(sub)) }

// Contains is strings.Contains.
func Contains(s, sub string) bool { return Index(s, sub) >= 0 }

// ContainsAny is strings.ContainsAny.
func ContainsAny(s, chars string) bool { return bytes.ContainsAny(asBytes(s), chars) }

// LastIndexByte is strings.LastIndexByte.
func LastIndexByte(s string, c byte) int { return bytes.LastIndexByte(asBytes(s), c) }

// Cut is strings.Cut.
func Cut(s, sep string) (before, after string, found bool) {
	if i := Index(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// ReplaceAll is strings.ReplaceAll.
func ReplaceAll(s, old, new string) string {
	if !Contains(s, old) {
		return s
	}
	return string(bytes.ReplaceAll(asBytes(s), asBytes(old), asBytes(new)))
}

// Split is strings.Split for a non-empty sep.
func Split(s, sep string) []string {
	var out []string
	for {
		i := Index(s, sep)
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		s = s[i+len(sep):]
	}
}

// Join is strings.Join.
func Join(elems []string, sep string) string {
	var b []byte
	for i, e := range elems {
		if i > 0 {
			b = append(b, sep...)
		}
		b = append(b, e...)
	}
	return string(b)
}

// ToLower is strings.ToLower.
func ToLower(s string) string { return string(bytes.ToLower(asBytes(s))) }

// Writer is the part of bufio.Writer the engines use: the first error
// sticks, and later writes report it.
type Writer struct {
	w   io.Writer
	buf []byte
	err error
}

// NewWriter buffers w with size bytes.
func NewWriter(w io.Writer, size int) *Writer { return &Writer{w: w, buf: make([]byte, 0, size)} }

// Write buffers p, or writes it through when it does not fit.
func (w *Writer) Write(p []byte) (int, error) {
	if len(w.buf)+len(p) > cap(w.buf) {
		if err := w.Flush(); err != nil {
			return 0, err
		}
		if len(p) > cap(w.buf) {
			n, err := w.w.Write(p)
			w.err = err
			return n, err
		}
	}
	w.buf = append(w.buf, p...)
	return len(p), nil
}

// WriteString is Write for a string.
func (w *Writer) WriteString(s string) (int, error) {
	if len(w.buf)+len(s) <= cap(w.buf) {
		w.buf = append(w.buf, s...)
		return len(s), nil
	}
	return w.Write([]byte(s))
}

// WriteByte buffers c.
func (w *Writer) WriteByte(c byte) error {
	if len(w.buf) == cap(w.buf) {
		if err := w.Flush(); err != nil {
			return err
		}
	}
	w.buf = append(w.buf, c)
	return nil
}

// Flush writes what is buffered.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	if len(w.buf) > 0 {
		_, w.err = w.w.Write(w.buf)
	}
	w.buf = w.buf[:0]
	return w.err
}
