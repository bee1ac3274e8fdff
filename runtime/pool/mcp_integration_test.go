package pool_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/mcp"
	"github.com/agentcore/agentcore/runtime/pool"
)

// Real MCP servers over stdio (the runtime/mcp test servers): their tools
// are deferred, ToolSearch finds them by plain-language queries, reports
// a server still connecting, and deferral shrinks their definitions.
var _ = Describe("with real MCP servers", Label("mcp", "slow"), Ordered, func() {
	var toolBin, slowBin string

	BeforeAll(func() {
		var err error
		toolBin, err = gexec.Build("github.com/agentcore/agentcore/runtime/mcp/testdata/toolserver")
		Expect(err).NotTo(HaveOccurred())
		slowBin, err = gexec.Build("github.com/agentcore/agentcore/runtime/mcp/testdata/slowserver")
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(gexec.CleanupBuildArtifacts)
	})

	It("defers their tools, finds each by a plain query, and names servers still connecting", func() {
		dir := GinkgoT().TempDir()
		gate := filepath.Join(dir, "release")
		cfgJSON, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
			"alpha": map[string]any{"command": toolBin},
			"beta":  map[string]any{"command": toolBin},
			"slow":  map[string]any{"command": slowBin, "env": map[string]string{"SLOW_GATE": gate}},
		}})
		Expect(err).NotTo(HaveOccurred())
		cfg, err := mcp.ParseConfig(cfgJSON, ".mcp.json")
		Expect(err).NotTo(HaveOccurred())
		m := mcp.NewManager(cfg, mcp.Options{Dir: dir})
		DeferCleanup(func() {
			_ = os.WriteFile(gate, nil, 0o644) // let the slow server finish
			Expect(m.Close()).To(Succeed())
		})
		Eventually(m.PendingServers).WithTimeout(60 * time.Second).WithPolling(20 * time.Millisecond).Should(Equal([]string{"slow"}))

		base := []runtime.Tool{&tool{name: "Bash"}, &tool{name: "Read"}, &tool{name: "ToolSearch"}}
		p := pool.Assemble(base, m.Tools(), pool.Options{SearchTool: "ToolSearch", Pending: m})
		Expect(p.DeferredNames()).To(ContainElements("mcp__alpha__echo", "mcp__beta__delete_record", "mcp__alpha__weird_name_v2"))
		for _, t := range p.Tools() {
			if pool.IsMCP(t) && !t.AlwaysLoad() {
				Expect(p.IsDeferred(t.Name())).To(BeTrue(), t.Name())
			}
		}

		search := func(q string) pool.SearchResult {
			res, err := pool.Search(p, q, 0)
			Expect(err).NotTo(HaveOccurred())
			return res
		}
		Expect(search("echo some text back").Matches[:2]).To(ConsistOf("mcp__alpha__echo", "mcp__beta__echo"))
		Expect(search("+beta delete a record permanently").Matches[0]).To(Equal("mcp__beta__delete_record"))
		Expect(search("select:mcp__alpha__weird_name_v2").Matches).To(Equal([]string{"mcp__alpha__weird_name_v2"}))

		missing := search("hello")
		Expect(missing.Matches).To(BeEmpty())
		Expect(missing.Pending).To(Equal([]string{"slow"}))
		Expect(missing.Text()).To(ContainSubstring("still connecting: slow"))

		s := p.Stats()
		Expect(s.DeferredShrink).To(BeNumerically(">=", 0.85), "%+v", s)
		GinkgoWriter.Printf("stats: %+v\n", s)

		// The slow server connects; the reassembled pool finds its tool.
		Expect(os.WriteFile(gate, nil, 0o644)).To(Succeed())
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		Expect(m.Wait(ctx)).To(Succeed())
		p = pool.Assemble(base, m.Tools(), pool.Options{SearchTool: "ToolSearch", Pending: m})
		found := search("hello")
		Expect(found.Matches).To(Equal([]string{"mcp__slow__hello"}))
		Expect(strings.Join(p.DeferredNames(), ",")).To(ContainSubstring("mcp__slow__hello"))
	})
})
