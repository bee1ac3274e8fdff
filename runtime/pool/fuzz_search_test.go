package pool_test

import (
	"testing"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/pool"
)

// FuzzSearch: no query makes the keyword search panic or return more
// than it was asked for.
func FuzzSearch(f *testing.F) {
	for _, q := range []string{"get rid of “that” file", `"unclosed quote`, "+", "report.pdf src/**/*.ts https://x.y/z", "FIXME PR 42 os.Exit parseConfig", "’", "a\u00a0b", "look up"} {
		f.Add(q)
	}
	tools := []runtime.Tool{
		&tool{name: "mcp__drive__delete_document", desc: "Delete a document."},
		&tool{name: "mcp__drive__fetch_url", desc: "Download the page at a URL."},
		&tool{name: "Glob", desc: "Find files by pattern.", deferFlag: true},
	}
	p := pool.Assemble([]runtime.Tool{&tool{name: "ToolSearch"}}, tools, pool.Options{SearchTool: "ToolSearch"})
	f.Fuzz(func(t *testing.T, q string) {
		res, err := pool.Search(p, q, 2)
		if err == nil && len(res.Matches) > 2 && !hasSelect(q) {
			t.Fatalf("%q: %d matches, asked for 2", q, len(res.Matches))
		}
	})
}

func hasSelect(q string) bool {
	return len(q) >= 7 && (q[:7] == "select:" || q[:7] == "SELECT:")
}
