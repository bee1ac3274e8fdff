package permission_test

import (
	"context"
	"encoding/json"

	"github.com/agentcore/agentcore/runtime"
)

// fakeTool is a hand-written runtime.Tool whose input is the string its
// permission target carries; the defaults answer the rest.
type fakeTool struct {
	runtime.ToolDefaults
	name     string
	aliases  []string
	kind     runtime.TargetKind
	writes   bool
	readOnly bool
	own      runtime.PermissionDecision
	panics   bool
	disabled bool
	family   runtime.PermissionFamily
}

func (f *fakeTool) Name() string                            { return f.name }
func (f *fakeTool) Aliases() []string                       { return f.aliases }
func (f *fakeTool) Description() string                     { return f.name + " does things" }
func (f *fakeTool) InputSchema() json.RawMessage            { return json.RawMessage(`{"type":"object"}`) }
func (f *fakeTool) IsEnabled() bool                         { return !f.disabled }
func (f *fakeTool) Traits() runtime.Traits                  { return runtime.Traits{PermissionFamily: f.family} }
func (f *fakeTool) Decode(raw json.RawMessage) (any, error) { return string(raw), nil }
func (f *fakeTool) CheckPermissions(context.Context, any, *runtime.ToolContext) runtime.PermissionDecision {
	if f.panics {
		panic("boom")
	}
	return f.own
}
func (f *fakeTool) PermissionTarget(input any) runtime.Target {
	s, _ := input.(string)
	return runtime.Target{Kind: f.kind, Value: s, Writes: f.writes}
}
func (f *fakeTool) IsConcurrencySafe(any) bool { return f.readOnly }
func (f *fakeTool) IsReadOnly(any) bool        { return f.readOnly }
func (f *fakeTool) UserFacingName(any) string  { return f.name }
func (f *fakeTool) Call(context.Context, any, *runtime.Call) (runtime.Result, error) {
	return runtime.Result{}, nil
}
func (f *fakeTool) RenderUse(input any) string        { s, _ := input.(string); return s }
func (f *fakeTool) RenderGrouped(inputs []any) string { return runtime.RenderUses(f, inputs) }

func bashTool() *fakeTool {
	return &fakeTool{name: "Bash", aliases: []string{"Shell"}, kind: runtime.TargetCommand, family: runtime.FamilyCommand}
}
func readTool() *fakeTool {
	return &fakeTool{name: "Read", kind: runtime.TargetPath, readOnly: true, family: runtime.FamilyReadPath}
}
func grepTool() *fakeTool {
	return &fakeTool{name: "Grep", kind: runtime.TargetPath, readOnly: true}
}
func editTool() *fakeTool {
	return &fakeTool{name: "Edit", kind: runtime.TargetPath, writes: true, family: runtime.FamilyEditPath}
}
func writeTool() *fakeTool {
	return &fakeTool{name: "Write", kind: runtime.TargetPath, writes: true, family: runtime.FamilyEditPath}
}
func fetchTool() *fakeTool {
	return &fakeTool{name: "WebFetch", kind: runtime.TargetURL, readOnly: true, family: runtime.FamilyURL}
}

// sessionTools are the fakes of the built-ins whose families the engine
// learns (Config.Tools).
func sessionTools() []runtime.Tool {
	return []runtime.Tool{bashTool(), readTool(), grepTool(), editTool(), writeTool(), fetchTool()}
}
