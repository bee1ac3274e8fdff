package pool

import "github.com/agentcore/agentcore/runtime"

// Entry describes one pool tool for `agentcore tools` (and its --json).
type Entry struct {
	Name    string   `json:"name"`
	Aliases []string `json:"aliases,omitempty"`
	// MCP is true for mcp__ tools.
	MCP bool `json:"mcp"`
	// Deferred is true when the definition waits for ToolSearch.
	Deferred bool `json:"deferred"`
	// AlwaysLoad is true when the tool asked never to be deferred.
	AlwaysLoad bool `json:"always_load,omitempty"`
	// SearchHint is the phrase ToolSearch scores.
	SearchHint string `json:"search_hint,omitempty"`
	// Tokens estimates the definition's size (EstimateTokens).
	Tokens int `json:"tokens"`
	// Traits are the static scheduling flags.
	Traits runtime.Traits `json:"traits"`
}

// Entries describes every pool tool, in pool order.
func (p *Pool) Entries() []Entry {
	out := make([]Entry, 0, len(p.tools))
	for _, t := range p.tools {
		out = append(out, Entry{
			Name:       t.Name(),
			Aliases:    t.Aliases(),
			MCP:        IsMCP(t),
			Deferred:   p.deferred[t.Name()],
			AlwaysLoad: safeBool(t.AlwaysLoad),
			SearchHint: t.SearchHint(),
			Tokens:     EstimateTokens(t),
			Traits:     t.Traits(),
		})
	}
	return out
}
