//go:build !ant

package tooldefs

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs/filetool"
	"github.com/agentcore/agentcore/tooldefs/search/globengine"
	"github.com/agentcore/agentcore/tooldefs/search/searchtool"
	"github.com/agentcore/agentcore/tooldefs/search/walk"
)

// Glob is a fast file pattern matching tool that works with any codebase size.
//
// - Supports glob patterns like "**/*.js" or "src/**/*.ts"; `*` stays within a directory, `**` crosses directories, `{a,b}` gives alternatives.
// - Returns matching file paths sorted by modification time, newest first, at most 100.
// - Files ignored by .gitignore and version-control directories (.git, .hg…) are left out.
// - Use this tool when you need to find files by name patterns.
// - When you are doing an open-ended search that may require multiple rounds of globbing and grepping, use the Agent tool instead.
// - You can call several tools in one response: run searches that may be useful in parallel.
//
// +tool:name=Glob
// +tool:localOnly
// +tool:readOnly
// +tool:concurrencySafe
// +tool:interrupt=cancel
// +tool:searchHint="find files by name pattern or wildcard"
type Glob struct{}

// GlobInput is the input of Glob.
type GlobInput struct {
	// The glob pattern to match files against, e.g. "**/*.go" or "src/**/*.{ts,tsx}".
	Pattern string `json:"pattern" jsonschema:"minLength=1"`
	// The directory to search in. If not specified, the current working directory will be used. IMPORTANT: Omit this field to use the default directory. DO NOT enter "undefined" or "null" - simply omit it for the default behavior. Must be a valid directory path if provided.
	Path string `json:"path,omitempty"`
}

// GlobOutput is what Glob returns.
type GlobOutput struct {
	// Filenames are the matching files, newest first, relative to the
	// working directory when inside it.
	Filenames []string `json:"filenames"`
	// NumFiles is len(Filenames).
	NumFiles int `json:"numFiles"`
	// Truncated is true when more files matched than were returned.
	Truncated bool `json:"truncated"`
	// DurationMs is how long the search took.
	DurationMs int64 `json:"durationMs"`
	// Denied is the number of files and directories left out because a
	// Read deny rule covers them.
	Denied int `json:"denied,omitempty"`
}

// globTruncatedNote ends a truncated Glob result.
const globTruncatedNote = "(Results are truncated. Consider using a more specific path or pattern.)"

// globWalk is searchtool.Walk with the switches Claude Code has for Glob,
// from the session's ToolOptions: ListIgnored lists ignored files too
// (agentcore: AGENTCORE_GLOB_NO_IGNORE=1), SkipHidden leaves hidden files
// out (AGENTCORE_GLOB_HIDDEN=0).
func globWalk(tc *runtime.ToolContext) walk.Options {
	o := searchtool.Walk(tc)
	opts := runtime.ToolOptionsOf(tc)
	if opts.ListIgnored {
		o.NoIgnore = true
	}
	if opts.SkipHidden {
		o.Hidden = false
	}
	return o
}

// globTarget resolves the directory to search and the pattern relative to
// it: an absolute pattern's literal leading directories become the
// directory.
func globTarget(tc *runtime.ToolContext, in *GlobInput) (dir, pattern string) {
	dir = searchtool.Dir(tc, in.Path)
	pattern = in.Pattern
	if strings.HasPrefix(pattern, "../") {
		// Climbing out of the directory: make the pattern absolute, so that
		// its base is what gets confined to the working directories.
		pattern = filepath.Join(dir, pattern)
	}
	if base, rel := globengine.SplitPattern(pattern); base != "" {
		dir, pattern = base, rel
	}
	return dir, pattern
}

// ValidateInput checks the pattern and that the directory exists, is a
// directory and lies inside the working directories.
func (Glob) ValidateInput(_ context.Context, in *GlobInput, tc *runtime.ToolContext) error {
	dir, pattern := globTarget(tc, in)
	if err := globengine.Validate(pattern); err != nil {
		return err
	}
	_, err := searchtool.Confine(tc, "path", dir, true)
	return err
}

// CheckPermissions refuses a directory outside the working directories.
func (Glob) CheckPermissions(_ context.Context, in *GlobInput, tc *runtime.ToolContext) runtime.PermissionDecision {
	dir, _ := globTarget(tc, in)
	return searchtool.Permission(tc, dir)
}

// PermissionTarget is the directory searched, read: the path as given
// (relative paths are relative to the working directory; "." when empty),
// or an absolute pattern's leading directory.
func (Glob) PermissionTarget(in *GlobInput) runtime.Target {
	v := in.Path
	if base, _ := globengine.SplitPattern(in.Pattern); base != "" {
		v = base
	}
	if v == "" {
		v = "."
	}
	return runtime.Target{Kind: runtime.TargetPath, Value: v}
}

// Call finds the matching files, newest first, at most 100.
func (Glob) Call(ctx context.Context, in *GlobInput, c *runtime.Call) (GlobOutput, error) {
	start := time.Now()
	tc := c.Context
	dir, pattern := globTarget(tc, in)
	real, err := searchtool.Confine(tc, "path", dir, true)
	if err != nil {
		return GlobOutput{}, err
	}
	w := globWalk(tc)
	var denied *atomic.Int64
	w.Exclude, denied = searchtool.Denied(tc)
	res, err := globengine.Glob(ctx, real, pattern, globengine.Options{Walk: w})
	if err != nil {
		return GlobOutput{}, err
	}
	out := GlobOutput{Truncated: res.Truncated, Filenames: make([]string, len(res.Files)), Denied: int(denied.Load())}
	for i, f := range res.Files {
		out.Filenames[i] = searchtool.RelToCwd(tc, filepath.Join(dir, filepath.FromSlash(f.Rel)))
	}
	out.NumFiles = len(out.Filenames)
	out.DurationMs = time.Since(start).Milliseconds()
	return out, nil
}

// ResultBlocks lists the files, one a line, with a note when truncated.
func (Glob) ResultBlocks(out GlobOutput) []runtime.Block {
	text := "No files found"
	if len(out.Filenames) > 0 {
		text = strings.Join(out.Filenames, "\n")
	}
	if out.Truncated {
		text += "\n" + globTruncatedNote
	}
	if note := searchtool.DeniedNote(out.Denied); note != "" {
		text += "\n" + note
	}
	return []runtime.Block{runtime.TextBlock(text)}
}

// RenderUse shows the pattern and, when given, the directory.
func (Glob) RenderUse(in *GlobInput) string {
	s := `pattern: "` + in.Pattern + `"`
	if in.Path != "" {
		s += fmt.Sprintf(", path: %q", filetool.Display(in.Path))
	}
	return s
}

// RenderResult says how many files were found.
func (Glob) RenderResult(_ *GlobInput, out GlobOutput) string {
	s := "Found " + filetool.Plural(out.NumFiles, "file")
	if out.Truncated {
		s += " (truncated)"
	}
	return s
}

// RenderRejected names the refused search.
func (Glob) RenderRejected(in *GlobInput) string {
	return `Search for files matching "` + in.Pattern + `" was rejected`
}

// RenderError shows the first line of the error.
func (Glob) RenderError(_ *GlobInput, err error) string { return filetool.FirstLine(err) }

// RenderGrouped renders parallel globs as one line.
func (Glob) RenderGrouped(ins []*GlobInput) string {
	pats := make([]string, len(ins))
	for i, in := range ins {
		pats[i] = `"` + in.Pattern + `"`
	}
	return "Finding files for " + filetool.Plural(len(ins), "pattern") + ": " + strings.Join(pats, ", ")
}
