// Package early makes the program that links it answer as find, and as a
// grep whose pattern is a plain string, from one of the first initialisers
// Go runs: when the base name it was started under (argv[0]) is find or
// grep, or its first argument is __find or __grep, its init runs the
// command and exits. A grep that needs a regular expression is left to
// package dispatch's later initialiser, which imports this package for
// its effect; nothing else should.
//
// Go initialises, among the packages whose imports are done, the one
// with the smallest import path first, and a package without an
// initialiser of its own (strings, bufio, fmt) still takes its turn so.
// Packages find and gnu and this one import only what os needs and bytes
// (package lite stands in for strings and bufio), so this init runs once
// os and unicode are done: in the ant build it comes 27th, before
// reflect's and the crypto and encoding packages', where dispatch's,
// behind regexp, comes about 130th. A find /dev/null so costs about
// 15 ms of CPU, not 26 (BENCHMARKS.md). A spec in cmd/agentcore keeps it so.
package early

import (
	"os"

	"github.com/agentcore/agentcore/tooldefs/search/gnu"
	"github.com/agentcore/agentcore/tooldefs/search/gnu/find"
)

func init() {
	name, args, ok := command(os.Args)
	if !ok {
		return
	}
	std := gnu.Stdio{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	switch name {
	case "find":
		os.Exit(find.Run(args, std))
	case "grep":
		if code, ok := gnu.GrepLiteral(args, std); ok {
			os.Exit(code)
		}
	}
}

// command returns the program argv starts and its arguments, as
// multicall.Dispatch decides them.
func command(argv []string) (string, []string, bool) {
	if len(argv) == 0 {
		return "", nil, false
	}
	name := argv[0]
	for len(name) > 1 && name[len(name)-1] == '/' {
		name = name[:len(name)-1]
	}
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '/' {
			name = name[i+1:]
			break
		}
	}
	if name == "find" || name == "grep" {
		return name, argv[1:], true
	}
	if len(argv) > 1 && (argv[1] == "__find" || argv[1] == "__grep") {
		return argv[1][2:], argv[2:], true
	}
	return "", nil, false
}
