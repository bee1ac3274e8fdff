//go:build ant

package tooldefs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs/search/gnu/multicall"
)

// BashSearchTools is the sentence of Bash's description about the tools
// to use instead of shell commands. The ant variant has no Glob or Grep:
// the grep and find of its Bash commands are agentcore's own engines
// (package gnu), first on their PATH, so the model searches with the
// commands it knows.
const BashSearchTools = `Prefer the dedicated tools where they exist, they are faster
and easier for the user to review:
- Read to read files (not cat, head or tail)
- Edit to change files (not sed or awk)
- Write to create files (not echo > or cat <<EOF)

To search, use grep and find in your commands: here they are agentcore's
built-in engines, with GNU grep's and find's options and output (grep -rn,
-i, -l, -c, -v, -w, -x, -E, -F, -o, -A/-B/-C, -e, --include/--exclude;
find -name, -iname, -path, -type, -maxdepth, -mindepth, -newer, -mtime,
-size, -empty, -print0, -not, -exec), fast on large trees, and they search
every file (no .gitignore filtering). An option they lack is refused with
an error that names it, e.g. grep -P (use -E) or find -regex (use -name).`

// bashLinks is a session's directory of grep and find links.
type bashLinks struct {
	mu  sync.Mutex
	dir string
}

// get returns the directory, making it again when it is missing (not made
// yet, or removed by a command).
func (l *bashLinks) get() (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.dir != "" {
		if _, err := os.Lstat(filepath.Join(l.dir, "grep")); err == nil {
			return l.dir, nil
		}
		os.RemoveAll(l.dir)
		l.dir = ""
	}
	dir, err := multicall.NewDir()
	if err != nil {
		return "", fmt.Errorf("set up the built-in grep and find: %w", err)
	}
	l.dir = dir
	return dir, nil
}

func (l *bashLinks) remove() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.dir != "" {
		os.RemoveAll(l.dir)
		l.dir = ""
	}
}

// bashSearchPath returns the directory to put first on the PATH of a Bash
// command: links named grep and find to this binary, which runs them as
// the embedded engines when its package main imports package
// multicall/dispatch (agentcore's does; without it the call fails,
// saying so). A session makes it on its first command and removes it
// when it closes; a call without a session gets its own, removed when
// the call ends.
func bashSearchPath(tc *runtime.ToolContext) (string, func(), error) {
	links, err := runtime.SessionValue(tc, func() (*bashLinks, func()) {
		l := &bashLinks{}
		return l, l.remove
	})
	if errors.Is(err, runtime.ErrNoSession) {
		l := &bashLinks{}
		dir, err := l.get()
		return dir, l.remove, err
	}
	if err != nil {
		return "", nil, err
	}
	dir, err := links.get()
	return dir, func() {}, err
}
