package filetool

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Display shows an absolute path relative to the process's working
// directory when it is inside it, as the user sees paths in a terminal.
func Display(p string) string {
	if p == "" || !filepath.IsAbs(p) {
		return p
	}
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	rel, err := filepath.Rel(wd, filepath.Clean(p))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p
	}
	return rel
}

// FirstLine is the first line of an error message, for one-line renderings.
func FirstLine(err error) string {
	if err == nil {
		return ""
	}
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// Plural renders "1 line" / "2 lines".
func Plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// MaxDiffChars caps the diff the model receives after an edit or write;
// the tool's output value keeps it whole.
const MaxDiffChars = 10_000

// CapDiff cuts a diff longer than MaxDiffChars at a line boundary and says
// how much is left.
func CapDiff(d string) string {
	if len(d) <= MaxDiffChars {
		return d
	}
	cut := strings.LastIndexByte(d[:MaxDiffChars], '\n') + 1
	return d[:cut] + fmt.Sprintf("[diff cut: %d more lines; Read the file to see the rest]\n", strings.Count(d[cut:], "\n"))
}

// DisplayNames lists the distinct display paths (Display) of the inputs,
// in order, for the one-line rendering of parallel calls.
func DisplayNames[T any](ins []T, path func(T) string) []string {
	seen := map[string]bool{}
	var names []string
	for _, in := range ins {
		n := Display(path(in))
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	return names
}

// DiffLines is how many lines of a diff a rendered result shows;
// ContentLines how many of a new file's content.
const (
	DiffLines    = 12
	ContentLines = 6
)

// DiffBody is the part of a unified diff a person reads under a result's
// summary: its hunks (the ---/+++ header dropped: the call names the
// file), at most max lines, then "… +N lines". "" when there is no hunk.
// The transcript colours the lines of a body that starts with "@@".
func DiffBody(diff string, max int) string {
	lines := strings.Split(strings.TrimRight(diff, "\n"), "\n")
	for len(lines) > 0 && !strings.HasPrefix(lines[0], "@@") {
		lines = lines[1:]
	}
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(Head(lines, max), "\n")
}

// HeadLines is the first max lines of s and "… +N lines" for the rest;
// "" for text with nothing but blank lines.
func HeadLines(s string, max int) string {
	s = strings.TrimRight(s, "\n")
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return strings.Join(Head(strings.Split(s, "\n"), max), "\n")
}

// Head keeps the first max lines and says how many more there were.
func Head(lines []string, max int) []string {
	if len(lines) <= max {
		return lines
	}
	return append(lines[:max:max], "… +"+Plural(len(lines)-max, "line"))
}

// WithBody puts body, when there is one, on the lines under summary: the
// form of a RenderResult that shows more than its summary line.
func WithBody(summary, body string) string {
	if body == "" {
		return summary
	}
	return summary + "\n" + body
}

// PreviewLines is how many lines a permission prompt's preview shows.
const PreviewLines = 30
