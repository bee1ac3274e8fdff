//go:build !ant

package tooldefs

import (
	"context"

	"github.com/agentcore/agentcore/runtime"
)

// Finder is absent from the ant variant.
//
// +tool:name=Finder
// +tool:alwaysLoad
type Finder struct{}

// FinderInput has one pattern.
type FinderInput struct {
	// The pattern.
	Pattern string `json:"pattern"`
}

// Call echoes the pattern.
func (Finder) Call(_ context.Context, in *FinderInput, _ *runtime.Call) ([]string, error) {
	return finderMatch(in.Pattern), nil
}
