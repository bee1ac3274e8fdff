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
