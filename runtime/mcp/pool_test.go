package mcp_test

import (
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/mcp"
	"github.com/agentcore/agentcore/runtime/pool"
)

// toolSearch stands in for the generated ToolSearch tool: the pool defers
// nothing without one.
var toolSearch = []runtime.Tool{&fakeTool{name: "ToolSearch"}}

// These specs check the MCP tools against the pool and ToolSearch, the
// way the CLI assembles them (issue 5, "Done means").
var _ = Describe("MCP tools in the pool", func() {
	It("defers three servers' tools, and ToolSearch finds them by plain-language queries", func() {
		m := start(map[string]mcp.ServerConfig{
			"alpha": stdio(bins.Tool), "crashy": stdio(bins.Crash), "docs": stdio(bins.Resource),
		}, mcp.Options{})
		waitAll(m)
		p := pool.Assemble(toolSearch, m.Tools(), pool.Options{SearchTool: "ToolSearch", Pending: m})

		Expect(p.IsDeferred("mcp__alpha__echo")).To(BeTrue())
		Expect(p.IsDeferred("mcp__crashy__pid")).To(BeTrue())
		Expect(p.IsDeferred(mcp.ReadResourceToolName)).To(BeTrue())
		Expect(p.IsDeferred("mcp__alpha__always")).To(BeFalse())

		for query, want := range map[string]string{
			"echo text back":              "mcp__alpha__echo",
			"delete a record":             "mcp__alpha__delete_record",
			"server process id":           "mcp__crashy__pid",
			"read a resource of a server": mcp.ReadResourceToolName,
		} {
			res, err := pool.Search(p, query, 5)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Matches).To(ContainElement(want), "query %q", query)
		}

		st := p.Stats()
		Expect(st.DeferredShrink).To(BeNumerically(">=", 0.85))
	})

	It("lets ToolSearch say which servers are still connecting", func() {
		slow := stdio(bins.Slow)
		slow.Env = map[string]string{"SLOW_GATE": filepath.Join(GinkgoT().TempDir(), "never")}
		m := start(map[string]mcp.ServerConfig{"slow": slow}, mcp.Options{})
		p := pool.Assemble(toolSearch, m.Tools(), pool.Options{SearchTool: "ToolSearch", Pending: m})
		res, err := pool.Search(p, "say hello", 5)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Matches).To(BeEmpty())
		Expect(res.Pending).To(Equal([]string{"slow"}))
		Expect(res.Text()).To(ContainSubstring("still connecting: slow"))
	})
})
