package tooldefs

import (
	"context"

	"github.com/agentcore/agentcore/runtime"
)

// A declares read-only twice.
//
// +tool:name=A
// +tool:readOnly
// +tool:disabled
// +tool:shouldDefer
// +tool:alwaysLoad
type A struct{}

// AInput is the input of A.
type AInput struct{}

// Call does nothing.
func (A) Call(context.Context, *AInput, *runtime.Call) (string, error) { return "", nil }

// IsReadOnly conflicts with the marker.
func (A) IsReadOnly(*AInput) bool { return true }

// IsEnabled conflicts with +tool:disabled.
func (A) IsEnabled() bool { return true }
