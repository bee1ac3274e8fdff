package permission_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/shellsyntax"
)

// FuzzCheckShell feeds arbitrary command lines to the permission check:
// it must never panic and always answer allow, deny or ask; an allowed
// line must stay allowed when checked again (no hidden state).
func FuzzCheckShell(f *testing.F) {
	for _, s := range []string{
		"git status", "git status; rm -rf x", "echo $(whoami)", "cat <<'EOF'\nhi\nEOF", "ls > /tmp/x",
		`eval "rm x"`, "f() { ls; }; f", "env -S 'rm x'", "find . -exec rm {} \\;", "$'\\x72m' x",
		"for PATH in /tmp; do ls; done", "a=(1 2); echo ${a[$(rm)]}", "coproc ls", "((x++))", "[[ a < b ]]",
		"rm -rf .g*", "mv x .agentcore/", "cp -t .git x", "find . -delete", "dd of=.git/HEAD", "rm {a,b}{1..3}",
		"cd $X && rm y", "echo hi && ls -la", "git status; echo done", "timeout 5 ls", "rm {1..100000}", "sed -ni.bak -e p .git/config", "ln -s x", "echo x | xargs -I{} rm {}",
	} {
		f.Add(s)
	}
	dir, err := os.MkdirTemp("", "fuzz")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { os.RemoveAll(dir) })
	var rules []permission.Rule
	for _, l := range []struct {
		list []string
		b    runtime.Behavior
	}{{[]string{"Bash(git status:*)", "Bash(ls *)", "Bash(echo *)"}, runtime.Allow}, {[]string{"Bash(rm:*)"}, runtime.Deny}} {
		rs, err := permission.ParseRules(l.list, l.b, permission.SourceFlag, "")
		if err != nil {
			f.Fatal(err)
		}
		rules = append(rules, rs...)
	}
	e, err := permission.NewEngine(permission.Config{Cwd: dir, Home: dir, Rules: rules})
	if err != nil {
		f.Fatal(err)
	}
	tc := runtime.NewToolContext(dir)
	bash := &fakeTool{name: "Bash", kind: runtime.TargetCommand}
	f.Fuzz(func(t *testing.T, cmd string) {
		d := e.Check(context.Background(), bash, cmd, tc)
		switch d.Behavior {
		case runtime.Allow, runtime.Deny, runtime.Ask:
		default:
			t.Fatalf("%q: behaviour %v", cmd, d.Behavior)
		}
		if again := e.Check(context.Background(), bash, cmd, tc); again.Behavior != d.Behavior {
			t.Fatalf("%q: %v then %v", cmd, d.Behavior, again.Behavior)
		}
		if d.Behavior == runtime.Allow {
			assertEachMatchesAllowRule(t, cmd)
		}
	})
}

// fuzzAllowPrefixes are the allow rules of FuzzCheckShell as word
// prefixes: Bash(git status:*), Bash(ls *), Bash(echo *).
var fuzzAllowPrefixes = [][]string{{"git", "status"}, {"ls"}, {"echo"}}

// assertEachMatchesAllowRule fails unless every simple command of the
// allowed line cmd (past wrappers such as timeout) starts with the
// literal words of one allow rule: a compound command is allowed only when
// each of its parts is.
func assertEachMatchesAllowRule(t *testing.T, cmd string) {
	t.Helper()
	f, err := shellsyntax.Parse(cmd)
	if err != nil {
		t.Fatalf("%q was allowed but does not parse: %v", cmd, err)
	}
	for _, sc := range shellsyntax.SimpleCommands(f) {
		if len(sc.Args) == 0 {
			continue
		}
		words := make([]string, len(sc.Args))
		for i, w := range sc.Args {
			words[i] = w.Value
		}
		at := 0
		if i, ok := shellsyntax.WrappedCommand(words); ok {
			at = i
		}
		if !slices.ContainsFunc(fuzzAllowPrefixes, func(p []string) bool {
			if len(words)-at < len(p) {
				return false
			}
			for i, w := range p {
				if words[at+i] != w || !sc.Args[at+i].Literal {
					return false
				}
			}
			return true
		}) {
			t.Fatalf("%q was allowed, but its command %q matches no allow rule", cmd, strings.Join(words, " "))
		}
	}
}

// FuzzParseRule: parsing never panics, and a parsed rule's String parses
// back to the same rule.
func FuzzParseRule(f *testing.F) {
	for _, s := range []string{"Bash", "Bash(npm run test:*)", `Bash(echo \))`, "Read(./a/**)", "mcp__x__*", "Bash(a(b)c)", "(", "Bash())"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := permission.ParseRule(s, runtime.Allow)
		if err != nil {
			return
		}
		back, err := permission.ParseRule(r.String(), runtime.Allow)
		if err != nil {
			t.Fatalf("%q → %q does not parse: %v", s, r.String(), err)
		}
		if back.Tool != r.Tool || back.Content != r.Content {
			t.Fatalf("%q → %q → %+v, want %+v", s, r.String(), back, r)
		}
	})
}
