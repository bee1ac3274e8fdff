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
//
// The path is not cleaned first: "link/../f" is the f next to the link's
// target, as the kernel reads it, not the f next to the link.
func ResolvePath(p, cwd string) (string, error) {
	return fspath.Resolve(joinRaw(cwd, p))
}

// resolveWith is ResolvePath answered by res, which remembers what it has
// examined during one check (nil: nothing).
func resolveWith(res *fspath.Resolver, p, cwd string) (string, error) {
	return res.Resolve(joinRaw(cwd, p))
}

// joinRaw makes p absolute against dir without cleaning it, so that a
// ".." after a symlink is left for ResolvePath to read as the kernel does.
func joinRaw(dir, p string) string {
	if filepath.IsAbs(p) || dir == "" {
		return p
	}
	return strings.TrimRight(dir, string(filepath.Separator)) + string(filepath.Separator) + p
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
const ProtectedPaths = ".git/, .agentcore/ and .claude/ settings*.json, skills/, agents/ and commands/, .mcp.json, .vscode/ and .idea/ task, launch and settings files, .ssh/ and shell start-up files (.bashrc, .profile, .zshrc…)"

// startupFiles are the files a shell (or git) reads when it starts: a
// write to one runs code in every later session of the user.
var startupFiles = map[string]bool{
	".bashrc": true, ".bash_profile": true, ".bash_login": true, ".bash_logout": true, ".bash_aliases": true,
	".profile": true, ".zshrc": true, ".zshenv": true, ".zprofile": true, ".zlogin": true, ".zlogout": true,
	".kshrc": true, ".mkshrc": true, ".cshrc": true, ".tcshrc": true, ".login": true, ".logout": true,
	".inputrc": true, ".envrc": true, ".gitconfig": true, ".npmrc": true, ".pam_environment": true, ".xprofile": true,
}

// agentDirs are the folders whose files configure an agent: a skill or
// agent definition with allowed-tools grants itself tools on a later turn.
var agentDirs = map[string]bool{"skills": true, "agents": true, "commands": true, "hooks": true, "output-styles": true}

// IsProtectedPath reports whether writing p needs the user's word in
// every mode: anything inside a .git directory (hooks, config, info) or
// .ssh directory; the settings files of agentcore and Claude Code
// (.agentcore/settings*.json, .claude/settings*.json) and their skills,
// agents, commands and hooks folders; a project's .mcp.json (it starts
// programs); the task, launch and settings files of .vscode/ and the run
// configurations and workspace of .idea/ (an editor runs them); and shell
// start-up files (.bashrc, .profile, .zshrc, fish's config…). Names
// compare case-insensitively: on a case-insensitive filesystem (macOS,
// Windows) .GIT/hooks is .git/hooks.
func IsProtectedPath(p string) bool {
	p = strings.ToLower(filepath.ToSlash(filepath.Clean(p)))
	// The components, on the stack for all but very deep paths: this
	// runs for every path a check judges.
	var buf [32]string
	parts := buf[:0]
	for part := range strings.SplitSeq(p, "/") {
		parts = append(parts, part)
	}
	for i, part := range parts {
		switch part {
		case ".git", ".ssh":
			return true
		case ".claude", ".agentcore":
			if i+1 < len(parts) && agentDirs[parts[i+1]] {
				return true
			}
		case ".idea":
			if i+1 < len(parts) && (parts[i+1] == "runconfigurations" || parts[i+1] == "workspace.xml" || parts[i+1] == "tools") {
				return true
			}
		case "fish":
			if i > 0 && parts[i-1] == ".config" && i+1 < len(parts) && (parts[i+1] == "config.fish" || parts[i+1] == "conf.d" || parts[i+1] == "functions") {
				return true
			}
		}
	}
	base := path.Base(p)
	switch dir := path.Base(path.Dir(p)); {
	case base == ".mcp.json" || startupFiles[base]:
		return true
	case (dir == ".agentcore" || dir == ".claude") && strings.HasPrefix(base, "settings") && strings.HasSuffix(base, ".json"):
		return true
	case dir == ".vscode" && (base == "tasks.json" || base == "launch.json" || base == "settings.json" || base == "extensions.json"):
		return true
	}
	return false
}

// expandHome replaces a leading ~ with home.
func expandHome(p, home string) string { return settings.ExpandHome(p, home) }

// resolveDirs resolves every directory (symlinks included), dropping
// duplicates and keeping order.
func resolveDirs(dirs []string, cwd string, res *fspath.Resolver) []string {
	var out []string
	seen := map[string]bool{}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		r, err := resolveWith(res, d, cwd)
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
