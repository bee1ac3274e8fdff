package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcore/agentcore/runtime/procgroup"
)

// DefaultTerminateDuration is how long a stdio server gets to exit after
// its stdin closes before its process group is sent SIGTERM. Most
// servers exit at once when stdin closes; those that do not (the
// reference server-everything) would otherwise hold up agentcore's exit.
const DefaultTerminateDuration = 50 * time.Millisecond

// killDelay is how long a server's process group gets after SIGTERM
// before SIGKILL.
const killDelay = 500 * time.Millisecond

// maxLineLength bounds one line of a server's stdout (the SDK's limit for
// one message); a longer line is skipped.
const maxLineLength = sdk.DefaultMaxLineLength

// stdioTransport runs a server's command and speaks newline-delimited
// JSON-RPC over its stdin and stdout, as the SDK's CommandTransport does,
// with two differences. A line of stdout that is not a JSON-RPC message
// (a banner, a log line, an answer cut short) is skipped and logged
// rather than ending the connection, as Claude Code does; when such a
// line was an answer to a call, that call alone fails. And closing ends
// the whole process group promptly: stdin is closed, SIGTERM follows
// after grace, SIGKILL after killDelay more.
type stdioTransport struct {
	cmd    *exec.Cmd
	server string
	grace  time.Duration
	logf   func(format string, args ...any) // nil: no log
}

// Connect starts the command (in a process group of its own) and
// connects to its stdin and stdout.
func (t *stdioTransport) Connect(context.Context) (sdk.Connection, error) {
	// A pipe of our own rather than StdoutPipe: Wait must not close the
	// read end under the reader (a server may exit right after its last
	// answer), and closing it unblocks the SDK's read loop.
	stdout, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("make the stdout pipe: %w", err)
	}
	t.cmd.Stdout = w
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		_ = stdout.Close()
		_ = w.Close()
		return nil, err
	}
	err = procgroup.Start(t.cmd)
	_ = w.Close() // the child holds its own copy
	if err != nil {
		_ = stdout.Close()
		return nil, err
	}
	p := &process{cmd: t.cmd, stdin: stdin, stdout: stdout, grace: t.grace, exited: make(chan struct{})}
	go func() {
		p.err = t.cmd.Wait()
		close(p.exited)
	}()
	f := &lineFilter{r: bufio.NewReaderSize(stdout, 64*1024), closer: p, server: t.server, logf: t.logf}
	// The filter hands the SDK whole, valid lines only: its own cap on a
	// message's length need not apply twice.
	return (&sdk.IOTransport{Reader: f, Writer: p, MaxLineLength: -1}).Connect(context.Background())
}

// process is a running stdio server: the writer of its stdin, and the
// shutdown that closing it starts.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *os.File
	grace  time.Duration

	exited chan struct{} // closed when Wait returned
	err    error         // Wait's error, once exited is closed

	once     sync.Once
	closeErr error
}

func (p *process) Write(b []byte) (int, error) { return p.stdin.Write(b) }

// Close shuts the server down as the MCP specification asks of a stdio
// client (close its stdin, wait, SIGTERM, wait, SIGKILL), with short
// waits and signals to the whole process group, so that whatever the
// server started goes too. It returns once the process has exited.
func (p *process) Close() error {
	p.once.Do(func() { p.closeErr = p.shutdown() })
	return p.closeErr
}

func (p *process) shutdown() error {
	_ = p.stdin.Close()
	defer p.stdout.Close() // unblocks the reader, should a grandchild hold stdout open
	pgid := p.cmd.Process.Pid
	exitedWithin := func(d time.Duration) bool {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-p.exited:
			return true
		case <-t.C:
			return false
		}
	}
	if !exitedWithin(p.grace) {
		_ = procgroup.Terminate(pgid)
		if !exitedWithin(killDelay) {
			_ = procgroup.Kill(pgid)
			<-p.exited
		}
	}
	// The server is gone; whatever it left running in its group goes too.
	_ = procgroup.Kill(pgid)
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		return nil // a server killed at shutdown is no error of the shutdown
	}
	return p.err
}

// lineFilter passes a server's stdout to the SDK one JSON-RPC message per
// line and drops every other line. A line that answers a call but is not
// a valid message becomes an error answer to that call.
type lineFilter struct {
	r       *bufio.Reader
	closer  io.Closer // closing the reader shuts the process down
	server  string
	logf    func(format string, args ...any)
	pending []byte
	err     error
}

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		var line []byte
		line, f.err = f.readLine()
		f.pending = f.accept(line)
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// Close shuts the server down (the SDK closes the reader first).
func (f *lineFilter) Close() error { return f.closer.Close() }

// readLine reads one line without its end; a line longer than
// maxLineLength is skipped (logged) and reads as empty.
func (f *lineFilter) readLine() ([]byte, error) {
	var line []byte
	long := false
	for {
		chunk, err := f.r.ReadSlice('\n')
		if !long {
			if len(line)+len(chunk) > maxLineLength {
				long, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if long {
			f.log("skipped a line of stdout longer than %d bytes", maxLineLength)
		}
		if err == io.EOF && len(line) > 0 {
			err = nil // the last line, without its newline; EOF comes next
		}
		return line, err
	}
}

// accept returns what the SDK gets of line: the message and a newline,
// an error answer, or nothing.
func (f *lineFilter) accept(line []byte) []byte {
	t := bytes.TrimSpace(line)
	if len(t) == 0 {
		return nil
	}
	if json.Valid(t) {
		switch t[0] {
		case '[': // a batch: the SDK decodes it
			return append(t, '\n')
		case '{':
			if _, err := jsonrpc.DecodeMessage(t); err == nil {
				return append(t, '\n')
			}
		}
	}
	if id, ok := answerID(t); ok {
		f.log("its answer to request %s is not a valid JSON-RPC message; that call fails: %s", id, clip(string(t), 200))
		return malformedAnswer(id)
	}
	f.log("skipped a line of stdout that is not a JSON-RPC message: %s", clip(string(t), 200))
	return nil
}

func (f *lineFilter) log(format string, args ...any) {
	if f.logf != nil {
		f.logf("MCP server %q: "+format, append([]any{f.server}, args...)...)
	}
}

// answerID reads the top-level "id" of a line that looks like an answer
// (an object with an id and no method), as far as the line is valid JSON.
func answerID(line []byte) (json.RawMessage, bool) {
	if len(line) == 0 || line[0] != '{' {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil { // {
		return nil, false
	}
	var id json.RawMessage
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		key, _ := tok.(string)
		if key == "method" {
			return nil, false // a request or notification: no call waits for it
		}
		if key != "id" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				break
			}
			continue
		}
		tok, err = dec.Token()
		if err != nil {
			break
		}
		switch v := tok.(type) {
		case json.Number:
			if _, err := strconv.ParseInt(string(v), 10, 64); err == nil {
				id = json.RawMessage(v)
			}
		case string:
			id, _ = json.Marshal(v)
		}
	}
	return id, id != nil
}

// malformedAnswer is the error answer that stands in for a server's
// malformed answer to request id.
func malformedAnswer(id json.RawMessage) []byte {
	b, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error": map[string]any{
			"code":    -32700,
			"message": "the server's answer was not a valid JSON-RPC message (cut short or malformed); agentcore discarded it",
		},
	})
	return append(b, '\n')
}
