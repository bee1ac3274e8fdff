package shell

import (
	"path/filepath"
	"strings"
)

// Within reports whether path is one of roots or below one of them. Both
// sides are compared as absolute paths with symlinks resolved where they
// exist (bash's pwd -P reports physical paths).
func Within(path string, roots []string) bool {
	p := physical(path)
	for _, r := range roots {
		if r == "" {
			continue
		}
		rel, err := filepath.Rel(physical(r), p)
		if err != nil {
			continue
		}
		if rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)) {
			return true
		}
	}
	return false
}

func physical(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}
