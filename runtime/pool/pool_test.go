package pool_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	. "github.com/onsi/gomega/gstruct"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/pool"
)

var _ = Describe("Assemble", func() {
	It("sorts built-ins by name, then MCP tools by name", func() {
		base := named("Write", "Bash", "Read", "mcp__z__late", "Agent")
		mcp := named("mcp__b__two", "mcp__a__one", "mcp__b__one")
		p := pool.Assemble(base, mcp, pool.Options{SearchTool: "ToolSearch", Defer: pool.DeferMode{Kind: pool.DeferNever}})
		Expect(names(p.Tools())).To(Equal([]string{
			"Agent", "Bash", "Read", "Write",
			"mcp__a__one", "mcp__b__one", "mcp__b__two", "mcp__z__late",
		}))
	})

	It("de-duplicates by name, the built-in winning", func() {
		builtin := &tool{name: "ListMcpResources", origin: "base"}
		fromMCP := &tool{name: "ListMcpResources", origin: "mcp"}
		first := &tool{name: "mcp__a__x", origin: "first"}
		second := &tool{name: "mcp__a__x", origin: "second"}
		p := pool.Assemble([]runtime.Tool{builtin}, []runtime.Tool{fromMCP, first, second}, pool.Options{SearchTool: "ToolSearch"})
		Expect(names(p.Tools())).To(Equal([]string{"ListMcpResources", "mcp__a__x"}))
		Expect(p.Tools()[0].(*tool).origin).To(Equal("base"))
		Expect(p.Tools()[1].(*tool).origin).To(Equal("first"))
	})

	It("keeps only Bash, Read and Edit built-ins in simple mode, and ToolSearch when MCP tools are there to defer", func() {
		opts := pool.Options{SearchTool: "ToolSearch", Simple: true, SimpleTools: []string{"Bash", "Edit", "Read"}}
		p := pool.Assemble(named("Bash", "Edit", "Glob", "Read", "Write", "ToolSearch"), nil, opts)
		Expect(names(p.Tools())).To(Equal([]string{"Bash", "Edit", "Read"}))

		p = pool.Assemble(named("Bash", "Edit", "Glob", "Read", "Write", "ToolSearch"), named("mcp__a__x"), opts)
		Expect(names(p.Tools())).To(Equal([]string{"Bash", "Edit", "Read", "ToolSearch", "mcp__a__x"}))
		Expect(p.IsDeferred("mcp__a__x")).To(BeTrue())
	})

	It("removes tools a blanket deny names, before the model sees them", func() {
		deny := func(t runtime.Tool) bool {
			return t.Name() == "Bash" || strings.HasPrefix(t.Name(), "mcp__gh__")
		}
		p := pool.Assemble(named("Bash", "Read"), named("mcp__gh__a", "mcp__db__q"), pool.Options{SearchTool: "ToolSearch", DenyTool: deny})
		Expect(names(p.Tools())).To(Equal([]string{"Read", "mcp__db__q"}))
	})

	It("drops disabled tools and nil entries", func() {
		p := pool.Assemble([]runtime.Tool{&tool{name: "Read"}, nil, &tool{name: "TodoWrite", disabled: true}},
			[]runtime.Tool{&tool{name: "mcp__a__x", disabled: true}}, pool.Options{SearchTool: "ToolSearch"})
		Expect(names(p.Tools())).To(Equal([]string{"Read"}))
	})

	It("is byte-identical for the same inputs in any order", func() {
		var base, mcp []runtime.Tool
		for _, n := range []string{"Bash", "Read", "Edit", "Write", "Glob", "Grep", "ToolSearch", "Agent", "WebFetch"} {
			base = append(base, &tool{name: n, desc: "The " + n + " tool."})
		}
		for _, n := range []string{"mcp__gh__create_issue", "mcp__gh__list", "mcp__db__query", "mcp__db__schema"} {
			mcp = append(mcp, &tool{name: n})
		}
		mcp = append(mcp, &tool{name: "mcp__fs__read", alwaysLoad: true})
		render := func(p *pool.Pool) []byte {
			var buf bytes.Buffer
			for _, t := range p.Sent(pool.Loaded{}) {
				buf.Write(pool.DefinitionOf(t).JSON())
				buf.WriteByte('\n')
			}
			buf.WriteString(p.DeferredPrompt())
			return buf.Bytes()
		}
		want := render(pool.Assemble(base, mcp, pool.Options{SearchTool: "ToolSearch"}))
		r := rand.New(rand.NewPCG(1, 2))
		for i := 0; i < 50; i++ {
			b, m := slices.Clone(base), slices.Clone(mcp)
			r.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
			r.Shuffle(len(m), func(i, j int) { m[i], m[j] = m[j], m[i] })
			Expect(render(pool.Assemble(b, m, pool.Options{SearchTool: "ToolSearch"}))).To(Equal(want))
		}
	})
})

