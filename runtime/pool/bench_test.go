package pool_test

import (
	"fmt"
	"testing"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/pool"
)

func benchTools() (base, mcp []runtime.Tool) {
	for _, n := range []string{"Agent", "Bash", "Edit", "Glob", "Grep", "NotebookEdit", "Read", "ToolSearch", "WebFetch", "WebSearch", "Write"} {
		base = append(base, &tool{name: n})
	}
	for s := 0; s < 10; s++ {
		for t := 0; t < 15; t++ {
			mcp = append(mcp, &tool{
				name: fmt.Sprintf("mcp__server%d__action_%d", s, t),
				desc: fmt.Sprintf("Performs action %d on server %d: lists, creates or updates records.", t, s),
			})
		}
	}
	return base, mcp
}

// BenchmarkAssemble measures assembling a 161-tool pool (11 built-ins,
// 150 MCP tools) with deferral.
func BenchmarkAssemble(b *testing.B) {
	base, mcp := benchTools()
	b.ReportAllocs()
	for b.Loop() {
		pool.Assemble(base, mcp, pool.Options{SearchTool: "ToolSearch"})
	}
}

// BenchmarkSearchKeywords measures one keyword ToolSearch over 150
// deferred tools.
func BenchmarkSearchKeywords(b *testing.B) {
	base, mcp := benchTools()
	p := pool.Assemble(base, mcp, pool.Options{SearchTool: "ToolSearch"})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := pool.Search(p, "server3 update records", 5); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearchEvalPool measures one plain-language ToolSearch over the
// evaluation's 62 deferred tools (the built-ins and the three npm
// reference servers), the index already built.
func BenchmarkSearchEvalPool(b *testing.B) {
	p, err := evalPool()
	if err != nil {
		b.Fatal(err)
	}
	if _, err := pool.Search(p, "warm up", 5); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := pool.Search(p, "remove a connection between two entities", 5); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearchIndex measures building the search index of the
// evaluation's pool (done once per pool, on its first keyword search).
func BenchmarkSearchIndex(b *testing.B) {
	p, err := evalPool()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		pool.RankWith(p, pool.DefaultRankParams())
	}
}
