package shellprog_test

import (
	"strings"
	"testing"

	"github.com/agentcore/agentcore/runtime/shellprog"
)

// FuzzJudge feeds arbitrary command lines (split on spaces) to the table:
// it must never panic, and must answer the same twice.
//
//	go test -run '^$' -fuzz FuzzJudge -fuzztime 30s ./runtime/shellprog/
func FuzzJudge(f *testing.F) {
	for _, s := range []string{
		"git -c alias.x=!sh x", "git -C", "sort -o", "xxd -c", "sed -i.bak s/a/b/ f", "find . -fprintf",
		"tar --checkpoint-action=exec=sh", "ssh -oProxyCommand=x h", "git config set alias.x y", "zip -TT",
		"uniq -", "curl --output-dir", "git --", "vim +", "rg --pr",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		words := strings.Fields(line)
		a := shellprog.Judge(words, nil, shellprog.Everything)
		if b := shellprog.Judge(words, nil, shellprog.Everything); a != b {
			t.Fatalf("%q: %q then %q", line, a, b)
		}
		if len(words) > 0 {
			p := shellprog.Lookup(words[0])
			s := p.Read(words, nil)
			for _, i := range s.Operands {
				if i <= 0 || i >= len(words) {
					t.Fatalf("%q: operand index %d out of range", line, i)
				}
			}
		}
	})
}
