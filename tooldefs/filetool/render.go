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
