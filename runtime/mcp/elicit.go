package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrInputRequired is what Elicit returns when the client's answer can
// only come with the next round trip of the call (MCP's multi round-trip
// requests, SEP-2322): the Runner must stop the call before it does
// anything, and the server sends the question back as the call's result.
// The client answers it and repeats the call with the answer, which
// Elicit then returns.
var ErrInputRequired = errors.New("the MCP client answers with the next round trip of this call")

// callState is what a served call carries in its context: the client's
// session, the answers the client sent with the call, and the questions
// asked in this round that the client has not answered yet.
type callState struct {
	session *sdk.ServerSession
	answers sdk.InputResponseMap

	mu      sync.Mutex
	pending sdk.InputRequestMap
}

type callStateKey struct{}

func callFrom(ctx context.Context) *callState {
	c, _ := ctx.Value(callStateKey{}).(*callState)
	return c
}

// questions returns the questions of this round that wait for the client.
func (c *callState) questions() sdk.InputRequestMap {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pending
}

// ClientCanElicit reports whether the client of the served call ctx
// belongs to declared the elicitation capability (form mode) when it
// connected. Outside a served call it is false.
func ClientCanElicit(ctx context.Context) bool {
	c := callFrom(ctx)
	if c == nil || c.session == nil {
		return false
	}
	p := c.session.InitializeParams()
	if p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil {
		return false
	}
	e := p.Capabilities.Elicitation
	return e.Form != nil || e.URL == nil // {} means form, as before modes existed
}

// Elicit asks the client of the served call ctx belongs to for input
// through a form. The first time it returns ErrInputRequired (the call
// must stop and do nothing); the client then repeats the call with its
// answer, and the same Elicit returns it. A question is matched to its
// answer by its content, so a repeated call asking the same gets the
// answer given to it.
func Elicit(ctx context.Context, p *sdk.ElicitParams) (*sdk.ElicitResult, error) {
	c := callFrom(ctx)
	if c == nil || c.session == nil {
		return nil, errors.New("mcp.Elicit: not in a call served by mcp.Serve")
	}
	if !ClientCanElicit(ctx) {
		return nil, errors.New("the MCP client does not support elicitation")
	}
	id, err := questionID(p)
	if err != nil {
		return nil, err
	}
	if a, ok := c.answers[id]; ok {
		res, ok := a.(*sdk.ElicitResult)
		if !ok {
			return nil, fmt.Errorf("the MCP client answered the question %s with a %T, not an elicitation result", id, a)
		}
		return res, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending == nil {
		c.pending = sdk.InputRequestMap{}
	}
	c.pending[id] = p
	return nil, ErrInputRequired
}

// questionID names a question by a digest of its content.
func questionID(p *sdk.ElicitParams) (string, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return "", fmt.Errorf("mcp.Elicit: the question does not encode: %w", err)
	}
	sum := sha256.Sum256(b)
	return "elicit-" + hex.EncodeToString(sum[:8]), nil
}
