package shell

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// outputStats describes a finished output file.
type outputStats struct {
	bytes, chars int64
	lines        int
	truncated    bool
	// text is the whole output when not truncated; head and tail otherwise.
	text, head, tail string
}

// readOutput measures the output in f and returns it whole when it has at
// most maxChars characters, else its first and last characters. Memory use
// is bounded by the cap, not by the output.
func readOutput(f *os.File, maxChars int) (outputStats, error) {
	var st outputStats
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return st, err
	}
	buf := make([]byte, 64<<10)
	var lastByte byte
	for {
		n, err := f.Read(buf)
		for _, b := range buf[:n] {
			if b&0xC0 != 0x80 { // not a UTF-8 continuation byte
				st.chars++
			}
			if b == '\n' {
				st.lines++
			}
		}
		if n > 0 {
			st.bytes += int64(n)
			lastByte = buf[n-1]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return st, err
		}
	}
	if st.bytes > 0 && lastByte != '\n' {
		st.lines++
	}
	if st.chars <= int64(maxChars) {
		b := make([]byte, st.bytes)
		if _, err := f.ReadAt(b, 0); err != nil && err != io.EOF {
			return st, err
		}
		st.text = clean(string(b))
		return st, nil
	}
	st.truncated = true
	keep := (maxChars - noteBudget) / 2
	if keep < 1 {
		keep = 1
	}
	head, err := readAt(f, 0, int64(keep)*utf8.UTFMax)
	if err != nil {
		return st, err
	}
	tailStart := max(st.bytes-int64(keep)*utf8.UTFMax, 0)
	tail, err := readAt(f, tailStart, st.bytes-tailStart)
	if err != nil {
		return st, err
	}
	st.head = clean(firstChars(head, keep))
	st.tail = clean(lastChars(tail, keep))
	return st, nil
}

// noteBudget is room kept for the truncation note inside the cap.
const noteBudget = 400

func truncationNote(st outputStats, path string) string {
	return fmt.Sprintf("\n\n[... output truncated: %s characters (%s lines) in total; the first and last %s characters are shown. The full output is in %s ...]\n\n",
		strconv.FormatInt(st.chars, 10), strconv.Itoa(st.lines), strconv.Itoa(utf8.RuneCountInString(st.head)), path)
}

func readAt(f *os.File, off, n int64) ([]byte, error) {
	b := make([]byte, n)
	m, err := f.ReadAt(b, off)
	if err != nil && err != io.EOF {
		return nil, err
	}
	return b[:m], nil
}

// firstChars returns the first n characters of b (a UTF-8 prefix).
func firstChars(b []byte, n int) string {
	i, count := 0, 0
	for i < len(b) && count < n {
		_, size := utf8.DecodeRune(b[i:])
		i += size
		count++
	}
	return string(b[:i])
}

// lastChars returns the last n characters of b, counting from the end.
func lastChars(b []byte, n int) string {
	i, count := len(b), 0
	for i > 0 && count < n {
		_, size := utf8.DecodeLastRune(b[:i])
		i -= size
		count++
	}
	return string(b[i:])
}

// clean makes output safe to send: valid UTF-8, no trailing newlines.
func clean(s string) string {
	return strings.TrimRight(strings.ToValidUTF8(s, "\uFFFD"), "\n")
}
