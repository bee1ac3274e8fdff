// Package multicall lets a program answer as grep and find, with the
// GNU-compatible engines of package gnu: Dispatch runs the command when
// the base name the program was started under (argv[0]) is grep or find,
// or when its first argument is __grep or __find, and NewDir makes a
// directory of links named grep and find to the running binary, for the
// front of a command's PATH (the ant build's Bash tool does).
//
// Nothing here takes over os.Args by being linked. A program opts in by
// importing package dispatch for its effect (cmd/agentcore does, in its
// ant-only multicall_ant.go): its initialiser calls Install, which runs
// the command and exits before main when argv names one. NewDir refuses
// to link to a binary that has not installed the dispatch, since its
// links would start the program's own main as grep.
package multicall

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentcore/agentcore/tooldefs/search/gnu"
	"github.com/agentcore/agentcore/tooldefs/search/gnu/find"
	"github.com/agentcore/agentcore/tooldefs/search/gnu/regex"
)

// Programs are the commands Dispatch runs, by name.
var Programs = []string{"grep", "find"}

// installed records that Install ran: this binary answers as grep and
// find, so NewDir may link to it. Set by an initialiser, read after.
var installed bool

// Install runs the command os.Args names and exits with its status, when
// it names one (see Dispatch); otherwise it records that this binary
// answers as grep and find, and returns. Package dispatch calls it from
// its initialiser; call it from nowhere else.
func Install() {
	if code, ok := Dispatch(os.Args); ok {
		os.Exit(code)
	}
	installed = true
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
	if !installed {
		return "", fmt.Errorf("this program does not answer as grep and find, so links to it would start its own main: " +
			"import _ \"github.com/agentcore/agentcore/tooldefs/search/gnu/multicall/dispatch\" in its package main (as agentcore's multicall_ant.go does)")
	}
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
