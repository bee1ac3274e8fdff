package classify

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentcore/agentcore/runtime/shellsyntax"
)

// SearchOrRead says how a command can be rendered compactly: as a search
// (grep, rg, find…), a read (cat, head…) or a listing (ls, tree, du).
type SearchOrRead struct {
	IsSearch bool
	IsRead   bool
	IsList   bool
}

// Any reports whether the command is a search, a read or a listing.
func (s SearchOrRead) Any() bool { return s.IsSearch || s.IsRead || s.IsList }

var (
	searchPrograms = set("find", "grep", "egrep", "fgrep", "rg", "ag", "ack", "locate", "which", "whereis")
	readPrograms   = set("cat", "head", "tail", "less", "more", "wc", "stat", "file", "strings",
		"jq", "awk", "cut", "sort", "uniq", "tr")
	listPrograms = set("ls", "tree", "du")
	// neutralPrograms only print or set a status; they do not change what a
	// pipeline of searches and reads is (ls a && echo --- && ls b).
	neutralPrograms = set("echo", "printf", "true", "false", ":")
)

// set is the set of names, built at its first use rather than before
// main.
func set(names ...string) func() map[string]bool {
	return sync.OnceValue(func() map[string]bool {
		m := make(map[string]bool, len(names))
		for _, n := range names {
			m[n] = true
		}
		return m
	})
}

// IsSearchOrReadCommand classifies cmd for compact rendering, as Claude
// Code's isSearchOrReadCommand does: every simple command must be a search,
// read or listing program (echo, printf, true, false and : are neutral),
// and at least one must not be neutral. Anything else, or a parse failure,
// is none of them. This says nothing about safety: awk is a "read" here but
// not read-only.
func IsSearchOrReadCommand(cmd string) SearchOrRead {
	return SearchOrReadParsed(shellsyntax.ParseCommand(cmd))
}

// SearchOrReadParsed is IsSearchOrReadCommand of a command parsed already.
func SearchOrReadParsed(c *shellsyntax.Command) SearchOrRead {
	if c.Err != nil {
		return SearchOrRead{}
	}
	var out SearchOrRead
	nonNeutral := false
	for _, sc := range c.Cmds {
		name := sc.Name()
		if name == "" {
			return SearchOrRead{}
		}
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[i+1:]
		}
		if neutralPrograms()[name] {
			continue
		}
		nonNeutral = true
		switch {
		case searchPrograms()[name]:
			out.IsSearch = true
		case readPrograms()[name]:
			out.IsRead = true
		case listPrograms()[name]:
			out.IsList = true
		default:
			return SearchOrRead{}
		}
	}
	if !nonNeutral {
		return SearchOrRead{}
	}
	return out
}

// IsDestructive reports whether cmd plainly removes or overwrites data
// irreversibly: rm, rmdir, shred, dd, mkfs, truncate, find -delete,
// git reset --hard, git clean -f, git push --force, git branch -D,
// git checkout/restore of paths, git stash drop/clear. It is a hint for the
// permission prompt, not a safety boundary; an unparsable command is not
// reported as destructive.
func IsDestructive(cmd string) bool {
	return IsDestructiveParsed(shellsyntax.ParseCommand(cmd))
}

// IsDestructiveParsed is IsDestructive of a command parsed already.
func IsDestructiveParsed(c *shellsyntax.Command) bool {
	if c.Err != nil {
		return false
	}
	for _, sc := range c.Cmds {
		if destructive(sc) {
			return true
		}
	}
	return false
}

func destructive(sc shellsyntax.SimpleCommand) bool {
	name := sc.Name()
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	args := make([]string, 0, len(sc.Args))
	for _, a := range sc.Args[min(1, len(sc.Args)):] {
		args = append(args, a.Value)
	}
	has := func(opts ...string) bool {
		for _, a := range args {
			for _, o := range opts {
				if a == o {
					return true
				}
			}
		}
		return false
	}
	switch {
	case name == "rm" || name == "rmdir" || name == "shred" || name == "dd" ||
		name == "truncate" || strings.HasPrefix(name, "mkfs"):
		return true
	case name == "find":
		return has("-delete")
	case name == "git" && len(args) > 0:
		sub, rest := args[0], args[1:]
		hasRest := func(pred func(string) bool) bool {
			for _, a := range rest {
				if pred(a) {
					return true
				}
			}
			return false
		}
		switch sub {
		case "reset":
			return has("--hard")
		case "clean":
			return hasRest(func(a string) bool {
				return a == "--force" || (strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "f"))
			})
		case "push":
			return hasRest(func(a string) bool {
				return a == "-f" || a == "--force" || strings.HasPrefix(a, "--force-with-lease") || a == "--delete" || a == "-d" || strings.HasPrefix(a, "+")
			})
		case "branch":
			return has("-D") || (has("-d", "--delete") && has("-f", "--force"))
		case "checkout":
			return has("--", ".") || has("-f", "--force")
		case "restore":
			return true
		case "stash":
			return len(rest) > 0 && (rest[0] == "drop" || rest[0] == "clear")
		}
	}
	return false
}

// Redirects reports, for use by permission checks, whether any statement
// of f redirects output to a file (not /dev/null or an fd).
func Redirects(f *syntax.File) bool {
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if st, ok := n.(*syntax.Stmt); ok {
			for _, r := range st.Redirs {
				if checkRedirect(r) != "" {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
