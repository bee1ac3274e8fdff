// Package searchtool holds what the Glob and Grep tools share: how they
// walk, the directory a search starts from, its confinement to the working
// directories, and paths shown relative to the current directory. Either
// tool's file can go without the other's; the engines are globengine,
// grepengine and walk.
package searchtool

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/fspath"
	"github.com/agentcore/agentcore/tooldefs/filetool"
	"github.com/agentcore/agentcore/tooldefs/search/walk"
)

// Walk is how Glob and Grep walk: hidden files included (as Claude Code's
// rg --hidden), version-control directories skipped, .gitignore files
// honoured, the user's global gitignore included (git's configuration
// from the session's ToolOptions.GitConfigHome).
func Walk(tc *runtime.ToolContext) walk.Options {
	return walk.Options{Hidden: true, SkipNames: walk.VCSDirs, GlobalIgnore: true, ConfigHome: runtime.ToolOptionsOf(tc).GitConfigHome}
}

// Dir is path resolved against the current directory (a leading ~/ is the
// home directory), or the current directory when path is empty.
func Dir(tc *runtime.ToolContext, path string) string {
	cwd := ""
	if tc != nil {
		cwd = tc.Cwd
	}
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	if path == "" {
		return cwd
	}
	if strings.HasPrefix(path, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, path[2:])
		}
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	return filepath.Clean(path)
}

// Confine checks that dir, given in parameter param, exists, lies inside
// the working directories (symlinks resolved) and, when wantDir, is a
// directory. It returns the resolved path to search.
func Confine(tc *runtime.ToolContext, param, dir string, wantDir bool) (string, error) {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		what := "Path"
		if wantDir {
			what = "Directory"
		}
		msg := fmt.Sprintf("%s does not exist: %s.", what, dir)
		if tc != nil && tc.Cwd != "" {
			msg += " The current working directory is " + tc.Cwd + "."
		}
		return "", fmt.Errorf("%s Give an existing %s in %s, or omit it to search the working directory", msg, strings.ToLower(what), param)
	}
	if err != nil {
		return "", err
	}
	if wantDir && !fi.IsDir() {
		return "", fmt.Errorf("path is not a directory: %s; give a directory in %s (to search one file's content, use Grep)", dir, param)
	}
	real, err := fspath.Confine(dir, filetool.Roots(tc))
	if err != nil {
		return "", err
	}
	return real, nil
}

// Permission denies searching dir when it lies outside the working
// directories (symlinks resolved) and defers everything else to the rules.
func Permission(tc *runtime.ToolContext, dir string) runtime.PermissionDecision {
	if _, err := fspath.Confine(dir, filetool.Roots(tc)); errors.Is(err, fspath.ErrOutside) {
		return runtime.PermissionDecision{Behavior: runtime.Deny, Message: err.Error()}
	}
	return runtime.PermissionDecision{Behavior: runtime.Passthrough}
}

// RelToCwd shows an absolute path relative to the current directory when
// it is inside it, to save tokens, as Claude Code does.
func RelToCwd(tc *runtime.ToolContext, p string) string {
	if tc == nil || tc.Cwd == "" {
		return p
	}
	rel, err := filepath.Rel(tc.Cwd, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p
	}
	return rel
}

// Denied returns the walk's Exclude function for the session's
// runtime.ReadGuard (nil without one) and the count of paths it left out:
// a search over a parent directory leaves out what a Read deny rule
// covers, as Read itself would refuse it.
func Denied(tc *runtime.ToolContext) (func(path string, isDir bool) bool, *atomic.Int64) {
	n := new(atomic.Int64)
	guard, ok := runtime.Service[runtime.ReadGuard](tc)
	if !ok || guard == nil {
		return nil, n
	}
	return func(path string, _ bool) bool {
		if guard.DeniesRead(path) {
			n.Add(1)
			return true
		}
		return false
	}, n
}

// DeniedNote is the sentence a search result ends with when n paths were
// left out because a Read deny rule covers them, "" when none were.
func DeniedNote(n int) string {
	if n == 0 {
		return ""
	}
	what := "paths were"
	if n == 1 {
		what = "path was"
	}
	return fmt.Sprintf("(%d %s left out: a permission rule denies reading them.)", n, what)
}
