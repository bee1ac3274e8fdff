package mcp

import sdk "github.com/modelcontextprotocol/go-sdk/mcp"

// ExpandEnv exposes expandEnv to the tests.
var ExpandEnv = expandEnv

// ToolFor makes an adapter for a tool the server may not have, to test
// protocol errors.
func (m *Manager) ToolFor(server, remote string) *Tool {
	return newTool(m.byName[server], &sdk.Tool{Name: remote})
}

// ObjectSchema exposes objectSchema to the tests.
var ObjectSchema = objectSchema

// DecodeObject exposes decodeObject to the tests.
var DecodeObject = decodeObject
