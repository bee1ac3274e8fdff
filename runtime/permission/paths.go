package permission

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/agentcore/agentcore/runtime/fspath"
	"github.com/agentcore/agentcore/runtime/settings"
)

// ResolvePath makes p absolute (against cwd) and resolves every symlink on
// it with fspath.Resolve, so a path through a link is judged by where it
// really leads: parts that do not exist yet (a file about to be written)
// are appended to the resolved existing ancestor, and dangling links are
// followed to their targets. A path that cannot be resolved (a symlink
// loop) gives an error; callers judge it as outside every directory.
func ResolvePath(p, cwd string) (string, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	return fspath.Resolve(filepath.Clean(p))
}

// insideAny reports whether the resolved path lies in one of the resolved
// directories.
func insideAny(resolved string, dirs []string) bool {
	for _, d := range dirs {
		if fspath.Within(resolved, d) {
			return true
		}
	}
	return false
}

// ProtectedPaths says in words which paths IsProtectedPath protects, for
// messages.
const ProtectedPaths = ".git/, .agentcore/ and .claude/ settings*.json, .mcp.json"

// IsProtectedPath reports whether writing p needs the user's word in
// every mode: anything inside a .git directory, the settings files of
// agentcore and Claude Code (.agentcore/settings*.json,
// .claude/settings*.json) and a project's .mcp.json (it starts
// programs). Names compare case-insensitively: on a case-insensitive
// filesystem (macOS, Windows) .GIT/hooks is .git/hooks.
func IsProtectedPath(p string) bool {
	p = strings.ToLower(filepath.ToSlash(filepath.Clean(p)))
	for _, part := range strings.Split(p, "/") {
		if part == ".git" {
			return true
		}
	}
	base := path.Base(p)
	switch dir := path.Base(path.Dir(p)); {
	case base == ".mcp.json":
		return true
	case (dir == ".agentcore" || dir == ".claude") && strings.HasPrefix(base, "settings") && strings.HasSuffix(base, ".json"):
		return true
	}
	return false
}

// expandHome replaces a leading ~ with home.
func expandHome(p, home string) string { return settings.ExpandHome(p, home) }

// resolveDirs resolves every directory (symlinks included), dropping
// duplicates and keeping order.
func resolveDirs(dirs []string, cwd string) []string {
	var out []string
	seen := map[string]bool{}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		r, err := ResolvePath(d, cwd)
		if err != nil {
			// A directory that cannot be resolved holds nothing the
			// resolved paths of calls could lie in.
			continue
		}
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}
