//go:build !ant

package tooldefs

import "github.com/agentcore/agentcore/gen/testdata/gated/tooldefs/patterns"

// finderMatch is a gated helper: a file with no tool, gated with Finder.
func finderMatch(pattern string) []string { return patterns.Echo(pattern) }
