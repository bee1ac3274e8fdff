package tooldefs

import (
	"context"

	"github.com/agentcore/agentcore/runtime"
)

// Read reads a file.
//
// +tool:name=Read
type Read struct{}

// ReadInput is the input of Read.
type ReadInput struct {
	// The file.
	FilePath string `json:"file_path"`
}

// Call forgets the call handle.
func (Read) Call(ctx context.Context, in *ReadInput) (string, error) { return "", nil }

// Other is a second tool whose optional methods are wrong.
//
// +tool:name=Other
type Other struct{}

// OtherInput is the input of Other.
type OtherInput struct{}

// Call is right.
func (Other) Call(context.Context, *OtherInput, *runtime.Call) (string, error) { return "", nil }

// IsReadOnly takes the input by value.
func (Other) IsReadOnly(in OtherInput) bool { return true }

// RenderResult has the wrong output type.
func (Other) RenderResult(in *OtherInput, out int) string { return "" }
