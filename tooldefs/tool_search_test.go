package tooldefs_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/pool"
	"github.com/agentcore/agentcore/runtime/tooltest"
	"github.com/agentcore/agentcore/tooldefs"
)

var _ = Describe("ToolSearch", func() {
	var (
		tc *runtime.ToolContext
		p  *pool.Pool
	)

	BeforeEach(func() {
		tc = runtime.NewToolContext(GinkgoT().TempDir())
		base := []runtime.Tool{&tooltest.Sim{ToolName: "Read"}, &tooltest.Sim{ToolName: "ToolSearch"}}
		mcp := []runtime.Tool{
			&tooltest.Sim{ToolName: "mcp__github__create_issue"},
			&tooltest.Sim{ToolName: "mcp__github__list_issues"},
			&tooltest.Sim{ToolName: "mcp__slack__send_message"},
		}
		p = pool.Assemble(base, mcp, pool.Options{SearchTool: "ToolSearch"})
		pool.Provide(tc, p)
	})

	run := func(in tooldefs.ToolSearchInput) (pool.SearchResult, *runtime.Call, error) {
		c := runtime.NewCall("t1", tc, nil)
		out, err := tooldefs.ToolSearch{}.Call(context.Background(), &in, c)
		return out, c, err
	}

	It("selects tools and marks them loaded through its context modifier", func() {
		out, c, err := run(tooldefs.ToolSearchInput{Query: "select:mcp__slack__send_message"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Matches).To(Equal([]string{"mcp__slack__send_message"}))
		Expect(tooldefs.ToolSearch{}.ResultBlocks(out)[0].Text).To(ContainSubstring(`"name":"mcp__slack__send_message"`))
		Expect(pool.LoadedIn(tc).Has("mcp__slack__send_message")).To(BeFalse())
		c.Modifier()(tc)
		Expect(pool.LoadedIn(tc).Has("mcp__slack__send_message")).To(BeTrue())
		Expect(toolSearchNames(p.Sent(pool.LoadedIn(tc)))).To(Equal([]string{"Read", "ToolSearch", "mcp__slack__send_message"}))
	})

	It("searches keywords with max_results", func() {
		one := 1
		out, _, err := run(tooldefs.ToolSearchInput{Query: "github", MaxResults: &one})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Matches).To(HaveLen(1))
		out, _, err = run(tooldefs.ToolSearchInput{Query: "github"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Matches).To(ConsistOf("mcp__github__create_issue", "mcp__github__list_issues"))
	})

	It("registers no modifier when nothing is found", func() {
		out, c, err := run(tooldefs.ToolSearchInput{Query: "jira"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Matches).To(BeEmpty())
		Expect(c.Modifier()).To(BeNil())
		Expect(tooldefs.ToolSearch{}.RenderResult(nil, out)).To(Equal("No tools found"))
	})

	It("keeps its own definition under 500 tokens and is never deferred", func() {
		ts := generated.ToolSearchTool()
		n := pool.EstimateTokens(ts)
		GinkgoWriter.Printf("ToolSearch definition: %d tokens (estimate)\n", n)
		Expect(n).To(BeNumerically("<", 500))
		Expect(p.Deferrable(ts)).To(BeFalse())
	})

	It("says so when the session has no pool", func() {
		tc = runtime.NewToolContext(GinkgoT().TempDir())
		_, _, err := run(tooldefs.ToolSearchInput{Query: "x"})
		Expect(err).To(MatchError(ContainSubstring("no tool pool")))
	})
})

func toolSearchNames(ts []runtime.Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name())
	}
	return out
}
