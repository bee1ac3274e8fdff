package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
)

// This file is a small JSON-RPC 2.0 endpoint over one byte stream with
// the LSP base protocol's Content-Length framing. agentcore writes its own
// rather than depend on golang.org/x/exp/jsonrpc2 (experimental, no API
// promise, and a whole module pinned for one package) or go.lsp.dev (not
// among the approved modules): a language client needs requests with ids,
// notifications, and answers to the few requests servers send.

// maxMessage bounds one message from a server (gopls sends megabytes of
// workspace symbols at most).
const maxMessage = 64 << 20

// rpcMessage is any JSON-RPC message: a request (ID and Method), a
// notification (Method only) or a response (ID, Result or Error).
type rpcMessage struct {
	JSONRPC string           `json:"jsonrpc"`
	ID      *json.RawMessage `json:"id,omitempty"`
	Method  string           `json:"method,omitempty"`
	Params  json.RawMessage  `json:"params,omitempty"`
	Result  json.RawMessage  `json:"result,omitempty"`
	Error   *RPCError        `json:"error,omitempty"`
}

// RPCError is an error response of a server.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("%s (code %d)", e.Message, e.Code) }

// Handler answers a request or takes a notification from the server. For a
// notification its result is ignored; an error answers a request with it.
type Handler func(method string, params json.RawMessage) (any, error)

// conn is one JSON-RPC connection. Call and Notify are safe for concurrent
// use; the handler runs on the reading goroutine and must not block.
type conn struct {
	w       io.Writer
	writeMu sync.Mutex
	handle  Handler

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan rpcMessage
	err     error // set once the reader stopped

	done chan struct{} // closed when the reader stopped
}

// newConn starts reading r; the reader stops at EOF or a framing error,
// after which every call fails.
func newConn(r io.Reader, w io.Writer, h Handler) *conn {
	c := &conn{w: w, handle: h, pending: map[int64]chan rpcMessage{}, done: make(chan struct{})}
	go c.read(bufio.NewReaderSize(r, 64<<10))
	return c
}

// Done is closed when the connection stopped reading.
func (c *conn) Done() <-chan struct{} { return c.done }

// Err is why the connection stopped, nil while it reads.
func (c *conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Call sends a request and decodes its result into result (which may be
// nil). It returns when the answer comes, ctx ends or the connection stops.
func (c *conn) Call(ctx context.Context, method string, params, result any) error {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return c.err
	}
	c.nextID++
	id := c.nextID
	ch := make(chan rpcMessage, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}()
	raw := json.RawMessage(strconv.FormatInt(id, 10))
	if err := c.write(rpcMessage{ID: &raw, Method: method}, params); err != nil {
		return err
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("%s: %w", method, m.Error)
		}
		if result == nil || len(m.Result) == 0 {
			return nil
		}
		if err := json.Unmarshal(m.Result, result); err != nil {
			return fmt.Errorf("%s: decode the answer: %w", method, err)
		}
		return nil
	case <-ctx.Done():
		_ = c.Notify("$/cancelRequest", map[string]int64{"id": id})
		return ctx.Err()
	case <-c.done:
		return c.Err()
	}
}

// Notify sends a notification.
func (c *conn) Notify(method string, params any) error {
	return c.write(rpcMessage{Method: method}, params)
}

// write frames m (with params marshalled in) and writes it.
func (c *conn) write(m rpcMessage, params any) error {
	m.JSONRPC = "2.0"
	if params != nil {
		p, err := json.Marshal(params)
		if err != nil {
			return fmt.Errorf("encode %s: %w", m.Method, err)
		}
		m.Params = p
	}
	body, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("encode %s: %w", m.Method, err)
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		return fmt.Errorf("send %s to the language server: %w", m.Method, err)
	}
	return nil
}

// read is the reading goroutine.
func (c *conn) read(r *bufio.Reader) {
	err := c.readLoop(r)
	c.mu.Lock()
	c.err = err
	c.mu.Unlock()
	close(c.done)
}

func (c *conn) readLoop(r *bufio.Reader) error {
	tp := textproto.NewReader(r)
	for {
		h, err := tp.ReadMIMEHeader()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return errors.New("the language server closed its output")
			}
			return fmt.Errorf("read from the language server: %w", err)
		}
		n, err := strconv.Atoi(strings.TrimSpace(h.Get("Content-Length")))
		if err != nil || n < 0 || n > maxMessage {
			return fmt.Errorf("the language server sent a bad Content-Length %q", h.Get("Content-Length"))
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return fmt.Errorf("read from the language server: %w", err)
		}
		var m rpcMessage
		if err := json.Unmarshal(body, &m); err != nil {
			continue // not JSON: skip it, as editors do
		}
		c.dispatch(m)
	}
}

// dispatch routes one message: a response to its caller, a request or a
// notification to the handler.
func (c *conn) dispatch(m rpcMessage) {
	if m.Method == "" {
		if m.ID == nil {
			return
		}
		id, err := strconv.ParseInt(string(*m.ID), 10, 64)
		if err != nil {
			return
		}
		c.mu.Lock()
		ch := c.pending[id]
		c.mu.Unlock()
		if ch != nil {
			ch <- m
		}
		return
	}
	res, err := c.handle(m.Method, m.Params)
	if m.ID == nil {
		return
	}
	reply := rpcMessage{ID: m.ID}
	if err != nil {
		var re *RPCError
		if !errors.As(err, &re) {
			re = &RPCError{Code: -32603, Message: err.Error()}
		}
		reply.Error = re
	} else {
		b, merr := json.Marshal(res)
		if merr != nil {
			b = []byte("null")
		}
		reply.Result = b
	}
	_ = c.write(reply, nil)
}
