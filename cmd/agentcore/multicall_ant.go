//go:build ant

package main

// The ant build's Bash commands find agentcore itself first on their PATH
// as grep and find (links to this binary, made by the Bash tool). Package
// dispatch answers them from initialisers, before this package's main and
// most other packages' initialisers run; see its documentation for the
// order and what it saves.
import _ "github.com/agentcore/agentcore/tooldefs/search/gnu/multicall/dispatch"
