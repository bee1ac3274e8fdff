// Package memory finds the instruction files a session reads into its
// system prompt, as Claude Code does with CLAUDE.md: the user's own
// (~/.claude/CLAUDE.md, ~/.agentcore/AGENTS.md) and the project's
// (CLAUDE.md, CLAUDE.local.md and AGENTS.md in the working directory and
// every directory above it).
package memory

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MaxFileChars bounds what one file contributes; the rest is cut with a
// note saying so.
const MaxFileChars = 40_000

// projectNames are the file names looked for in each project directory,
// in the order they are read.
var projectNames = []string{"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md"}

// File is one instruction file that was found.
type File struct {
	// Path is the file's absolute path.
	Path string
	// Scope is "user" or "project".
	Scope string
	// Content is its text, cut at MaxFileChars.
	Content string
	// Truncated is true when Content was cut.
	Truncated bool
}

// Find returns the instruction files for a session in cwd, the user's
// first, then the project's from the outermost directory to cwd, so that
// the nearest comes last and reads as the most specific. home may be ""
// (no user files). claudeDir is Claude Code's user directory, whose
// CLAUDE.md is the user's; "" means home/.claude (agentcore passes
// $CLAUDE_CONFIG_DIR). A file that exists but cannot be read is an error
// naming it; the files read so far are still returned.
func Find(cwd, home, claudeDir string) ([]File, error) {
	var paths []File
	if home != "" {
		if claudeDir == "" {
			claudeDir = filepath.Join(home, ".claude")
		}
		paths = append(paths,
			File{Path: filepath.Join(claudeDir, "CLAUDE.md"), Scope: "user"},
			File{Path: filepath.Join(home, ".agentcore", "AGENTS.md"), Scope: "user"})
	}
	cwd, _ = filepath.Abs(cwd)
	var dirs []string
	for d := cwd; ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		for _, n := range projectNames {
			paths = append(paths, File{Path: filepath.Join(dirs[i], n), Scope: "project"})
		}
	}
	var out []File
	var errs []error
	seen := map[string]bool{}
	for _, f := range paths {
		if seen[f.Path] {
			continue
		}
		seen[f.Path] = true
		data, err := os.ReadFile(f.Path)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && strings.TrimSpace(string(data)) == "") {
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("read the instruction file %s: %w", f.Path, err))
			continue
		}
		text := string(data)
		if r := []rune(text); len(r) > MaxFileChars {
			text, f.Truncated = string(r[:MaxFileChars]), true
		}
		f.Content = text
		out = append(out, f)
	}
	return out, errors.Join(errs...)
}

// Prompt renders files as a section of the system prompt; "" when there
// are none.
func Prompt(files []File) string {
	if len(files) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Instructions from the user's and the project's instruction files follow. They override default behaviour: follow them exactly as written.\n")
	for _, f := range files {
		fmt.Fprintf(&b, "\nContents of %s (%s instructions):\n\n%s\n", f.Path, f.Scope, strings.TrimRight(f.Content, "\n"))
		if f.Truncated {
			fmt.Fprintf(&b, "[… cut at %d characters; Read the file for the rest]\n", MaxFileChars)
		}
	}
	return b.String()
}
