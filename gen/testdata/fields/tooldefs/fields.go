package tooldefs

import (
	"context"
	"encoding/json"

	"github.com/agentcore/agentcore/gen/testdata/fields/tooldefs/shared"
	"github.com/agentcore/agentcore/runtime"
)

// Fields exercises every input field kind and jsonschema constraint
// toolgen supports.
//
// +tool:name=Fields
type Fields struct{}

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

// FieldsInput has one field of each kind.
type FieldsInput struct {
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

// FieldsOutput is a JSON output.
type FieldsOutput struct {
	Count int `json:"count"`
}

// Call counts the edits.
func (Fields) Call(_ context.Context, in *FieldsInput, _ *runtime.Call) (FieldsOutput, error) {
	return FieldsOutput{Count: len(in.Edits)}, nil
}
