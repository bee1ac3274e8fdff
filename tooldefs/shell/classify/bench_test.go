package classify_test

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentcore/agentcore/tooldefs/shell/classify"
)

const benchCommand = `git status --short && git diff HEAD~1 -- main.go | grep -n "func " | sort | uniq -c 2>/dev/null; ls -la src`

// BenchmarkIsReadOnly classifies a typical compound command.
func BenchmarkIsReadOnly(b *testing.B) {
	for b.Loop() {
		if !classify.IsReadOnly(benchCommand) {
			b.Fatal("expected read-only")
		}
	}
}

// BenchmarkParseBaseline only parses the same command: the baseline for
// BenchmarkIsReadOnly.
func BenchmarkParseBaseline(b *testing.B) {
	for b.Loop() {
		p := syntax.NewParser(syntax.Variant(syntax.LangBash))
		if _, err := p.Parse(strings.NewReader(benchCommand), ""); err != nil {
			b.Fatal(err)
		}
	}
}
