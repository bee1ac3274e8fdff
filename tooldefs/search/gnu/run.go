// Package gnu is agentcore's grep, with GNU grep 3.8's options, output and
// exit statuses, which the ant build's Bash commands run (see package
// multicall); Run runs it or package find's find by name.
package gnu

import "github.com/agentcore/agentcore/tooldefs/search/gnu/find"

// Programs are the commands this package implements, by name.
var Programs = []string{"grep", "find"}

// Run runs program prog ("grep" or "find") with args, the words after the
// program name, and returns its exit status; ok is false for any other
// name.
func Run(prog string, args []string, std Stdio) (code int, ok bool) {
	switch prog {
	case "grep":
		return Grep(args, std), true
	case "find":
		return find.Run(args, std), true
	}
	return 0, false
}
