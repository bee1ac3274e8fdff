//go:build !ant

package tooldefs

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs/filetool"
	"github.com/agentcore/agentcore/tooldefs/search/grepengine"
	"github.com/agentcore/agentcore/tooldefs/search/searchtool"
)

// Grep is a powerful search tool with ripgrep's interface, built in (nothing to install).
//
// Usage:
// - ALWAYS use Grep for search tasks. NEVER invoke `grep` or `rg` as a Bash command. The Grep tool has been optimized for correct permissions and access.
// - Supports full regex syntax (RE2, e.g. "log.*Error", "function\s+\w+").
// - Filter files with the glob parameter (e.g. "*.js", "**/*.tsx") or the type parameter (e.g. "js", "py", "rust").
// - Output modes: "content" shows matching lines, "files_with_matches" shows only file paths (default, newest first), "count" shows match counts.
// - Use the Agent tool for open-ended searches requiring multiple rounds.
// - Pattern syntax: literal braces and parentheses need escaping (use `interface\{\}` to find `interface{}` in Go code).
// - Multiline matching: by default patterns match within single lines only. For cross-line patterns like `struct \{[\s\S]*?field`, use `multiline: true`.
// - Files ignored by .gitignore, binary files and version-control directories are skipped.
//
// +tool:name=Grep
// +tool:localOnly
// +tool:readOnly
// +tool:concurrencySafe
// +tool:interrupt=cancel
// +tool:searchHint="search file contents with regex (ripgrep)"
type Grep struct{}

// GrepInput is the input of Grep.
type GrepInput struct {
	// The regular expression pattern to search for in file contents.
	Pattern string `json:"pattern"`
	// File or directory to search in (rg PATH). Defaults to the current working directory.
	Path string `json:"path,omitempty"`
	// Glob pattern to filter files (e.g. "*.js", "*.{ts,tsx}") - maps to rg --glob. Several may be separated by spaces or commas; "!pattern" excludes.
	Glob string `json:"glob,omitempty"`
	// Output mode: "content" shows matching lines (supports -A/-B/-C context, -n line numbers, head_limit), "files_with_matches" shows file paths (supports head_limit), "count" shows match counts (supports head_limit). Defaults to "files_with_matches".
	OutputMode string `json:"output_mode,omitempty" jsonschema:"enum=content,enum=files_with_matches,enum=count"`
	// Number of lines to show before each match (rg -B). Requires output_mode: "content", ignored otherwise.
	Before *int `json:"-B,omitempty" jsonschema:"minimum=0"`
	// Number of lines to show after each match (rg -A). Requires output_mode: "content", ignored otherwise.
	After *int `json:"-A,omitempty" jsonschema:"minimum=0"`
	// Number of lines to show before and after each match (rg -C). Requires output_mode: "content", ignored otherwise.
	ContextC *int `json:"-C,omitempty" jsonschema:"minimum=0"`
	// Alias for -C.
	Context *int `json:"context,omitempty" jsonschema:"minimum=0"`
	// Show line numbers in output (rg -n). Requires output_mode: "content", ignored otherwise. Defaults to true.
	LineNumbers *bool `json:"-n,omitempty"`
	// Case insensitive search (rg -i).
	IgnoreCase bool `json:"-i,omitempty"`
	// File type to search (rg --type). Common types: js, py, rust, go, java, etc. More efficient than glob for standard file types.
	Type string `json:"type,omitempty"`
	// Limit output to first N lines/entries, equivalent to "| head -N". Works across all output modes: content (limits output lines), files_with_matches (limits file paths), count (limits count entries). Defaults to 250 when unspecified. Pass 0 for unlimited (use sparingly — large result sets waste context).
	HeadLimit *int `json:"head_limit,omitempty" jsonschema:"minimum=0"`
	// Skip first N lines/entries before applying head_limit, equivalent to "| tail -n +N | head -N". Works across all output modes. Defaults to 0.
	Offset int `json:"offset,omitempty" jsonschema:"minimum=0"`
	// Enable multiline mode where . matches newlines and patterns can span lines (rg -U --multiline-dotall). Default: false.
	Multiline bool `json:"multiline,omitempty"`
}

// GrepDefaultHeadLimit caps Grep's output when head_limit is not given.
const GrepDefaultHeadLimit = 250

// grepMaxColumns is rg --max-columns: longer lines are replaced by a note,
// so minified or base64 content does not flood the context.
const grepMaxColumns = 500

// GrepOutput is what Grep returns.
type GrepOutput struct {
	// Mode is the output mode used.
	Mode string `json:"mode"`
	// NumFiles is the number of files listed (files_with_matches) or
	// counted (count).
	NumFiles int `json:"numFiles"`
	// Filenames are the matching files in files_with_matches mode, newest
	// first, relative to the working directory when inside it.
	Filenames []string `json:"filenames"`
	// Content is the output of content and count modes.
	Content string `json:"content,omitempty"`
	// NumLines is the number of content lines returned.
	NumLines int `json:"numLines,omitempty"`
	// NumMatches is the total of the counts returned (count mode).
	NumMatches int `json:"numMatches,omitempty"`
	// AppliedLimit is the head_limit that cut the output, when it did.
	AppliedLimit *int `json:"appliedLimit,omitempty"`
	// AppliedOffset is the offset skipped, when not 0.
	AppliedOffset int `json:"appliedOffset,omitempty"`
	// Denied is the number of files and directories left out because a
	// Read deny rule covers them.
	Denied int `json:"denied,omitempty"`
}

