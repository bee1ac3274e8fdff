//go:build ant

package tooldefs

import (
	"context"

	"github.com/agentcore/agentcore/runtime"
)

// Search is declared once per variant group, which toolgen refuses.
//
// +tool:name=Search
type Search struct{}

// SearchInput is the input of Search.
type SearchInput struct{}

// Call does nothing.
func (Search) Call(context.Context, *SearchInput, *runtime.Call) (string, error) { return "", nil }
