// Package multicall makes the program that links it answer as grep and
// find, with the GNU-compatible engines of package gnu: when the base
// name it was started under (argv[0]) is grep or find, or when its first
// argument is __grep or __find, the program runs that command and exits
// before its own main. Import it for that effect (the ant build's Bash
// tool does, and puts a directory of links named grep and find to the
// running binary first on the PATH of its commands; see NewDir).
//
// The check runs in this package's init, so that a grep started this way
// skips main's set-up and most of the other packages' initialisers. Go
// runs initialisers in dependency order, picking among the packages whose
// imports are done the one with the smallest import path; so this init
// runs as soon as its last import is done, before any github.com package
// whose path sorts after it. Every import of this package and of the
// engines must therefore be one that is initialised early: regexp and
// path/filepath are (other packages wait for them), but a standard
// package nothing else waits for is initialised only after every ready
// package that sorts before it. runtime/debug was such a one: while this
// package imported it (to turn the collector off), a grep ran the syntax
// highlighter's lexers and styles and the HTML sanitiser's tables first,
// about 35 ms of CPU on this machine. GODEBUG=inittrace=1 shows the
// order; a spec in cmd/agentcore checks that those initialisers stay
// behind the dispatch. The collector keeps its settings: starting this
// early, a grep -rn over GOROOT/src collects about three times, and
// GOGC=off made no difference above this machine's noise.
//
// A find, and a grep whose pattern is a plain string, start earlier still:
// package early, which this one imports, runs them from an initialiser
// that waits only for os and bytes.
//
// Both initialisers still pay for themselves with glamour gone (issue 36,
// measured on the ant binary, CPU medians of 150 interleaved runs on a
// loaded 2-core machine): grep -q x /dev/null costs 7.6 ms dispatched by
// early, 11.5 ms by this package's init alone, 17.5 ms from main (GNU
// grep 3.9 ms); grep -qE x+ /dev/null 10.0 ms from this init, 17.3 ms
// from main. Dispatching from cmd/agentcore's main would run every other
// initialiser first, so the dispatch stays in these two initialisers.
package multicall

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentcore/agentcore/tooldefs/search/gnu"
	"github.com/agentcore/agentcore/tooldefs/search/gnu/find"
	// find, and a grep of a plain string, start from an earlier
	// initialiser than this package's.
	_ "github.com/agentcore/agentcore/tooldefs/search/gnu/multicall/early"
	"github.com/agentcore/agentcore/tooldefs/search/gnu/regex"
)

// Programs are the commands Dispatch runs, by name.
var Programs = []string{"grep", "find"}

func init() {
	if code, ok := Dispatch(os.Args); ok {
		os.Exit(code)
	}
}

// Dispatch runs the command argv names, if it names one of Programs
// by its base name (argv[0]) or as a hidden subcommand (argv[1] is
// "__grep" or "__find"), and returns its exit status.
func Dispatch(argv []string) (int, bool) {
	if len(argv) == 0 {
		return 0, false
	}
	name, args := filepath.Base(argv[0]), argv[1:]
	if !slices.Contains(Programs, name) {
		if len(argv) < 2 || !strings.HasPrefix(argv[1], "__") {
			return 0, false
		}
		name, args = argv[1][2:], argv[2:]
	}
	std := gnu.Stdio{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	switch name {
	case "grep":
		return gnu.Grep(args, std, regex.Compile), true
	case "find":
		return find.Run(args, std), true
	}
	return 0, false
}

// NewDir makes a directory, under the OS temp dir, holding a symbolic link
// named after each of Programs to the running executable, for the
// front of a PATH: a program run with it finds this binary as grep and
// find, and Dispatch runs them. The caller removes it (os.RemoveAll) when
// no command needs it any more.
func NewDir() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("locate the running binary for grep and find: %w", err)
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	dir, err := os.MkdirTemp("", "agentcore-gnu-")
	if err != nil {
		return "", fmt.Errorf("make the grep and find link directory: %w", err)
	}
	for _, name := range Programs {
		if err := os.Symlink(exe, filepath.Join(dir, name)); err != nil {
			os.RemoveAll(dir)
			return "", fmt.Errorf("link %s to %s: %w", name, exe, err)
		}
	}
	return dir, nil
}