// grepOptions builds the engine's options from the input.
func grepOptions(tc *runtime.ToolContext, in *GrepInput) (grepengine.Options, error) {
	mode, err := grepengine.ParseMode(in.OutputMode)
	if err != nil {
		return grepengine.Options{}, err
	}
	o := grepengine.Options{
		Pattern:    in.Pattern,
		IgnoreCase: in.IgnoreCase,
		Multiline:  in.Multiline,
		Mode:       mode,
		MaxColumns: grepMaxColumns,
		Walk:       searchtool.Walk(tc),
	}
	if mode == grepengine.Content {
		o.LineNumbers = in.LineNumbers == nil || *in.LineNumbers
		switch {
		case in.Context != nil:
			o.Before, o.After = *in.Context, *in.Context
		case in.ContextC != nil:
			o.Before, o.After = *in.ContextC, *in.ContextC
		default:
			if in.Before != nil {
				o.Before = *in.Before
			}
			if in.After != nil {
				o.After = *in.After
			}
		}
		if o.Before < 0 || o.After < 0 {
			return o, fmt.Errorf("context line counts (-A, -B, -C) must not be negative")
		}
	}
	if (in.HeadLimit != nil && *in.HeadLimit < 0) || in.Offset < 0 {
		return o, fmt.Errorf("head_limit and offset must not be negative (head_limit 0 means no limit)")
	}
	if in.Type != "" {
		o.Walk.Types = []string{in.Type}
	}
	o.Walk.Globs = append(o.Walk.Globs, splitGlobs(in.Glob)...)
	return o, nil
}

