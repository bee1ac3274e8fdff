package permission

import (
	"path/filepath"
	"strings"
)

// ResolvePath makes p absolute (against cwd) and resolves symlinks in the
// longest part of it that exists, so a path through a link is judged by
// where it really leads. Parts that do not exist yet (a file about to be
// written) are appended unchanged.
func ResolvePath(p, cwd string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	p = filepath.Clean(p)
	var rest []string
	cur := p
	for i := 0; i < 256; i++ {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(append([]string{r}, rest...)...)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			break
		}
		rest = append([]string{filepath.Base(cur)}, rest...)
		cur = parent
	}
	return p
}

// within reports whether path is dir or lies beneath it; both are clean
// absolute paths.
func within(path, dir string) bool {
	if path == dir {
		return true
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

// insideAny reports whether the resolved path lies in one of the resolved
// directories.
func insideAny(resolved string, dirs []string) bool {
	for _, d := range dirs {
		if within(resolved, d) {
			return true
		}
	}
	return false
}

// IsProtectedPath reports whether writing p needs the user's word in
// every mode: anything inside a .git directory and agentcore's settings
// files (.agentcore/settings*.json).
func IsProtectedPath(p string) bool {
	p = filepath.Clean(p)
	for _, part := range strings.Split(filepath.ToSlash(p), "/") {
		if part == ".git" {
			return true
		}
	}
	base := filepath.Base(p)
	if filepath.Base(filepath.Dir(p)) == ".agentcore" && strings.HasPrefix(base, "settings") && strings.HasSuffix(base, ".json") {
		return true
	}
	return false
}

// expandHome replaces a leading ~ with home.
func expandHome(p, home string) string {
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") {
		return filepath.Join(home, p[2:])
	}
	return p
}

// resolveDirs resolves every directory (symlinks included), dropping
// duplicates and keeping order.
func resolveDirs(dirs []string, cwd string) []string {
	var out []string
	seen := map[string]bool{}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		r := ResolvePath(d, cwd)
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}
