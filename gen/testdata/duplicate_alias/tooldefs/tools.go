package tooldefs

import (
	"context"

	"github.com/agentcore/agentcore/runtime"
)

// A is the first tool.
//
// +tool:name=A
// +tool:alias=Old
type A struct{}

// AInput is the input of A.
type AInput struct{}

// Call does nothing.
func (A) Call(context.Context, *AInput, *runtime.Call) (string, error) { return "", nil }

// B claims A's alias and repeats its own.
//
// +tool:name=B
// +tool:alias=Old
// +tool:alias=Older
// +tool:alias=Older
type B struct{}

// BInput is the input of B.
type BInput struct{}

// Call does nothing.
func (B) Call(context.Context, *BInput, *runtime.Call) (string, error) { return "", nil }
