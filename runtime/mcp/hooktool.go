package mcp

import (
	"context"
	"encoding/json"
	"fmt"
)

// CallTool calls tool of the server named server with args, for an
// mcp_tool hook: the server must be connected already (a hook never
// starts a connection, as in Claude Code). It returns the result's text
// (text content, other content described, structured content as JSON
// when there is nothing else) and whether the server marked it an error.
func (m *Manager) CallTool(ctx context.Context, server, tool string, args map[string]any) (text string, isError bool, err error) {
	s, err := m.server(server)
	if err != nil {
		return "", false, err
	}
	s.mu.Lock()
	st := s.statusLocked()
	s.mu.Unlock()
	if st.State != StateConnected {
		return "", false, fmt.Errorf("MCP server %q is not connected (%s); a hook does not connect it", server, st.State)
	}
	in := make(Input, len(args))
	for k, v := range args {
		b, err := json.Marshal(v)
		if err != nil {
			return "", false, fmt.Errorf("argument %q of tool %q: %w", k, tool, err)
		}
		in[k] = b
	}
	res, err := s.callTool(ctx, tool, in, nil)
	if err != nil {
		return "", false, err
	}
	r := callResult(res, DefaultMaxOutputChars)
	return r.Text(), res.IsError, nil
}
