// Package secretstore is used only by the Secret tool, so toolgen bans it
// from the variants without Secret.
package secretstore

import "github.com/agentcore/agentcore/gen/testdata/gated/tooldefs/secretstore/vault"

// Answer is the stored value.
func Answer() int { return vault.Open() }
