package shellprog_test

import (
	"testing"

	"github.com/agentcore/agentcore/runtime/shellprog"
)

// BenchmarkJudge measures what the table adds to a permission check per
// simple command: git (a Closed program with a subcommand entry), sort
// and a program the table does not know.
func BenchmarkJudge(b *testing.B) {
	lines := [][]string{
		{"git", "-C", "sub", "log", "--oneline", "-n", "3"},
		{"sort", "-k2,2n", "-u", "in"},
		{"go", "test", "./..."},
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, w := range lines {
			shellprog.Judge(w, nil, shellprog.Runs|shellprog.Network)
		}
	}
}
