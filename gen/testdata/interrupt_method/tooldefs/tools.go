package tooldefs

import (
	"context"

	"github.com/agentcore/agentcore/runtime"
)

// A has the interrupt marker and the method.
//
// +tool:name=A
// +tool:interrupt=cancel
type A struct{}

// AInput is the input of A.
type AInput struct{}

// Call does nothing.
func (A) Call(context.Context, *AInput, *runtime.Call) (string, error) { return "", nil }

// InterruptBehavior conflicts with +tool:interrupt.
func (A) InterruptBehavior(*AInput) runtime.InterruptBehavior { return runtime.InterruptCancel }

// B has the method without the input it now takes.
//
// +tool:name=B
type B struct{}

// BInput is the input of B.
type BInput struct{}

// Call does nothing.
func (B) Call(context.Context, *BInput, *runtime.Call) (string, error) { return "", nil }

// InterruptBehavior lacks the input.
func (B) InterruptBehavior() runtime.InterruptBehavior { return runtime.InterruptBlock }
