//go:build internal || ant

package tooldefs

import (
	"context"
	"fmt"

	"github.com/agentcore/agentcore/gen/testdata/gated/tooldefs/common"
	"github.com/agentcore/agentcore/gen/testdata/gated/tooldefs/secretstore"
	"github.com/agentcore/agentcore/runtime"
)

// Secret is an internal-only tool; its description is a unique string:
// SECRET-TOOL-DESCRIPTION-7f3a.
//
// +tool:name=Secret
// +tool:disabled
// +tool:userFacingName="Secret thing"
type Secret struct{}

// SecretInput is empty.
type SecretInput struct{}

// SecretOutput is a Stringer.
type SecretOutput struct{ N int }

// String renders the output.
func (o SecretOutput) String() string { return fmt.Sprint(o.N) }

// SecretLabel names the tool.
var SecretLabel = common.Label("Secret")

// Call returns 42.
func (Secret) Call(context.Context, *SecretInput, *runtime.Call) (SecretOutput, error) {
	return SecretOutput{N: secretstore.Answer()}, nil
}
