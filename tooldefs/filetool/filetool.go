// Package filetool holds what the tools that read and write files (Read,
// Write, Edit, NotebookEdit; Glob and Grep for paths) share, so that no
// tool's file serves another: checking a path the model gave, the
// read-before-write rule of the file-state cache, recording what a tool saw
// or wrote (filetool.go); writing a file atomically with its mode kept
// (atomic.go); hashing content and telling text from binary (content.go);
// and showing paths, counts and diffs (render.go). Resolving and confining
// paths, symlinks included, lives in runtime/fspath, which the permission
// engine shares.
//
// The file-state cache is keyed by the cleaned absolute path the model gave
// (Key). An entry recorded by Read has Offset >= 1; an entry recorded by a
// write (Edit, Write, NotebookEdit) has Offset 0, meaning the model has not
// seen the whole new content, so Read never answers "unchanged" for it.
package filetool

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/fspath"
)

// Key is the file-state cache key of a path: its cleaned absolute form.
func Key(p string) string { return filepath.Clean(p) }

// Path checks a file path given by the model in parameter param: it must
// be absolute and, with symlinks resolved, inside the working directories.
// It returns the cache key and the resolved path to read or write.
func Path(tc *runtime.ToolContext, param, p string) (key, real string, err error) {
	if p == "" {
		return "", "", fmt.Errorf("%s is empty; give the absolute path of the file", param)
	}
	if !filepath.IsAbs(p) {
		hint := ""
		if tc != nil && tc.Cwd != "" {
			hint = fmt.Sprintf(" (did you mean %q?)", filepath.Join(tc.Cwd, p))
		}
		return "", "", fmt.Errorf("%s must be an absolute path, got %q%s", param, p, hint)
	}
	key = Key(p)
	real, err = fspath.Confine(p, Roots(tc))
	if err != nil {
		return "", "", err
	}
	return key, real, nil
}

// Roots are the directories file tools may touch: the working directories,
// or Cwd when none are set.
func Roots(tc *runtime.ToolContext) []string {
	if tc == nil {
		return nil
	}
	if len(tc.WorkingDirs) > 0 {
		return tc.WorkingDirs
	}
	if tc.Cwd != "" {
		return []string{tc.Cwd}
	}
	return nil
}

// ErrNotRead is wrapped by CheckFresh's error for a file never read.
var ErrNotRead = errors.New("file has not been read yet")

// ErrModified is wrapped by CheckFresh's error for a file changed since it
// was read.
var ErrModified = errors.New("file has been modified since read")

// CheckFresh enforces read-before-write: the file at key must have been
// read (or written) by a tool, and its content must still hash to what was
// recorded, whatever its modification time says.
func CheckFresh(tc *runtime.ToolContext, key string, content []byte) error {
	var st runtime.FileState
	ok := false
	if tc != nil {
		st, ok = tc.FileState.Get(key)
	}
	if !ok {
		return fmt.Errorf("%w: read %s with the Read tool first, then retry", ErrNotRead, key)
	}
	if st.Hash != Hash(content) {
		return fmt.Errorf("%w: %s was changed (by the user, a linter or another tool) after it was last read; read it again with the Read tool, then retry", ErrModified, key)
	}
	return nil
}

// Checkpoint reports the file at real to the session's file history
// (runtime.FileHistory) before a tool writes it, so that a rewind can put
// it back; without a history it does nothing. The tool must not write
// when it fails.
func Checkpoint(tc *runtime.ToolContext, key, real string) error {
	h, ok := runtime.Service[runtime.FileHistory](tc)
	if !ok {
		return nil
	}
	if err := h.BeforeWrite(real); err != nil {
		return fmt.Errorf("%s is unchanged: keeping its content for /rewind failed: %w", key, err)
	}
	return nil
}

// Diagnose asks the session's running language servers
// (runtime.FileDiagnostics) what is newly wrong in the file at real, just
// written; "" when nothing is, or without them. It waits a short bounded
// time.
func Diagnose(ctx context.Context, tc *runtime.ToolContext, real string) string {
	d, ok := runtime.Service[runtime.FileDiagnostics](tc)
	if !ok {
		return ""
	}
	return d.AfterWrite(ctx, real)
}

// RecordWrite registers, through the call's context modifier, that a tool
// wrote content to the file at key (resolved path real).
func RecordWrite(c *runtime.Call, key, real string, content []byte) {
	st := runtime.FileState{Hash: Hash(content)}
	if fi, err := os.Stat(real); err == nil {
		st.ModTime = fi.ModTime()
	} else {
		st.ModTime = time.Now()
	}
	Record(c, key, st)
}

// Record registers a file state through the call's context modifier.
func Record(c *runtime.Call, key string, st runtime.FileState) {
	c.ModifyContext(func(tc *runtime.ToolContext) {
		if tc.FileState == nil {
			tc.FileState = runtime.NewFileStateCache()
		}
		tc.FileState.Set(key, st)
	})
}

// NotExist is the error for a missing file, with the current directory and
// a similarly named file when there is one.
func NotExist(tc *runtime.ToolContext, key string) error {
	msg := "File does not exist: " + key + "."
	if s := Similar(key); s != "" {
		msg += " Did you mean " + s + "?"
	}
	if tc != nil && tc.Cwd != "" {
		msg += " The current working directory is " + tc.Cwd + "."
	}
	return errors.New(msg)
}

// Similar returns a file in the same directory whose name differs from
// path's only by case or extension, or "".
func Similar(path string) string {
	dir, base := filepath.Split(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	for _, e := range entries {
		n := e.Name()
		if n == base {
			continue
		}
		if strings.EqualFold(n, base) || (stem != "" && strings.TrimSuffix(n, filepath.Ext(n)) == stem) {
			return filepath.Join(dir, n)
		}
	}
	return ""
}

// Stat is os.Stat with errors a model can act on: a missing file gets
// NotExist's message; directories, devices, pipes and sockets are refused.
func Stat(tc *runtime.ToolContext, key, real string) (fs.FileInfo, error) {
	fi, err := os.Stat(real)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, NotExist(tc, key)
	}
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not a file; list it with Bash (ls) or Glob", key)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (it is a device, pipe or socket); file tools only use regular files", key)
	}
	return fi, nil
}
