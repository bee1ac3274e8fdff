package tooldefs

import (
	"context"

	"github.com/agentcore/agentcore/gen/testdata/gated/tooldefs/common"
	"github.com/agentcore/agentcore/runtime"
)

// Always is in every variant. [AlwaysNote]
//
// +tool:name=Always
// +tool:readOnly
type Always struct{}

// AlwaysInput is empty.
type AlwaysInput struct{}

// Call labels the tool.
func (Always) Call(context.Context, *AlwaysInput, *runtime.Call) (string, error) {
	return common.Label("Always"), nil
}