var _ = Describe("deferral", func() {
	var base, mcp []runtime.Tool
	BeforeEach(func() {
		base = []runtime.Tool{
			&tool{name: "Bash"}, &tool{name: "Read"},
			&tool{name: "ToolSearch", deferFlag: true}, // never deferred, even when marked
			&tool{name: "NotebookEdit", deferFlag: true},
		}
		mcp = []runtime.Tool{
			&tool{name: "mcp__gh__create_issue"}, &tool{name: "mcp__gh__list_issues"},
			&tool{name: "mcp__fs__read", alwaysLoad: true},
		}
	})

	It("always: defers MCP tools and shouldDefer tools, never ToolSearch or alwaysLoad", func() {
		p := pool.Assemble(base, mcp, pool.Options{SearchTool: "ToolSearch"})
		Expect(p.DeferredNames()).To(Equal([]string{"NotebookEdit", "mcp__gh__create_issue", "mcp__gh__list_issues"}))
		Expect(names(p.Sent(pool.Loaded{}))).To(Equal([]string{"Bash", "Read", "ToolSearch", "mcp__fs__read"}))
		Expect(names(p.Deferred())).To(Equal([]string{"NotebookEdit", "mcp__gh__create_issue", "mcp__gh__list_issues"}))
	})

	It("sends loaded tools from then on", func() {
		p := pool.Assemble(base, mcp, pool.Options{SearchTool: "ToolSearch"})
		loaded := pool.NewLoaded("mcp__gh__list_issues")
		Expect(names(p.Sent(loaded))).To(Equal([]string{"Bash", "Read", "ToolSearch", "mcp__fs__read", "mcp__gh__list_issues"}))
	})

	It("never: sends everything and leaves ToolSearch out", func() {
		p := pool.Assemble(base, mcp, pool.Options{SearchTool: "ToolSearch", Defer: pool.DeferMode{Kind: pool.DeferNever}})
		Expect(p.DeferredNames()).To(BeEmpty())
		Expect(p.DeferredPrompt()).To(BeEmpty())
		Expect(names(p.Sent(pool.Loaded{}))).NotTo(ContainElement("ToolSearch"))
		Expect(p.Sent(pool.Loaded{})).To(HaveLen(6))
	})

	It("auto: defers only past N% of the context window", func() {
		tokens := pool.EstimateTokens(base[3], mcp[0], mcp[1])
		// Just under the threshold: 10% of a window a little over 10× the tokens.
		under := pool.Assemble(base, mcp, pool.Options{SearchTool: "ToolSearch", Defer: pool.DeferMode{Kind: pool.DeferAuto, Percent: 10}, ContextWindow: tokens*10 + 10})
		Expect(under.DeferredNames()).To(BeEmpty())
		over := pool.Assemble(base, mcp, pool.Options{SearchTool: "ToolSearch", Defer: pool.DeferMode{Kind: pool.DeferAuto, Percent: 10}, ContextWindow: tokens*10 - 10})
		Expect(over.DeferredNames()).To(HaveLen(3))
		// The default threshold is 10% of 200k tokens.
		Expect(pool.Assemble(base, mcp, pool.Options{SearchTool: "ToolSearch", Defer: pool.DeferMode{Kind: pool.DeferAuto}}).DeferredNames()).To(BeEmpty())
	})

	It("lists deferred names sorted in the prompt", func() {
		p := pool.Assemble(base, mcp, pool.Options{SearchTool: "ToolSearch"})
		Expect(p.DeferredPrompt()).To(HavePrefix("<available-deferred-tools>\n"))
		Expect(p.DeferredPrompt()).To(ContainSubstring("NotebookEdit\nmcp__gh__create_issue\nmcp__gh__list_issues\n</available-deferred-tools>"))
	})

	DescribeTable("ParseDeferMode",
		func(in string, want string, ok bool) {
			m, err := pool.ParseDeferMode(in)
			if !ok {
				Expect(err).To(MatchError(ContainSubstring("auto:N")))
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(m.String()).To(Equal(want))
		},
		Entry("default", "", "always", true),
		Entry("always", "always", "always", true),
		Entry("true", "true", "always", true),
		Entry("never", "never", "never", true),
		Entry("false", "false", "never", true),
		Entry("auto", "auto", "auto:10", true),
		Entry("auto:5", "auto:5", "auto:5", true),
		Entry("auto:100", "AUTO:100", "auto:100", true),
		Entry("auto:0", "auto:0", "", false),
		Entry("auto:101", "auto:101", "", false),
		Entry("auto:x", "auto:x", "", false),
		Entry("sometimes", "sometimes", "", false),
	)

	It("takes the environment over the setting", func() {
		env := map[string]string{"AGENTCORE_TOOL_SEARCH": "never"}
		m, err := pool.ResolveDeferMode(func(k string) string { return env[k] }, "auto:5")
		Expect(err).NotTo(HaveOccurred())
		Expect(m.Kind).To(Equal(pool.DeferNever))
		m, err = pool.ResolveDeferMode(func(string) string { return "" }, "auto:5")
		Expect(err).NotTo(HaveOccurred())
		Expect(m.String()).To(Equal("auto:5"))
		_, err = pool.ResolveDeferMode(func(string) string { return "bogus" }, "")
		Expect(err).To(MatchError(ContainSubstring("AGENTCORE_TOOL_SEARCH")))
	})
})

var _ = Describe("Loaded", func() {
	It("is an immutable set", func() {
		a := pool.NewLoaded("b", "a")
		b := a.With("c", "a")
		Expect(a.Names()).To(Equal([]string{"a", "b"}))
		Expect(b.Names()).To(Equal([]string{"a", "b", "c"}))
		Expect(b.Has("c")).To(BeTrue())
		Expect(a.Has("c")).To(BeFalse())
	})

	It("is recorded in the ToolContext by MarkLoaded, per context", func() {
		tc := runtime.NewToolContext(GinkgoT().TempDir())
		pool.MarkLoaded("mcp__a__x")(tc)
		child := tc.Clone()
		pool.MarkLoaded("mcp__a__y")(child)
		Expect(pool.LoadedIn(tc).Names()).To(Equal([]string{"mcp__a__x"}))
		Expect(pool.LoadedIn(child).Names()).To(Equal([]string{"mcp__a__x", "mcp__a__y"}))
	})
})

var _ = Describe("Stats", func() {
	It("counts what is sent and what deferral saves", func() {
		var mcp []runtime.Tool
		for _, n := range []string{"create_issue", "list_issues", "get_issue", "add_comment", "search_code"} {
			mcp = append(mcp, &tool{
				name: "mcp__github__" + n,
				desc: "GitHub: " + strings.ReplaceAll(n, "_", " ") + ". Works on the repository given by owner and repo; returns JSON.",
				schema: `{"type":"object","properties":{"owner":{"type":"string","description":"Repository owner"},` +
					`"repo":{"type":"string","description":"Repository name"},"title":{"type":"string","description":"Title"},` +
					`"body":{"type":"string","description":"Body in Markdown"}},"required":["owner","repo"]}`,
			})
		}
		p := pool.Assemble(named("Bash", "Read", "ToolSearch"), mcp, pool.Options{SearchTool: "ToolSearch"})
		s := p.Stats()
		Expect(s.Tools).To(Equal(8))
		Expect(s.DeferredTools).To(Equal(5))
		Expect(s.SentTools).To(Equal(3))
		Expect(s.DeferredTokens).To(Equal(pool.EstimateTokens(mcp...)))
		Expect(s.SentTokens).To(Equal(s.DefinitionTokens + s.PromptTokens))
		Expect(s.SavedTokens).To(Equal(s.AllTokens - s.SentTokens))
		Expect(s.DeferredShrink).To(BeNumerically(">=", 0.85))
		out, err := json.Marshal(s)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(ContainSubstring(`"deferred_shrink"`))
	})
})

var _ = Describe("Entries", func() {
	It("describes each tool in pool order", func() {
		p := pool.Assemble(named("Read", "ToolSearch"), []runtime.Tool{&tool{name: "mcp__a__x", hint: "do x"}, &tool{name: "mcp__a__y", alwaysLoad: true}}, pool.Options{SearchTool: "ToolSearch"})
		es := p.Entries()
		Expect(es).To(HaveLen(4))
		Expect(es[2]).To(MatchFields(IgnoreExtras, Fields{"Name": Equal("mcp__a__x"), "MCP": BeTrue(), "Deferred": BeTrue(), "SearchHint": Equal("do x")}))
		Expect(es[3].Deferred).To(BeFalse())
		Expect(es[3].AlwaysLoad).To(BeTrue())
		Expect(es[0].Tokens).To(BeNumerically(">", 0))
	})
})
