package pool_test

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/agentcore/agentcore/runtime"
)

// tool is a hand-written runtime.Tool for pool specs.
type tool struct {
	name, desc, hint string
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
func (t *tool) InputSchema() json.RawMessage {
	if t.schema == "" {
		return json.RawMessage(`{"type":"object","properties":{"x":{"type":"string","description":"an argument"}}}`)
	}
	return json.RawMessage(t.schema)
}
func (t *tool) IsEnabled() bool   { return !t.disabled }
func (t *tool) ShouldDefer() bool { return t.deferFlag || strings.HasPrefix(t.name, "mcp__") }
func (t *tool) AlwaysLoad() bool  { return t.alwaysLoad }
func (t *tool) InterruptBehavior(any) runtime.InterruptBehavior {
	return runtime.InterruptBlock
}
func (t *tool) Traits() runtime.Traits                  { return runtime.Traits{} }
func (t *tool) Decode(raw json.RawMessage) (any, error) { return nil, nil }
func (t *tool) ValidateInput(context.Context, any, *runtime.ToolContext) error {
	return nil
}
func (t *tool) CheckPermissions(context.Context, any, *runtime.ToolContext) runtime.PermissionDecision {
	return runtime.PermissionDecision{}
}
func (t *tool) PermissionTarget(any) runtime.Target { return runtime.Target{} }
func (t *tool) IsConcurrencySafe(any) bool          { return false }
func (t *tool) IsReadOnly(any) bool                 { return false }
func (t *tool) IsDestructive(any) bool              { return false }
func (t *tool) UserFacingName(any) string           { return t.name }
func (t *tool) Call(context.Context, any, *runtime.Call) (runtime.Result, error) {
	return runtime.Result{}, nil
}
func (t *tool) RenderUse(any) string                    { return "" }
func (t *tool) RenderProgress(any, any) string          { return "" }
func (t *tool) RenderResult(any, runtime.Result) string { return "" }
func (t *tool) RenderRejected(any) string               { return "" }
func (t *tool) RenderError(any, error) string           { return "" }
func (t *tool) RenderGrouped([]any) string              { return "" }

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
