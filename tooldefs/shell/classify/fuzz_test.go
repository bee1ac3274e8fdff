package classify_test

import (
	"testing"

	"github.com/agentcore/agentcore/runtime/shellsyntax"
	"github.com/agentcore/agentcore/tooldefs/shell/classify"
)

// FuzzClassify checks that the classifier never panics, that a command that
// does not parse is never read-only, and that a read-only command has no
// construct the classifier promises to reject.
func FuzzClassify(f *testing.F) {
	for _, seed := range []string{
		"ls -la", "cat a | grep b", "echo $(rm x)", "find . -delete", "git status && git diff",
		"ls > out", "ls 2>&1", "x=1; echo $x", "cat <<EOF\n$(id)\nEOF", "echo 'unterminated",
		"for f in *; do wc -l $f; done", "[[ $x -eq 1 ]]", "git branch -D x", "sort -o f",
		"echo ${a[$(id)]}", "f() { ls; }", "ls &", "cat <(ls)", "time ls", "",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		v := classify.Classify(cmd)
		_ = classify.IsSearchOrReadCommand(cmd)
		_ = classify.IsDestructive(cmd)
		if _, err := shellsyntax.Parse(cmd); err != nil && v.ReadOnly {
			t.Fatalf("%q does not parse (%v) but was classified read-only", cmd, err)
		}
		if v.ReadOnly != (v.Reason == "") {
			t.Fatalf("%q: ReadOnly=%v with reason %q", cmd, v.ReadOnly, v.Reason)
		}
		if v.ReadOnly {
			assertOnlyAllowlisted(t, cmd)
		}
	})
}

// assertOnlyAllowlisted fails unless every simple command of the read-only
// line cmd runs an allowlisted program, directly or through a wrapper such
// as timeout or xargs, named by a literal word: no input may make another
// program read-only.
func assertOnlyAllowlisted(t *testing.T, cmd string) {
	t.Helper()
	f, err := shellsyntax.Parse(cmd)
	if err != nil {
		t.Fatalf("%q is read-only but does not parse: %v", cmd, err)
	}
	for _, sc := range shellsyntax.SimpleCommands(f) {
		if len(sc.Args) == 0 {
			continue // a bare assignment; the classifier judges it
		}
		words := make([]string, len(sc.Args))
		for i, w := range sc.Args {
			words[i] = w.Value
		}
		at := 0
		for !classify.Allowlisted(words[at]) {
			i, ok := shellsyntax.WrappedCommand(words[at:])
			if !ok {
				break
			}
			at += i
		}
		if !classify.Allowlisted(words[at]) {
			t.Fatalf("%q is read-only but runs %q, which is not on the allowlist", cmd, words[at])
		}
		if !sc.Args[at].Literal {
			t.Fatalf("%q is read-only but its program %q is known only at run time", cmd, words[at])
		}
	}
}
