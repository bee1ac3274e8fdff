package permission

import (
	"iter"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentcore/agentcore/runtime/shellprog"
	"github.com/agentcore/agentcore/runtime/shellsyntax"
)

// This file renders the simple commands of a shell line for rule
// matching: the forms an allow rule may match (the command as written,
// without safe assignments and transparent wrappers) and the forms a deny
// or ask rule is matched against (without any assignment or wrapper, by
// base name).

// text renders the command for rule matching: words joined by single
// spaces, a word quoted when it holds characters that would change word
// boundaries, so "git 'status; rm x'" never looks like "git status; rm x".
func (c shellCmd) text(withAssigns bool) string {
	var parts []string
	if withAssigns {
		parts = append(parts, c.assigns...)
	}
	for i, w := range c.words {
		if c.literal[i] {
			w = quoteWord(w)
		}
		parts = append(parts, w)
	}
	return strings.Join(parts, " ")
}

// assignText renders NAME=value for rule matching and reports whether the
// value is literal; one that is not keeps its source text.
func assignText(a shellsyntax.Assign) (string, bool) {
	if a.Indexed || !a.Value.Literal {
		return a.Source, false
	}
	if a.Naked {
		return a.Name, true
	}
	op := "="
	if a.Append {
		op = "+="
	}
	if a.Value.Value == "" {
		return a.Name + op, true
	}
	return a.Name + op + quoteWord(a.Value.Value), true
}