// spaces is a run of white space, compiled at the first Grep call.
var spaces = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s+`) })

// splitGlobs splits the glob parameter as Claude Code does: on white
// space, then on commas outside patterns that use {…} alternates.
func splitGlobs(s string) []string {
	var out []string
	for _, raw := range spaces().Split(strings.TrimSpace(s), -1) {
		if raw == "" {
			continue
		}
		if strings.Contains(raw, "{") && strings.Contains(raw, "}") {
			out = append(out, raw)
			continue
		}
		for _, p := range strings.Split(raw, ",") {
			if p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// ValidateInput checks the regular expression, type and globs, and that
// the path exists inside the working directories.
func (Grep) ValidateInput(_ context.Context, in *GrepInput, tc *runtime.ToolContext) error {
	o, err := grepOptions(tc, in)
	if err != nil {
		return err
	}
	if _, err := grepengine.New(o); err != nil {
		return err
	}
	_, err = searchtool.Confine(tc, "path", searchtool.Dir(tc, in.Path), false)
	return err
}

// CheckPermissions refuses a path outside the working directories.
func (Grep) CheckPermissions(_ context.Context, in *GrepInput, tc *runtime.ToolContext) runtime.PermissionDecision {
	return searchtool.Permission(tc, searchtool.Dir(tc, in.Path))
}

// PermissionTarget is the file or directory searched, read: the path as
// given (relative to the working directory; "." when empty).
func (Grep) PermissionTarget(in *GrepInput) runtime.Target {
	v := in.Path
	if v == "" {
		v = "."
	}
	return runtime.Target{Kind: runtime.TargetPath, Value: v}
}

// Call runs the search and applies head_limit and offset.
func (Grep) Call(ctx context.Context, in *GrepInput, c *runtime.Call) (GrepOutput, error) {
	tc := c.Context
	o, err := grepOptions(tc, in)
	if err != nil {
		return GrepOutput{}, err
	}
	dir := searchtool.Dir(tc, in.Path)
	real, err := searchtool.Confine(tc, "path", dir, false)
	if err != nil {
		return GrepOutput{}, err
	}
	var denied *atomic.Int64
	o.Walk.Exclude, denied = searchtool.Denied(tc)
	res, err := grepengine.Search(ctx, real, o)
	if err != nil {
		return GrepOutput{}, err
	}
	display := func(f *grepengine.FileResult) string {
		if res.SingleFile {
			return searchtool.RelToCwd(tc, dir)
		}
		return searchtool.RelToCwd(tc, filepath.Join(dir, filepath.FromSlash(f.Rel)))
	}
	out := GrepOutput{Mode: o.Mode.String(), Filenames: []string{}, Denied: int(denied.Load())}
	if in.Offset > 0 {
		out.AppliedOffset = in.Offset
	}
	switch o.Mode {
	case grepengine.Content:
		lines, limit := headLimit(res.Format(display), in.HeadLimit, in.Offset)
		out.Content = strings.Join(lines, "\n")
		out.NumLines = len(lines)
		out.AppliedLimit = limit
	case grepengine.Count:
		files, limit := headLimit(res.Files, in.HeadLimit, in.Offset)
		lines := make([]string, len(files))
		for i := range files {
			lines[i] = fmt.Sprintf("%s:%d", display(&files[i]), files[i].Count)
			out.NumMatches += files[i].Count
		}
		out.Content = strings.Join(lines, "\n")
		out.NumFiles = len(files)
		out.AppliedLimit = limit
	default:
		files := newestFirst(res.Files)
		files, limit := headLimit(files, in.HeadLimit, in.Offset)
		for i := range files {
			out.Filenames = append(out.Filenames, display(&files[i]))
		}
		out.NumFiles = len(files)
		out.AppliedLimit = limit
	}
	return out, nil
}

// newestFirst orders matching files by modification time, newest first,
// ties by path, as Claude Code orders files_with_matches.
func newestFirst(files []grepengine.FileResult) []grepengine.FileResult {
	type stamped struct {
		f grepengine.FileResult
		t int64
	}
	s := make([]stamped, len(files))
	for i, f := range files {
		s[i].f = f
		s[i].t = f.ModTime.UnixNano()
	}
	slices.SortStableFunc(s, func(a, b stamped) int {
		switch {
		case a.t > b.t:
			return -1
		case a.t < b.t:
			return 1
		}
		return grepengine.ComparePaths(a.f.Rel, b.f.Rel)
	})
	out := make([]grepengine.FileResult, len(s))
	for i := range s {
		out[i] = s[i].f
	}
	return out
}

// headLimit applies offset then head_limit (default 250, 0 = unlimited)
// and returns the limit when it cut something.
func headLimit[T any](items []T, limit *int, offset int) ([]T, *int) {
	if offset > len(items) {
		offset = len(items)
	}
	items = items[offset:]
	n := GrepDefaultHeadLimit
	if limit != nil {
		n = *limit
	}
	if n == 0 || len(items) <= n {
		return items, nil
	}
	return items[:n], &n
}

// limitInfo renders "limit: 250, offset: 10" for a paginated result.
func (out GrepOutput) limitInfo() string {
	var parts []string
	if out.AppliedLimit != nil {
		parts = append(parts, fmt.Sprintf("limit: %d", *out.AppliedLimit))
	}
	if out.AppliedOffset > 0 {
		parts = append(parts, fmt.Sprintf("offset: %d", out.AppliedOffset))
	}
	return strings.Join(parts, ", ")
}

// ResultBlocks renders the output as Claude Code's Grep does.
func (Grep) ResultBlocks(out GrepOutput) []runtime.Block {
	info := out.limitInfo()
	var text string
	switch out.Mode {
	case "content":
		text = out.Content
		if text == "" {
			text = "No matches found"
		}
		if info != "" {
			text += "\n\n[Showing results with pagination = " + info + "]"
		}
	case "count":
		text = out.Content
		if text == "" {
			text = "No matches found"
		}
		occ := "occurrences"
		if out.NumMatches == 1 {
			occ = "occurrence"
		}
		text += fmt.Sprintf("\n\nFound %d total %s across %s.", out.NumMatches, occ, filetool.Plural(out.NumFiles, "file"))
		if info != "" {
			text += " with pagination = " + info
		}
	default:
		if out.NumFiles == 0 {
			text = "No files found"
			break
		}
		text = "Found " + filetool.Plural(out.NumFiles, "file")
		if info != "" {
			text += " " + info
		}
		text += "\n" + strings.Join(out.Filenames, "\n")
	}
	if note := searchtool.DeniedNote(out.Denied); note != "" {
		text += "\n\n" + note
	}
	return []runtime.Block{runtime.TextBlock(text)}
}

// RenderUse shows the pattern and, when given, the path.
func (Grep) RenderUse(in *GrepInput) string {
	s := `pattern: "` + in.Pattern + `"`
	if in.Path != "" {
		s += fmt.Sprintf(", path: %q", filetool.Display(in.Path))
	}
	return s
}

// RenderResult summarises the result: files, lines or matches found.
func (Grep) RenderResult(_ *GrepInput, out GrepOutput) string {
	switch out.Mode {
	case "content":
		return "Found " + filetool.Plural(out.NumLines, "line")
	case "count":
		m := fmt.Sprintf("%d matches", out.NumMatches)
		if out.NumMatches == 1 {
			m = "1 match"
		}
		return "Found " + m + " across " + filetool.Plural(out.NumFiles, "file")
	}
	return "Found " + filetool.Plural(out.NumFiles, "file")
}

// RenderRejected names the refused search.
func (Grep) RenderRejected(in *GrepInput) string {
	return `Search for "` + in.Pattern + `" was rejected`
}

// RenderError shows the first line of the error.
func (Grep) RenderError(_ *GrepInput, err error) string { return filetool.FirstLine(err) }

// RenderGrouped renders parallel searches as one line.
func (Grep) RenderGrouped(ins []*GrepInput) string {
	pats := make([]string, len(ins))
	for i, in := range ins {
		pats[i] = `"` + in.Pattern + `"`
	}
	return "Searched for " + filetool.Plural(len(ins), "pattern") + ": " + strings.Join(pats, ", ")
}
