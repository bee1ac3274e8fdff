// Package globengine finds files whose path matches a doublestar glob
// (github.com/bmatcuk/doublestar/v4: `*`, `?`, `[...]`, `{a,b}` and `**`
// across directories), walking in parallel with .gitignore honoured and
// version-control directories skipped (package walk), and returns them
// newest first.
package globengine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/agentcore/agentcore/tooldefs/search/walk"
)

// DefaultLimit is the number of files Glob returns at most.
const DefaultLimit = 100

// Options configure a glob search.
type Options struct {
	// Limit caps the number of files returned; DefaultLimit when 0,
	// unlimited when negative.
	Limit int
	// Walk selects which files are seen at all (hidden, ignore files).
	Walk walk.Options
}

// File is one match.
type File struct {
	// Path is the root joined with the matched relative path.
	Path string
	// Rel is the slash-separated path relative to the root.
	Rel string
	// ModTime is the file's modification time.
	ModTime time.Time
}

// Result is a glob search's outcome.
type Result struct {
	// Files are the matches, newest first (ties by path), at most Limit.
	Files []File
	// Truncated is true when more files matched than were returned.
	Truncated bool
	// Total is the number of files that matched.
	Total int
}

// SplitPattern separates an absolute pattern into the directory before its
// first meta character and the pattern relative to it
// ("/src/**/*.go" → "/src", "**/*.go"). A relative pattern is returned
// unchanged with an empty base.
func SplitPattern(pattern string) (base, rel string) {
	if !filepath.IsAbs(pattern) {
		return "", pattern
	}
	i := strings.IndexAny(pattern, "*?[{\\")
	if i < 0 {
		return filepath.Dir(pattern), filepath.Base(pattern)
	}
	j := strings.LastIndex(pattern[:i], "/")
	if j <= 0 {
		return "/", pattern[j+1:]
	}
	return pattern[:j], pattern[j+1:]
}

// Validate reports whether pattern is a valid glob, with an error that
// says what to fix.
func Validate(pattern string) error {
	if pattern == "" {
		return fmt.Errorf("the glob pattern is empty: give one such as \"**/*.go\"")
	}
	if !doublestar.ValidatePattern(pattern) {
		return fmt.Errorf("invalid glob pattern %q: check that every [ and { is closed and that \\ escapes a character", pattern)
	}
	return nil
}

// Glob returns the files under root whose root-relative path matches
// pattern (relative, slash-separated).
func Glob(ctx context.Context, root, pattern string, opts Options) (*Result, error) {
	pattern = strings.TrimPrefix(filepath.ToSlash(pattern), "./")
	if err := Validate(pattern); err != nil {
		return nil, err
	}
	// Walk only below the pattern's literal leading directories, and no
	// deeper than a pattern without ** can reach.
	base, rest := literalPrefix(pattern)
	wo := opts.Walk
	wo.Stat = true
	if !strings.Contains(rest, "**") && !strings.Contains(rest, "{") {
		wo.MaxDepth = strings.Count(rest, "/") + 1
	}
	filter, err := walk.NewFilter(wo)
	if err != nil {
		return nil, err
	}
	start := root
	if base != "" {
		start = filepath.Join(root, filepath.FromSlash(base))
		if info, err := os.Stat(start); err != nil || !info.IsDir() {
			return &Result{}, nil
		}
	}
	match := matcher(rest)
	var mu sync.Mutex
	var files []File
	err = filter.Walk(ctx, start, func(e *walk.Entry) error {
		if !match(e.Rel) {
			return nil
		}
		rel := e.Rel
		if base != "" {
			rel = base + "/" + rel
		}
		mu.Lock()
		files = append(files, File{Path: e.Path, Rel: rel, ModTime: e.ModTime})
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(files, func(a, b File) int {
		if c := b.ModTime.Compare(a.ModTime); c != 0 {
			return c
		}
		return strings.Compare(a.Rel, b.Rel)
	})
	res := &Result{Total: len(files)}
	limit := opts.Limit
	if limit == 0 {
		limit = DefaultLimit
	}
	if limit > 0 && len(files) > limit {
		files = files[:limit]
		res.Truncated = true
	}
	res.Files = files
	return res, nil
}

// literalPrefix splits off the leading path components that contain no
// meta characters: "src/pkg/**/*.go" → "src/pkg", "**/*.go".
func literalPrefix(pattern string) (base, rest string) {
	parts := strings.Split(pattern, "/")
	i := 0
	for i < len(parts)-1 && parts[i] != "" && !strings.ContainsAny(parts[i], "*?[{\\") && parts[i] != ".." {
		i++
	}
	return strings.Join(parts[:i], "/"), strings.Join(parts[i:], "/")
}

// matcher returns a fast matcher for common shapes and doublestar's
// otherwise.
func matcher(pattern string) func(string) bool {
	if suffix, ok := strings.CutPrefix(pattern, "**/*"); ok && !strings.ContainsAny(suffix, "*?[{\\/") {
		return func(p string) bool { return strings.HasSuffix(p, suffix) }
	}
	return func(p string) bool { return doublestar.MatchUnvalidated(pattern, p) }
}
