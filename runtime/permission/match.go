package permission

import (
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// matchCommand reports whether a command rule's content matches one
// rendered simple command, in Claude Code's semantics:
//
//	"npm run test:*"  the prefix "npm run test", then the end or a space
//	"git * main"      * matches any characters; a single trailing " *" is optional
//	"npm install"     exactly that command
func matchCommand(pattern, cmd string) bool {
	pattern = strings.TrimSpace(pattern)
	cmd = strings.TrimSpace(cmd)
	if prefix, ok := strings.CutSuffix(pattern, ":*"); ok && !hasWildcard(prefix) {
		prefix = unescapeStar(strings.TrimSpace(prefix))
		return cmd == prefix || strings.HasPrefix(cmd, prefix+" ")
	}
	if !hasWildcard(pattern) {
		return cmd == unescapeStar(pattern)
	}
	return wildcardRegexp(pattern).MatchString(cmd)
}

// literalWords is how many leading words pattern spells out before a
// wildcard: all of an exact pattern's, the prefix's of "prefix:*".
func literalWords(pattern string) int {
	pattern = strings.TrimSpace(pattern)
	if prefix, ok := strings.CutSuffix(pattern, ":*"); ok && !hasWildcard(prefix) {
		return len(strings.Fields(prefix))
	}
	n := 0
	for _, w := range strings.Fields(pattern) {
		if hasWildcard(w) {
			break
		}
		n++
	}
	return n
}

func hasWildcard(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == '*' {
			return true
		}
	}
	return false
}

func unescapeStar(s string) string { return strings.ReplaceAll(s, `\*`, `*`) }

var (
	wildcardMu    sync.Mutex
	wildcardCache = map[string]*regexp.Regexp{}
)

// wildcardRegexp compiles a pattern with * wildcards; "\*" is a literal
// star. A pattern ending in " *" with no other wildcard also matches the
// bare prefix, so "ls *" matches "ls" but not "lsof".
func wildcardRegexp(pattern string) *regexp.Regexp {
	wildcardMu.Lock()
	defer wildcardMu.Unlock()
	if re, ok := wildcardCache[pattern]; ok {
		return re
	}
	var b strings.Builder
	b.WriteString(`(?s)^`)
	stars := 0
	for i := 0; i < len(pattern); i++ {
		switch {
		case pattern[i] == '\\' && i+1 < len(pattern) && pattern[i+1] == '*':
			b.WriteString(`\*`)
			i++
		case pattern[i] == '*':
			stars++
			b.WriteString(`.*`)
		default:
			b.WriteString(regexp.QuoteMeta(pattern[i : i+1]))
		}
	}
	expr := b.String() + `$`
	if stars == 1 && strings.HasSuffix(pattern, " *") && !strings.HasSuffix(pattern, `\ *`) {
		expr = `(?s)^` + regexp.QuoteMeta(unescapeStar(strings.TrimSuffix(pattern, " *"))) + `( .*)?$`
	}
	re := regexp.MustCompile(expr)
	wildcardCache[pattern] = re
	return re
}

// pathBase says how to anchor path patterns.
type pathBase struct {
	// root is the project root, the base of "/path" patterns.
	root string
	// cwd is the start directory, the base of relative patterns.
	cwd string
	// home is the base of "~/path" patterns.
	home string
}

// matchPath reports whether a gitignore-style pattern matches an absolute,
// clean path (or a directory above it, as in gitignore), by the rules of
// this OS's paths.
func matchPath(pattern, abs string, b pathBase) bool {
	if windowsPaths {
		return matchWindowsPath(pattern, abs, b)
	}
	return matchSlashPath(pattern, abs, b)
}

