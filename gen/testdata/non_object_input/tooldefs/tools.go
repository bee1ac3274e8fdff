package tooldefs

import (
	"context"

	"github.com/agentcore/agentcore/runtime"
)

// Paths takes a list, which is not a JSON object.
//
// +tool:name=Paths
type Paths struct{}

// PathsInput is a list.
type PathsInput []string

// Call does nothing.
func (Paths) Call(context.Context, *PathsInput, *runtime.Call) (string, error) { return "", nil }

// Fields has fields toolgen cannot decode.
//
// +tool:name=Fields
type Fields struct{}

// Inner refers to itself.
type Inner struct {
	Next *Inner `json:"next,omitempty"`
}

// FieldsInput has unsupported fields.
type FieldsInput struct {
	Ch    chan int          `json:"ch"`
	Bytes []byte            `json:"bytes"`
	Keys  map[int]string    `json:"keys"`
	Anon  struct{ X int }   `json:"anon"`
	Tree  Inner             `json:"tree"`
	Bad   string            `json:"bad" jsonschema:"required"`
	Range int               `json:"range,omitempty" jsonschema:"minimum=abc"`
	Len   int               `json:"len" jsonschema:"minLength=2"`
	Def   string            `json:"def" jsonschema:"default=x"`
	Same  string            `json:"ch2"`
	Dup   string            `json:"ch2"`
	Extra map[string]string `json:"extra" jsonschema:"minItems=1"`
}

// Call does nothing.
func (Fields) Call(context.Context, *FieldsInput, *runtime.Call) (string, error) { return "", nil }
