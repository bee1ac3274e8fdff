package openai

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// maxEvent bounds one server-sent event's data (a chunk is a few hundred
// bytes; a whole tool call's arguments in one chunk can be large).
const maxEvent = 32 << 20

// sseReader reads the data of server-sent events (text/event-stream): the
// "data:" lines of an event joined by newlines, dispatched at the blank
// line that ends it. Comments, "event:", "id:" and "retry:" lines are
// ignored; an event the stream ends in the middle of is dropped, as the
// format says.
type sseReader struct {
	r    *bufio.Reader
	data []byte
	line []byte
}

func newSSEReader(r io.Reader) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(r, 16<<10)}
}

// Next returns the next event's data. It returns io.EOF when the stream
// ends, or the read's error.
func (s *sseReader) Next() ([]byte, error) {
	s.data = s.data[:0]
	has := false
	for {
		line, err := s.readLine()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, io.EOF
			}
			return nil, err
		}
		if len(line) == 0 {
			if has {
				return s.data, nil
			}
			continue
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
		if string(name) != "data" {
			continue // a comment (": ...") or a field the provider does not use
		}
		if has {
			s.data = append(s.data, '\n')
		}
		has = true
		if len(s.data)+len(value) > maxEvent {
			return nil, errors.New("a server-sent event is larger than 32 MB")
		}
		s.data = append(s.data, value...)
	}
}

// readLine returns one line without its end (LF, CRLF or CR before LF).
// A line longer than the buffer is gathered in s.line.
func (s *sseReader) readLine() ([]byte, error) {
	line, err := s.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		s.line = append(s.line[:0], line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			if len(s.line) > maxEvent {
				return nil, errors.New("a server-sent event line is larger than 32 MB")
			}
			line, err = s.r.ReadSlice('\n')
			s.line = append(s.line, line...)
		}
		line = s.line
	}
	if err != nil {
		if err == io.EOF && len(line) > 0 {
			// The last line has no end: the event it belongs to is
			// unfinished, and dropped.
			return nil, io.EOF
		}
		return nil, err
	}
	line = bytes.TrimSuffix(line[:len(line)-1], []byte("\r"))
	return line, nil
}