// matchWindowsPath is matchPath for Windows paths. As in Claude Code, a
// path is matched in POSIX form: C:\Users\me becomes /c/Users/me (so
// "//c/**/.env" is every .env on drive C) and \\server\share\x becomes
// //server/share/x. A pattern may also be written the Windows way
// (C:\Users\me\**, with either separator). Names compare
// case-insensitively, as NTFS does.
func matchWindowsPath(pattern, abs string, b pathBase) bool {
	pattern = strings.TrimSpace(pattern)
	if isDrivePath(pattern) {
		dirOnly := strings.HasSuffix(pattern, `\`) || strings.HasSuffix(pattern, "/")
		pattern = "/" + windowsSlash(pattern)
		if dirOnly && !strings.HasSuffix(pattern, "/") {
			pattern += "/"
		}
	} else {
		pattern = strings.ReplaceAll(pattern, `\`, "/")
	}
	fold := func(p string) string { return strings.ToLower(windowsSlash(p)) }
	return matchSlashPath(strings.ToLower(pattern), fold(abs),
		pathBase{root: fold(b.root), cwd: fold(b.cwd), home: fold(b.home)})
}

// isDrivePath reports whether p starts with a drive letter and a
// separator (C:\ or C:/).
func isDrivePath(p string) bool {
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') &&
		('a' <= p[0] && p[0] <= 'z' || 'A' <= p[0] && p[0] <= 'Z')
}

// windowsSlash is the POSIX form of a Windows path: C:\a\b is /c/a/b, a
// UNC path \\host\share\a is //host/share/a, and a relative path keeps
// its form with / separators.
func windowsSlash(p string) string {
	if isDrivePath(p) || len(p) == 2 && p[1] == ':' {
		rest := strings.ReplaceAll(p[2:], `\`, "/")
		if rest == "" {
			rest = "/"
		}
		return "/" + strings.ToLower(p[:1]) + path.Clean(rest)
	}
	p = strings.ReplaceAll(p, `\`, "/")
	if p == "" {
		return ""
	}
	if strings.HasPrefix(p, "//") {
		return "/" + path.Clean(p[1:])
	}
	return path.Clean(p)
}

// matchSlashPath is matchPath over /-separated absolute paths.
func matchSlashPath(pattern, abs string, b pathBase) bool {
	pattern = strings.TrimSpace(pattern)
	if pattern == "" {
		return false
	}
	var base string
	anchored := true
	switch {
	case strings.HasPrefix(pattern, "//"):
		base, pattern = "/", pattern[2:]
	case pattern == "~" || strings.HasPrefix(pattern, "~/"):
		base, pattern = b.home, strings.TrimPrefix(strings.TrimPrefix(pattern, "~"), "/")
	case strings.HasPrefix(pattern, "/"):
		base, pattern = b.root, pattern[1:]
	case strings.HasPrefix(pattern, "./"):
		base, pattern = b.cwd, pattern[2:]
	default:
		base = b.cwd
		anchored = strings.Contains(strings.TrimSuffix(pattern, "/"), "/")
	}
	if base == "" {
		return false
	}
	dirOnly := strings.HasSuffix(pattern, "/")
	pattern = strings.TrimSuffix(pattern, "/")
	if pattern == "" {
		pattern = "**"
	}
	if !anchored {
		pattern = "**/" + pattern
	}
	rel, ok := relSlash(base, abs)
	if !ok {
		return false
	}
	if rel == "." {
		return pattern == "**"
	}
	// The path itself, then each directory above it (gitignore: a matched
	// directory covers everything beneath).
	first := true
	for p := rel; p != "." && p != "/" && p != ""; p = path.Dir(p) {
		if (!dirOnly || !first) && globMatch(pattern, p) {
			return true
		}
		first = false
	}
	return false
}

// relSlash is abs relative to base ("." for base itself); ok is false
// when abs is not base or beneath it.
func relSlash(base, abs string) (rel string, ok bool) {
	base, abs = path.Clean(base), path.Clean(abs)
	if abs == base {
		return ".", true
	}
	prefix := base
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	if !strings.HasPrefix(abs, prefix) {
		return "", false
	}
	return abs[len(prefix):], true
}

func globMatch(pattern, p string) bool {
	ok, err := doublestar.Match(pattern, p)
	return err == nil && ok
}

// matchURL matches WebFetch(domain:host) rules, with "*.host" for
// subdomains; other contents are * wildcards over the whole URL.
func matchURL(pattern, raw string) bool {
	pattern = strings.TrimSpace(pattern)
	if d, ok := strings.CutPrefix(pattern, "domain:"); ok {
		host := urlHost(raw)
		if host == "" {
			return false
		}
		d = strings.TrimSpace(d)
		if sub, ok := strings.CutPrefix(d, "*."); ok {
			return strings.HasSuffix(host, "."+NormalizeHost(sub))
		}
		return host == NormalizeHost(d)
	}
	return matchCommand(pattern, raw)
}
