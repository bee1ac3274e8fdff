package tooldefs

import (
	"context"

	"github.com/agentcore/agentcore/runtime"
)

// Linked says [Only] and [lower]; [Linked] and [Nothing] stay text.
//
// +tool:name=Linked
type Linked struct{}

// LinkedInput is empty.
type LinkedInput struct{}

// Call does nothing.
func (Linked) Call(context.Context, *LinkedInput, *runtime.Call) (string, error) { return "", nil }

const lower = "an unexported constant"
