// Package findfirst makes the program that links it answer as find from
// one of the first initialisers Go runs: when the base name it was
// started under (argv[0]) is find, or its first argument is __find, its
// init runs package find's engine and exits. Package multicall imports it
// for that effect; nothing else should.
//
// Go initialises, among the packages whose imports are done, the one
// with the smallest import path first, and a package without an
// initialiser of its own (strings, bufio, fmt) still takes its turn so.
// Package find and this one import only what os needs and bytes, so this
// init runs once os and unicode are done: in the ant build it comes 27th,
// before reflect's and the crypto and encoding packages', where a grep
// comes about 130th (a find /dev/null costs about 15 ms of CPU, not 26;
// BENCHMARKS.md). A spec in cmd/agentcore keeps it so.
package findfirst

import (
	"os"

	"github.com/agentcore/agentcore/tooldefs/search/gnu/find"
)

func init() {
	if args, ok := findArgs(os.Args); ok {
		os.Exit(find.Run(args, find.Stdio{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
	}
}

// findArgs returns find's arguments when argv starts find, as
// multicall.Dispatch decides it.
func findArgs(argv []string) ([]string, bool) {
	if len(argv) == 0 {
		return nil, false
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
	if name == "find" {
		return argv[1:], true
	}
	if len(argv) > 1 && argv[1] == "__find" {
		return argv[2:], true
	}
	return nil, false
}
