package tooldefs

import (
	"context"
	"fmt"

	"github.com/agentcore/agentcore/runtime"
)

// Methods defines every optional method, so each behaviour comes from the
// tooldef rather than from a marker or the fail-closed default.
//
// +tool:name=Methods
// +tool:shouldDefer
// +tool:destructive
type Methods struct{}

// Mode is a named string type.
type Mode string

// Edit is a nested object.
type Edit struct {
	// The text to replace.
	OldString string `json:"old_string"`
	// The replacement.
	NewString string `json:"new_string"`
}

// MethodsInput is what the methods look at.
type MethodsInput struct {
	// Fast or slow.
	Mode Mode `json:"mode" jsonschema:"enum=fast,enum=slow"`
	// The permission target.
	Name string `json:"name,omitempty"`
	// The edits to count.
	Edits []Edit `json:"edits"`
}

// MethodsProgress is a progress value.
type MethodsProgress struct{ Step int }

// MethodsOutput is a JSON output, rendered by ResultBlocks.
type MethodsOutput struct {
	Count int `json:"count"`
}

// Call counts the edits.
func (Methods) Call(_ context.Context, in *MethodsInput, c *runtime.Call) (MethodsOutput, error) {
	c.Progress(MethodsProgress{Step: 1})
	return MethodsOutput{Count: len(in.Edits)}, nil
}

// ValidateInput rejects a mode of "slow" with no edits.
func (Methods) ValidateInput(_ context.Context, in *MethodsInput, _ *runtime.ToolContext) error {
	if in.Mode == "slow" && len(in.Edits) == 0 {
		return fmt.Errorf("slow needs edits")
	}
	return nil
}

// CheckPermissions allows the fast mode.
func (Methods) CheckPermissions(_ context.Context, in *MethodsInput, _ *runtime.ToolContext) runtime.PermissionDecision {
	if in.Mode == "fast" {
		return runtime.PermissionDecision{Behavior: runtime.Allow}
	}
	return runtime.PermissionDecision{Behavior: runtime.Passthrough}
}

// PermissionTarget is the name.
func (Methods) PermissionTarget(in *MethodsInput) runtime.Target {
	return runtime.Target{Kind: runtime.TargetPath, Value: in.Name}
}

// IsConcurrencySafe depends on the mode.
func (Methods) IsConcurrencySafe(in *MethodsInput) bool { return in.Mode == "fast" }

// IsReadOnly depends on the edits.
func (*Methods) IsReadOnly(in *MethodsInput) bool { return len(in.Edits) == 0 }

// IsEnabled is always true here.
func (Methods) IsEnabled() bool { return true }

// UserFacingName names the mode.
func (Methods) UserFacingName(in *MethodsInput) string {
	return "Methods(" + string(in.Mode) + ")"
}

// ResultBlocks renders the count.
func (Methods) ResultBlocks(out MethodsOutput) []runtime.Block {
	return []runtime.Block{runtime.TextBlock(fmt.Sprintf("%d edits", out.Count))}
}

// RenderUse shows the mode.
func (Methods) RenderUse(in *MethodsInput) string { return string(in.Mode) }

// RenderProgress shows the step.
func (Methods) RenderProgress(_ *MethodsInput, p MethodsProgress) string {
	return fmt.Sprintf("step %d", p.Step)
}

// RenderResult shows the count.
func (Methods) RenderResult(_ *MethodsInput, out MethodsOutput) string {
	return fmt.Sprintf("%d edits", out.Count)
}

// RenderRejected says no.
func (Methods) RenderRejected(*MethodsInput) string { return "no" }

// RenderError wraps the error.
func (Methods) RenderError(_ *MethodsInput, err error) string { return "failed: " + err.Error() }

// RenderGrouped counts the calls.
func (Methods) RenderGrouped(ins []*MethodsInput) string {
	return fmt.Sprintf("%d calls", len(ins))
}
