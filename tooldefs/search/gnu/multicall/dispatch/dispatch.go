// Package dispatch makes the program that imports it answer as grep and
// find (package multicall): when the base name it was started under
// (argv[0]) is grep or find, or its first argument is __grep or __find,
// the program runs that command and exits before its own main. Import it
// for that effect from package main only, as cmd/agentcore's ant build
// does; a library never should, since it takes over os.Args.
//
// The check runs in initialisers, so that a grep started this way skips
// main's set-up and most of the other packages' initialisers. Go runs
// initialisers in dependency order, picking among the packages whose
// imports are done the one with the smallest import path; so this init
// runs as soon as its last import is done, before any github.com package
// whose path sorts after it. Every import of this package, of multicall
// and of the engines must therefore be one that is initialised early:
// regexp and path/filepath are (other packages wait for them), but a
// standard package nothing else waits for is initialised only after
// every ready package that sorts before it. runtime/debug was such a one:
// while multicall imported it (to turn the collector off), a grep ran
// the syntax highlighter's lexers and styles and the HTML sanitiser's
// tables first, about 35 ms of CPU on this machine. GODEBUG=inittrace=1
// shows the order; a spec in cmd/agentcore checks that the terminal's
// initialisers stay behind the dispatch.
//
// A find, and a grep whose pattern is a plain string, start earlier still:
// package early, which this one imports, runs them from an initialiser
// that waits only for os and bytes.
//
// Both initialisers pay for themselves (issue 36, measured on the ant
// binary, CPU medians of 150 interleaved runs on a loaded 2-core
// machine): grep -q x /dev/null costs 7.6 ms dispatched by early, 11.5 ms
// by this package's init alone, 17.5 ms from main (GNU grep 3.9 ms);
// grep -qE x+ /dev/null 10.0 ms from this init, 17.3 ms from main.
// Dispatching from cmd/agentcore's main would run every other initialiser
// first, so the dispatch stays in initialisers that main's package links
// in explicitly.
package dispatch

import (
	"github.com/agentcore/agentcore/tooldefs/search/gnu/multicall"
	// find, and a grep of a plain string, start from an earlier
	// initialiser than this package's.
	_ "github.com/agentcore/agentcore/tooldefs/search/gnu/multicall/early"
)

func init() { multicall.Install() }
