//go:build ant

package main

// The ant Bash tool puts links named grep and find to this binary first
// on its commands' PATH; dispatch makes the binary answer as them.
import _ "github.com/agentcore/agentcore/tooldefs/search/gnu/multicall/dispatch"
