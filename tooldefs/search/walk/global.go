package walk

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// globalGitignore reads the user's global gitignore: core.excludesFile from
// xdg/git/config or ~/.gitconfig, else xdg/git/ignore, where xdg is git's
// $XDG_CONFIG_HOME (Options.ConfigHome; empty: ~/.config). It returns nil
// when there is none. Its patterns match paths relative to the search
// root.
func globalGitignore(xdg string) *IgnoreFile {
	home, _ := os.UserHomeDir()
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	path := ""
	for _, cfg := range []string{filepath.Join(xdg, "git", "config"), filepath.Join(home, ".gitconfig")} {
		if p := excludesFile(cfg); p != "" {
			path = p
		}
	}
	if path == "" && xdg != "" {
		path = filepath.Join(xdg, "git", "ignore")
	}
	if strings.HasPrefix(path, "~/") && home != "" {
		path = filepath.Join(home, path[2:])
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	f := ParseIgnore(data)
	if len(f.rules) == 0 {
		return nil
	}
	return f
}

// excludesFile reads core.excludesFile from a git config file (the
// simple `[core]` / `excludesfile = path` form).
func excludesFile(cfg string) string {
	data, err := os.ReadFile(cfg)
	if err != nil {
		return ""
	}
	section, found := "", ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			section = strings.ToLower(strings.Trim(line, "[] \t"))
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if ok && section == "core" && strings.EqualFold(strings.TrimSpace(k), "excludesfile") {
			found = strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	return found
}