// quoteWord quotes a literal word when it holds characters that the shell
// would treat as separators or operators.
func quoteWord(w string) string {
	if w == "" {
		return "''"
	}
	safe := true
	for _, r := range w {
		if !(r == '-' || r == '_' || r == '.' || r == '/' || r == '=' || r == ':' || r == ',' || r == '+' ||
			r == '@' || r == '%' || r == '^' || r == '*' || r == '?' || r == '[' || r == ']' || r == '{' ||
			r == '}' || r == '~' || r == '#' ||
			(r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') || r >= utf8.RuneSelf) {
			safe = false
			break
		}
	}
	if safe {
		return w
	}
	q, err := syntax.Quote(w, syntax.LangBash)
	if err != nil {
		return strconv.Quote(w)
	}
	return q
}

// transparentForAllow are wrappers an allow rule may look through: they
// run their command unchanged.
var transparentForAllow = map[string]bool{
	"timeout": true, "nice": true, "nohup": true, "stdbuf": true, "time": true, "command": true,
}

// safeEnvVars may prefix a command without keeping an allow rule from
// matching it.
var safeEnvVars = map[string]bool{
	"CI": true, "NO_COLOR": true, "FORCE_COLOR": true, "TERM": true, "LANG": true, "LC_ALL": true,
	"TZ": true, "NODE_ENV": true, "RUST_BACKTRACE": true, "RUST_LOG": true, "GOOS": true, "GOARCH": true,
	"CGO_ENABLED": true, "PYTHONUNBUFFERED": true, "DEBUG": true, "VERBOSE": true,
}

// allowForm is a rendering of a command an allow rule may match. reach
// is, for a wrapper (timeout, sudo, xargs, chrt…), how many leading words
// a rule must spell out to name the program the wrapper runs: an allow
// rule for a program lets that program run, not start another one, so
// Bash(timeout:*) does not cover "timeout 5 rm x" while
// Bash(timeout 5 rm:*) and Bash(rm:*) (timeout being transparent) do.
type allowForm struct {
	text  string
	reach int
}

// reachOf is the reach of c's rendering with lead words before its own.
func reachOf(c shellCmd, lead int) int {
	if inner, ok := unwrap(c); ok {
		return lead + len(c.words) - len(inner.words) + 1
	}
	return 0
}

// allowForms are the renderings of c an allow rule may match: the command
// as written, without leading assignments of safe variables, and with
// transparent wrappers removed.
func allowForms(c shellCmd) []allowForm {
	forms := []allowForm{{c.text(true), reachOf(c, len(c.assigns))}}
	if len(c.assigns) > 0 {
		if !c.assignsLiteral {
			return forms
		}
		for i, n := range c.assignNames {
			if !safeEnvVars[n] && !(i < len(c.assigns) && strings.HasSuffix(n, "PAGER") && (c.assigns[i] == n+"=cat" || c.assigns[i] == n+"=")) {
				return forms
			}
		}
	}
	cur := c
	for {
		forms = append(forms, allowForm{cur.text(false), reachOf(cur, 0)})
		name := cur.name()
		if !transparentForAllow[name] {
			if name != "env" {
				break
			}
			// env is transparent only without options or unsafe assignments.
			inner, ok := unwrapEnv(cur, true)
			if !ok {
				break
			}
			cur = inner
			continue
		}
		inner, ok := unwrap(cur)
		if !ok {
			break
		}
		cur = inner
	}
	return forms
}

// denyForms are the renderings of c a deny or ask rule is matched
// against: the command as written, without its assignments, without any
// wrapper, and with a command given by path reduced to its base name.
func denyForms(c shellCmd) []string {
	var forms []string
	add := func(s string) {
		for _, f := range forms {
			if f == s {
				return
			}
		}
		forms = append(forms, s)
	}
	add(c.text(true))
	for _, u := range unwrapSeq(c) {
		add(u.text(false))
		if g, ok := withoutGitGlobals(u); ok {
			// "git -C dir push" meets a deny on "git push".
			add(g.text(false))
		}
		if n := u.name(); strings.Contains(n, "/") && u.literal[0] {
			v := u
			v.words = append([]string{filepath.Base(n)}, u.words[1:]...)
			add(v.text(false))
		}
	}
	return forms
}

// unwrapSeq yields c without assignments, then each command it wraps
// (eight wrappers deep at most), with its index, without building a
// list: it runs for every command of every check.
func unwrapSeq(c shellCmd) iter.Seq2[int, shellCmd] {
	return func(yield func(int, shellCmd) bool) {
		c.assigns, c.assignNames = nil, nil
		if !yield(0, c) {
			return
		}
		for i := 1; i <= 8; i++ {
			inner, ok := unwrap(c)
			if !ok || !yield(i, inner) {
				return
			}
			c = inner
		}
	}
}

func (c shellCmd) sub(from int) shellCmd {
	out := shellCmd{words: c.words[from:], literal: c.literal[from:], assignsLiteral: true, argsFrom: c.argsFrom}
	if from < len(c.shapes) {
		out.shapes = c.shapes[from:]
	}
	return out
}

// unwrap returns the command a wrapper runs, e.g. "rm x" for
// "timeout 5 rm x" (shellsyntax.WrappedCommand; env by unwrapEnv).
func unwrap(c shellCmd) (shellCmd, bool) {
	if len(c.words) < 2 || !c.literal[0] {
		return shellCmd{}, false
	}
	if filepath.Base(c.words[0]) == "env" {
		return unwrapEnv(c, false)
	}
	i, ok := shellsyntax.WrappedCommand(c.words)
	if !ok {
		return shellCmd{}, false
	}
	return c.sub(i), true
}

// unwrapEnv returns the command env runs. With strict set it refuses env
// lines with options or assignments of variables outside safeEnvVars.
func unwrapEnv(c shellCmd, strict bool) (shellCmd, bool) {
	w := c.words
	i := 1
	for i < len(w) {
		s := w[i]
		switch {
		case s == "--":
			i++
		case s == "-S" || s == "--split-string" || strings.HasPrefix(s, "--split-string=") || (strings.HasPrefix(s, "-S") && len(s) > 2):
			if strict {
				return shellCmd{}, false
			}
			// env -S "cmd args" (or -S"…", --split-string=…) splits its
			// argument into words.
			arg, next := i+1, i+2
			var str string
			switch {
			case strings.HasPrefix(s, "--split-string="):
				str, arg, next = strings.TrimPrefix(s, "--split-string="), i, i+1
			case strings.HasPrefix(s, "-S") && len(s) > 2:
				str, arg, next = s[2:], i, i+1
			case i+1 >= len(w):
				return shellCmd{}, false
			default:
				str = w[i+1]
			}
			fields := strings.Fields(str)
			rest := append(fields, w[next:]...)
			lits := make([]bool, len(rest))
			for k := range lits {
				lits[k] = k >= len(fields) && c.literal[next+k-len(fields)] || k < len(fields) && c.literal[arg]
			}
			return shellCmd{words: rest, literal: lits, assignsLiteral: true}, len(rest) > 0
		case s == "-u" || s == "-C" || s == "--unset" || s == "--chdir":
			if strict {
				return shellCmd{}, false
			}
			i += 2
			continue
		case strings.HasPrefix(s, "-"):
			if strict {
				return shellCmd{}, false
			}
			i++
			continue
		case strings.Contains(s, "=") && isEnvName(s[:strings.IndexByte(s, '=')]):
			if strict && (!safeEnvVars[s[:strings.IndexByte(s, '=')]] || !c.literal[i]) {
				return shellCmd{}, false
			}
			i++
			continue
		}
		break
	}
	if i >= len(w) {
		return shellCmd{}, false
	}
	return c.sub(i), true
}

func isEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && r >= '0' && r <= '9')) {
			return false
		}
	}
	return true
}

// withoutGitGlobals returns a git command without its global options
// (-C dir, -c key=value, --git-dir=…), as the programs table reads them:
// the form a deny rule on "git <subcommand>" is matched against.
func withoutGitGlobals(c shellCmd) (shellCmd, bool) {
	if len(c.words) < 3 || !c.literal[0] || filepath.Base(c.words[0]) != "git" {
		return shellCmd{}, false
	}
	sub := shellprog.GitSubcommand(c.words, c.literal)
	if sub <= 1 {
		return shellCmd{}, false
	}
	out := c
	out.words = append([]string{"git"}, c.words[sub:]...)
	out.literal = append([]bool{true}, c.literal[sub:]...)
	if len(c.shapes) > sub {
		out.shapes = append([]wordShape{{}}, c.shapes[sub:]...)
	} else {
		out.shapes = nil
	}
	return out, true
}
