package tooldefs

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentcore/agentcore/gen/testdata/full/tooldefs/shared"
	"github.com/agentcore/agentcore/runtime"
)

// Everything exercises every input field kind and constraint toolgen
// supports, and every optional method.
//
// +tool:name=Everything
// +tool:shouldDefer
// +tool:destructive
type Everything struct{}

// Mode is a named string type.
type Mode string

// Edit is a nested object.
type Edit struct {
	// The text to replace.
	OldString string `json:"old_string"`
	// The replacement.
	NewString string `json:"new_string"`
	// Replace every occurrence.
	ReplaceAll bool `json:"replace_all,omitempty"`
}

// Span is a nested object inside a map.
type Span struct {
	Start uint32 `json:"start"`
	End   *uint8 `json:"end,omitempty" jsonschema:"maximum=200"`
}

// EverythingInput has one field of each kind.
type EverythingInput struct {
	// A required string with an enum.
	Mode Mode `json:"mode" jsonschema:"enum=fast,enum=slow,enum=a\\,b"`
	// A bounded string.
	Name string `json:"name,omitempty" jsonschema:"minLength=2,maxLength=8,default=anon"`
	// An optional pointer to an int with bounds.
	Count *int `json:"count,omitempty" jsonschema:"minimum=-5,maximum=5"`
	// A small integer.
	Small int8 `json:"small,omitempty" jsonschema:"enum=1,enum=2,enum=3"`
	// An unsigned integer.
	Size uint64 `json:"size,omitempty"`
	// A float with bounds.
	Ratio float64 `json:"ratio,omitempty" jsonschema:"minimum=0,maximum=1.5"`
	// A float32.
	Weight float32 `json:"weight,omitempty"`
	// A boolean with a default.
	Verbose bool `json:"verbose,omitempty" jsonschema:"default=true"`
	// An optional boolean.
	Flag *bool `json:"flag,omitempty"`
	// Strings with item constraints.
	Tags []string `json:"tags,omitempty" jsonschema:"minItems=1,maxItems=3,minLength=1,enum=x,enum=y,enum=z"`
	// Globs with a default.
	Globs []string `json:"globs,omitempty" jsonschema:"default=*.go,default=*.md"`
	// Nested objects.
	Edits []Edit `json:"edits"`
	// An optional nested object.
	First *Edit `json:"first,omitempty"`
	// A map of nested objects.
	Spans map[string]Span `json:"spans,omitempty"`
	// A map of numbers.
	Env map[string]float64 `json:"env,omitempty"`
	// Matrix of integers.
	Matrix [][]int `json:"matrix,omitempty"`
	// Any JSON value.
	Extra any `json:"extra,omitempty"`
	// Raw JSON.
	Raw json.RawMessage `json:"raw,omitempty"`
	// A struct from another package.
	Window *shared.Range `json:"window,omitempty"`
	// Skipped by json.
	Skipped string `json:"-"`
	// Go name used as the parameter name.
	Plain string `json:",omitempty"`
}

// EverythingProgress is a progress value.
type EverythingProgress struct{ Step int }

// EverythingOutput is a JSON output.
type EverythingOutput struct {
	Count int `json:"count"`
}

// Call counts the edits.
func (Everything) Call(_ context.Context, in *EverythingInput, c *runtime.Call) (EverythingOutput, error) {
	c.Progress(EverythingProgress{Step: 1})
	return EverythingOutput{Count: len(in.Edits)}, nil
}

// ValidateInput rejects a mode of "slow" with no edits.
func (Everything) ValidateInput(_ context.Context, in *EverythingInput, _ *runtime.ToolContext) error {
	if in.Mode == "slow" && len(in.Edits) == 0 {
		return fmt.Errorf("slow needs edits")
	}
	return nil
}

// CheckPermissions allows the fast mode.
func (Everything) CheckPermissions(_ context.Context, in *EverythingInput, _ *runtime.ToolContext) runtime.PermissionDecision {
	if in.Mode == "fast" {
		return runtime.PermissionDecision{Behavior: runtime.Allow}
	}
	return runtime.PermissionDecision{Behavior: runtime.Passthrough}
}

// PermissionTarget is the name.
func (Everything) PermissionTarget(in *EverythingInput) runtime.Target {
	return runtime.Target{Kind: runtime.TargetPath, Value: in.Name}
}

// IsConcurrencySafe depends on the mode.
func (Everything) IsConcurrencySafe(in *EverythingInput) bool { return in.Mode == "fast" }

// IsReadOnly depends on the edits.
func (*Everything) IsReadOnly(in *EverythingInput) bool { return len(in.Edits) == 0 }

// IsEnabled is always true here.
func (Everything) IsEnabled() bool { return true }

// UserFacingName names the mode.
func (Everything) UserFacingName(in *EverythingInput) string {
	return "Everything(" + string(in.Mode) + ")"
}

// ResultBlocks renders the count.
func (Everything) ResultBlocks(out EverythingOutput) []runtime.Block {
	return []runtime.Block{runtime.TextBlock(fmt.Sprintf("%d edits", out.Count))}
}

// RenderUse shows the mode.
func (Everything) RenderUse(in *EverythingInput) string { return string(in.Mode) }

// RenderProgress shows the step.
func (Everything) RenderProgress(_ *EverythingInput, p EverythingProgress) string {
	return fmt.Sprintf("step %d", p.Step)
}

// RenderResult shows the count.
func (Everything) RenderResult(_ *EverythingInput, out EverythingOutput) string {
	return fmt.Sprintf("%d edits", out.Count)
}

// RenderRejected says no.
func (Everything) RenderRejected(*EverythingInput) string { return "no" }

// RenderError wraps the error.
func (Everything) RenderError(_ *EverythingInput, err error) string { return "failed: " + err.Error() }

// RenderGrouped counts the calls.
func (Everything) RenderGrouped(ins []*EverythingInput) string {
	return fmt.Sprintf("%d calls", len(ins))
}
