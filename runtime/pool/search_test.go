package pool_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/pool"
)

var _ = Describe("Search", func() {
	var p *pool.Pool

	BeforeEach(func() {
		base := []runtime.Tool{
			&tool{name: "Bash", desc: "Runs a shell command."},
			&tool{name: "Read", desc: "Reads a file."},
			&tool{name: "ToolSearch", desc: "Loads deferred tools."},
			&tool{name: "NotebookEdit", desc: "Edits a cell of a Jupyter notebook.", deferFlag: true},
			&tool{name: "EnterWorktree", desc: "Creates a git worktree and moves into it.", deferFlag: true, hint: "isolated branch checkout"},
		}
		mcp := []runtime.Tool{
			&tool{name: "mcp__github__create_issue", desc: "Create a new issue in a GitHub repository."},
			&tool{name: "mcp__github__list_issues", desc: "List issues of a GitHub repository."},
			&tool{name: "mcp__github__create_pull_request", desc: "Open a pull request."},
			&tool{name: "mcp__slack__send_message", desc: "Post a message to a Slack channel.", hint: "chat notify team"},
			&tool{name: "mcp__slack__list_channels", desc: "List the channels of the Slack workspace."},
			&tool{name: "mcp__db__run_query", desc: "Run a read-only SQL query against the database and return rows."},
			&tool{name: "mcp__weather__forecast", desc: "Get the weather forecast for a city."},
		}
		p = pool.Assemble(base, mcp, pool.Options{SearchTool: "ToolSearch", Pending: pending{"jira", "confluence"}})
	})

	search := func(q string, max int) pool.SearchResult {
		res, err := pool.Search(p, q, max)
		Expect(err).NotTo(HaveOccurred())
		return res
	}

	Describe("select:", func() {
		It("returns exactly the named tools with their definitions", func() {
			res := search("select:mcp__slack__send_message,NotebookEdit", 0)
			Expect(res.Matches).To(Equal([]string{"mcp__slack__send_message", "NotebookEdit"}))
			Expect(res.Definitions).To(HaveLen(2))
			Expect(res.Definitions[0].Description).To(Equal("Post a message to a Slack channel."))
			Expect(string(res.Definitions[0].InputSchema)).To(ContainSubstring(`"type":"object"`))
			Expect(res.TotalDeferred).To(Equal(9))
			Expect(res.Text()).To(ContainSubstring(`<function>{"name":"mcp__slack__send_message"`))
		})
		It("is not capped by max_results", func() {
			res := search("select:mcp__github__create_issue,mcp__github__list_issues,mcp__db__run_query", 1)
			Expect(res.Matches).To(HaveLen(3))
		})
		It("is case-insensitive and ignores spaces and duplicates", func() {
			res := search("SELECT: notebookedit , NotebookEdit", 0)
			Expect(res.Matches).To(Equal([]string{"NotebookEdit"}))
		})
		It("returns an already-loaded tool, harmlessly", func() {
			Expect(search("select:Read", 0).Matches).To(Equal([]string{"Read"}))
		})
		It("reports missing names and servers still connecting", func() {
			res := search("select:mcp__jira__create,NotebookEdit", 0)
			Expect(res.Matches).To(Equal([]string{"NotebookEdit"}))
			Expect(res.Missing).To(Equal([]string{"mcp__jira__create"}))
			Expect(res.Pending).To(Equal([]string{"confluence", "jira"}))
			Expect(res.Text()).To(ContainSubstring("Not found: mcp__jira__create"))
		})
	})

	Describe("keywords", func() {
		It("takes a bare tool name as a selection", func() {
			Expect(search("notebookedit", 0).Matches).To(Equal([]string{"NotebookEdit"}))
		})
		It("takes an mcp__server prefix", func() {
			Expect(search("mcp__slack", 0).Matches).To(ConsistOf("mcp__slack__send_message", "mcp__slack__list_channels"))
		})
		It("ranks whole name parts first", func() {
			res := search("github issue", 0)
			Expect(res.Matches[:2]).To(ConsistOf("mcp__github__create_issue", "mcp__github__list_issues"))
			Expect(res.Matches).To(ContainElement("mcp__github__create_pull_request"))
		})
		It("finds tools by plain-language queries", func() {
			Expect(search("send a message to the team chat", 0).Matches[0]).To(Equal("mcp__slack__send_message"))
			Expect(search("what is the weather in Paris", 0).Matches[0]).To(Equal("mcp__weather__forecast"))
			Expect(search("run a SQL query on the database", 0).Matches[0]).To(Equal("mcp__db__run_query"))
			Expect(search("edit a jupyter notebook cell", 0).Matches[0]).To(Equal("NotebookEdit"))
			Expect(search("isolated checkout", 0).Matches[0]).To(Equal("EnterWorktree"))
		})
		It("splits CamelCase names", func() {
			Expect(search("worktree", 0).Matches).To(Equal([]string{"EnterWorktree"}))
		})
		It("requires +terms", func() {
			res := search("+slack list", 0)
			Expect(res.Matches).To(Equal([]string{"mcp__slack__list_channels", "mcp__slack__send_message"}))
			Expect(search("+slack +github", 0).Matches).To(BeEmpty())
		})
		It("caps results at max_results, 5 by default", func() {
			Expect(search("list create send run get", 0).Matches).To(HaveLen(5))
			Expect(search("list create send run get", 2).Matches).To(HaveLen(2))
		})
		It("searches only deferred tools", func() {
			// Bash is loaded, not deferred: a search for it finds no Bash
			// (WordNet's senses of its words may find weaker matches).
			Expect(search("shell command", 0).Matches).NotTo(ContainElement("Bash"))
		})
		It("says which servers are still connecting when nothing is found", func() {
			res := search("jira", 0)
			Expect(res.Matches).To(BeEmpty())
			Expect(res.Pending).To(Equal([]string{"confluence", "jira"}))
			Expect(res.Text()).To(ContainSubstring("still connecting: confluence, jira"))
		})
		It("is deterministic", func() {
			first := search("list", 10).Matches
			for i := 0; i < 20; i++ {
				Expect(search("list", 10).Matches).To(Equal(first))
			}
		})
	})

	It("refuses an empty query and a missing pool", func() {
		_, err := pool.Search(p, "  ", 0)
		Expect(err).To(MatchError(ContainSubstring("select:ToolName")))
		_, err = pool.Search(nil, "x", 0)
		Expect(err).To(MatchError(ContainSubstring("pool.Provide")))
	})

	It("is found through the ToolContext", func() {
		tc := runtime.NewToolContext(GinkgoT().TempDir())
		_, ok := pool.CatalogFrom(tc)
		Expect(ok).To(BeFalse())
		pool.Provide(tc, p)
		c, ok := pool.CatalogFrom(tc)
		Expect(ok).To(BeTrue())
		Expect(c.IsDeferred("mcp__db__run_query")).To(BeTrue())
	})

	DescribeTable("NameParts",
		func(name string, want []string) {
			Expect(pool.NameParts(name)).To(Equal(want))
		},
		Entry("mcp", "mcp__github__create_issue", []string{"github", "create", "issue"}),
		Entry("camel", "NotebookEdit", []string{"notebook", "edit"}),
		Entry("acronym", "ReadMCPResource", []string{"read", "mcp", "resource"}),
		Entry("dashes", "mcp__my-server__getThing", []string{"my", "server", "get", "thing"}),
	)
})
