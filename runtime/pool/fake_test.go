package pool_test

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/agentcore/agentcore/runtime"
)

// tool is a hand-written runtime.Tool for pool specs; the defaults answer
// what the pool does not read.
type tool struct {
	runtime.ToolDefaults
	name, desc, hint string
	instructions     string
	aliases          []string
	schema           string
	disabled         bool
	deferFlag        bool
	alwaysLoad       bool
	origin           string // tells duplicates apart
}

func (t *tool) Name() string      { return t.name }
func (t *tool) Aliases() []string { return t.aliases }
func (t *tool) Description() string {
	if t.desc == "" {
		return t.name + " does its job."
	}
	return t.desc
}
func (t *tool) SearchHint() string { return t.hint }

// ServerInstructions are the MCP server's instructions, scored by
// ToolSearch.
func (t *tool) ServerInstructions() string { return t.instructions }
func (t *tool) InputSchema() json.RawMessage {
	if t.schema == "" {
		return json.RawMessage(`{"type":"object","properties":{"x":{"type":"string","description":"an argument"}}}`)
	}
	return json.RawMessage(t.schema)
}
func (t *tool) IsEnabled() bool                         { return !t.disabled }
func (t *tool) ShouldDefer() bool                       { return t.deferFlag || strings.HasPrefix(t.name, "mcp__") }
func (t *tool) AlwaysLoad() bool                        { return t.alwaysLoad }
func (t *tool) Decode(raw json.RawMessage) (any, error) { return nil, nil }
func (t *tool) UserFacingName(any) string               { return t.name }
func (t *tool) Call(context.Context, any, *runtime.Call) (runtime.Result, error) {
	return runtime.Result{}, nil
}
func (t *tool) RenderGrouped(inputs []any) string { return runtime.RenderUses(t, inputs) }

func named(names ...string) []runtime.Tool {
	var out []runtime.Tool
	for _, n := range names {
		out = append(out, &tool{name: n})
	}
	return out
}

func names(ts []runtime.Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name())
	}
	return out
}

type pending []string

func (p pending) PendingServers() []string { return p }
