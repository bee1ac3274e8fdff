package lsp

import (
	"context"
	"encoding/json"
	"io"
)

// Conn is the JSON-RPC connection, for the specs.
type Conn struct{ c *conn }

// NewConn starts a connection reading r and writing w.
func NewConn(r io.Reader, w io.Writer, h func(method string, params json.RawMessage) (any, error)) Conn {
	return Conn{newConn(r, w, h)}
}

func (c Conn) Call(ctx context.Context, method string, params, result any) error {
	return c.c.Call(ctx, method, params, result)
}
func (c Conn) Notify(method string, params any) error { return c.c.Notify(method, params) }
func (c Conn) Done() <-chan struct{}                  { return c.c.Done() }
func (c Conn) Err() error                             { return c.c.Err() }
