//go:build linux || internal

package tooldefs

import (
	"context"

	"github.com/agentcore/agentcore/runtime"
)

// A is gated by a tag that is not a variant.
//
// +tool:name=A
type A struct{}

// AInput is the input of A.
type AInput struct{}

// Call does nothing.
func (A) Call(context.Context, *AInput, *runtime.Call) (string, error) { return "", nil }
