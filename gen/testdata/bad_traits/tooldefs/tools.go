package tooldefs

import (
	"context"

	"github.com/agentcore/agentcore/runtime"
)

// A gets its trait markers wrong.
//
// +tool:name=A
// +tool:permissionFamily=write
// +tool:cancelsSiblingsOnError=yes
// +tool:permissionFamily=read-path
// +tool:permissionFamily=url
// +tool:permissionFamily
type A struct{}

// AInput is the input of A.
type AInput struct{}

// Call does nothing.
func (A) Call(context.Context, *AInput, *runtime.Call) (string, error) { return "", nil }
