package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// HostTransport is an MCP connection carried over a channel its caller
// owns rather than a process or a URL: the Agent SDK's in-process servers
// (createSdkMcpServer), whose JSON-RPC messages travel as mcp_message
// control requests between agentcore and the host. A server configured
// with Type TransportSDK and this as InProcess joins the pool like any
// other; its tools are mcp__<server>__<tool>.
type HostTransport struct {
	// Send hands one JSON-RPC message to the server. For a request it
	// returns the server's response to it; for a notification or a
	// response the answer is ignored. It must return when ctx ends.
	Send func(ctx context.Context, msg json.RawMessage) (json.RawMessage, error)

	mu   sync.Mutex
	conn *hostConn
}

// Connect starts a connection; messages the server sends of its own
// accord reach it through Deliver.
func (t *HostTransport) Connect(context.Context) (sdk.Connection, error) {
	if t.Send == nil {
		return nil, errors.New("mcp: HostTransport without Send")
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &hostConn{t: t, in: make(chan jsonrpc.Message, 64), ctx: ctx, cancel: cancel}
	t.mu.Lock()
	t.conn = c
	t.mu.Unlock()
	return c, nil
}

// Deliver passes a message the server sent of its own accord (a
// notification such as tools/list_changed, or a request to the client)
// to the current connection.
func (t *HostTransport) Deliver(msg json.RawMessage) error {
	m, err := jsonrpc.DecodeMessage(msg)
	if err != nil {
		return fmt.Errorf("the host's MCP message is not JSON-RPC: %w", err)
	}
	t.mu.Lock()
	c := t.conn
	t.mu.Unlock()
	if c == nil {
		return errors.New("the in-process MCP server is not connected")
	}
	return c.push(m)
}

type hostConn struct {
	t      *HostTransport
	in     chan jsonrpc.Message
	ctx    context.Context // ends at Close: in-flight requests stop waiting
	cancel context.CancelFunc
}

func (c *hostConn) push(m jsonrpc.Message) error {
	select {
	case c.in <- m:
		return nil
	case <-c.ctx.Done():
		return errors.New("the in-process MCP server's connection is closed")
	}
}

func (c *hostConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m := <-c.in:
		return m, nil
	case <-c.ctx.Done():
		return nil, errors.New("connection closed")
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Write sends msg. A request's response comes back through Read when the
// host answers, or as a JSON-RPC error when it cannot; notifications and
// responses are sent in order before Write returns.
func (c *hostConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.ID.IsValid() {
		_, err := c.t.Send(c.ctx, data)
		return err
	}
	go func() {
		resp, err := c.t.Send(c.ctx, data)
		var m jsonrpc.Message
		if err == nil {
			m, err = jsonrpc.DecodeMessage(resp)
			if err == nil {
				if _, isResp := m.(*jsonrpc.Response); !isResp {
					err = fmt.Errorf("the host answered %s with a request, not a response", req.Method)
				}
			}
		}
		if err != nil {
			m = &jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
				Message: fmt.Sprintf("the SDK host's MCP server did not answer %s: %v", req.Method, err)}}
		}
		_ = c.push(m)
	}()
	return nil
}

func (c *hostConn) Close() error {
	c.cancel()
	return nil
}

func (c *hostConn) SessionID() string { return "" }
