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
	})
}
