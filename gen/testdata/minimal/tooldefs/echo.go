package tooldefs

import (
	"context"

	"github.com/agentcore/agentcore/runtime"
)

// Echo returns its text: a tool with a name and nothing else, so every
// behaviour is the fail-closed default.
//
// +tool:name=Echo
type Echo struct{}

// EchoInput is one required string.
type EchoInput struct {
	// The text to return.
	Text string `json:"text"`
}

// Call returns the text.
func (Echo) Call(_ context.Context, in *EchoInput, _ *runtime.Call) (string, error) {
	return in.Text, nil
}
