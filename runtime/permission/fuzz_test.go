package permission_test

import (
	"context"
	"os"
	"testing"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/permission"
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
		"cd $X && rm y", "rm {1..100000}", "sed -ni.bak -e p .git/config", "ln -s x", "echo x | xargs -I{} rm {}",
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
	})
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
