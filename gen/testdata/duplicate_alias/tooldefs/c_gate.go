//go:build internal

package tooldefs

import (
	"context"

	"github.com/agentcore/agentcore/runtime"
)

// C takes A's name as an alias; it is internal-only, so it clashes only there.
//
// +tool:name=C
// +tool:alias=A
type C struct{}

// CInput is the input of C.
type CInput struct{}

// Call does nothing.
func (C) Call(context.Context, *CInput, *runtime.Call) (string, error) { return "", nil }
