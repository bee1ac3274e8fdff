package tooldefs

import (
	"context"

	"github.com/agentcore/agentcore/runtime"
)

// A does not compile.
//
// +tool:name=A
type A struct{}

// AInput is the input of A.
type AInput struct{}

// Call returns a value of the wrong type.
func (A) Call(context.Context, *AInput, *runtime.Call) (string, error) { return 42, undefinedThing }
