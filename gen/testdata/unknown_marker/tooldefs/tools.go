package tooldefs

import (
	"context"

	"github.com/agentcore/agentcore/runtime"
)

// A has bad markers.
//
// +tool:name=A
// +tool:readonly
// +tool:concurrencySafe=yes
// +tool:interrupt=stop
// +tool:frobnicate
// +tool:searchHint
// +tool:name=B
type A struct{}

// AInput is the input of A.
type AInput struct {
	// A field with a marker.
	//
	// +tool:readOnly
	X string `json:"x"`
}

// Call does nothing.
func (A) Call(context.Context, *AInput, *runtime.Call) (string, error) { return "", nil }

// helper has markers toolgen would not read.
//
// +tool:readOnly
func helper() {}

// Limit is a constant with a marker.
//
// +tool:name=Limit
const Limit = 3

// Grouped types take no markers on the group.
//
// +tool:name=G
type (
	G1 struct{}
	G2 struct{}
)

// Other is not an input but its fields are checked too.
type Other struct {
	// +tool:alias=X
	Y int
}

var _ = helper
