// Package multicall makes the program that links it answer as grep and
// find, with the GNU-compatible engines of package gnu: when the base
// name it was started under (argv[0]) is grep or find, or when its first
// argument is __grep or __find, the program runs that command and exits
// before its own main. Import it for that effect (the ant build's Bash
// tool does, and puts a directory of links named grep and find to the
// running binary first on the PATH of its commands; see NewDir).
//
// The check runs in this package's init, so that a grep started this way
// skips main's set-up. It does not skip the other packages' initialisers:
// Go initialises the ready package with the smallest import path first,
// and this one waits for regexp, path/filepath and os/exec, which sort
// after every github.com package, so in agentcore those (API clients,
// schemas, the clipboard probe) have run by then; GODEBUG=inittrace=1
// shows the order.
//
// A grep or find is short-lived, so Dispatch turns the garbage collector
// off with a memory limit as its backstop (the collector then runs only
// when the heap nears the limit): a GOGC or GOMEMLIMIT in the
// environment is left to rule instead.
package multicall

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/agentcore/agentcore/tooldefs/search/gnu"
)

func init() {
	if code, ok := Dispatch(os.Args); ok {
		os.Exit(code)
	}
}

// Dispatch runs the command argv names, if it names one of gnu.Programs
// by its base name (argv[0]) or as a hidden subcommand (argv[1] is
// "__grep" or "__find"), and returns its exit status.
func Dispatch(argv []string) (int, bool) {
	if len(argv) == 0 {
		return 0, false
	}
	name, args := filepath.Base(argv[0]), argv[1:]
	if !slices.Contains(gnu.Programs, name) {
		if len(argv) < 2 || !strings.HasPrefix(argv[1], "__") {
			return 0, false
		}
		name, args = argv[1][2:], argv[2:]
	}
	shortLived()
	std := gnu.Stdio{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	return gnu.Run(name, args, std)
}

// gcMemoryLimit is the heap size at which the collector runs again once
// shortLived has turned it off: far above what a grep or find keeps live
// (one file's buffers per worker), far below the machine's memory.
const gcMemoryLimit = 512 << 20

// shortLived turns the garbage collector off for a process that exits
// after one command, keeping a memory limit as the backstop, unless the
// environment sets GOGC or GOMEMLIMIT. A grep -rn over GOROOT/src spent
// about a fifth of its CPU collecting garbage it would never reuse.
func shortLived() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(gcMemoryLimit)
	debug.SetGCPercent(-1)
}

// NewDir makes a directory, under the OS temp dir, holding a symbolic link
// named after each of gnu.Programs to the running executable, for the
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
	for _, name := range gnu.Programs {
		if err := os.Symlink(exe, filepath.Join(dir, name)); err != nil {
			os.RemoveAll(dir)
			return "", fmt.Errorf("link %s to %s: %w", name, exe, err)
		}
	}
	return dir, nil
}
