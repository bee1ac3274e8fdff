package agent_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// checkPairing asserts the API's rule on a whole history.
func checkPairing(hist []provider.Message) {
	for i, m := range hist {
		uses := m.ToolUses()
		if m.Role != provider.Assistant || len(uses) == 0 {
			continue
		}
		Expect(i+1).To(BeNumerically("<", len(hist)), "tool_use at message %d is never answered", i)
		var got []string
		for _, b := range hist[i+1].Content {
			if b.Type == provider.ToolResultBlock {
				got = append(got, b.ToolUseID)
			}
		}
		var want []string
		for _, u := range uses {
			want = append(want, u.ID)
		}
		Expect(got).To(Equal(want), "message %d", i)
	}
}

var _ = Describe("the loop with the replay model", func() {
	var (
		tools []runtime.Tool
		rec   *recorder
	)

	BeforeEach(func() {
		tools = []runtime.Tool{
			&tooltest.Sim{ToolName: "Read", Safe: true, ReadOnly: true},
			&tooltest.Sim{ToolName: "Bash", CancelsSiblings: true, Safe: true, Interrupt: runtime.InterruptCancel},
			&tooltest.Sim{ToolName: "Edit"},
		}
		rec = &recorder{}
	})

	run := func(src string, maxTurns int) (*agent.Agent, *agent.Outcome) {
		sc, err := replay.Parse([]byte(src))
		Expect(err).NotTo(HaveOccurred())
		ag := agent.New(agent.Config{Provider: replay.New(sc, replay.Options{}), Tools: agent.List(tools), MaxTurns: maxTurns, Observer: rec.observe},
			runtime.NewToolContext(GinkgoT().TempDir()))
		return ag, ag.Run(context.Background(), sc.Prompt)
	}

	It("follows the branch the tool results pick and cancels the siblings of a failing Bash", func() {
		ag, out := run(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"slow","name":"Bash","input":{"summary":"sleep","block":true}},{"type":"tool_use","id":"bad","name":"Bash","input":{"summary":"false","fail":"exit 1"}}]}
{"when":{"errors":["slow","bad"]},"blocks":[{"type":"text","text":"both failed"}]}
{"blocks":[{"type":"text","text":"unexpected"}]}`, 0)
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.Text).To(Equal("both failed"))
		results := rec.kinds(agent.EventToolResult)
		Expect(results).To(HaveLen(2))
		Expect(results[0].Call.Outcome).To(Equal(orchestrate.OutcomeSiblingError))
		Expect(results[0].Call.Result.Text()).To(Equal("Cancelled: parallel tool call Bash(false) errored"))
		checkPairing(ag.Messages())
	})

	It("runs the calls as a batch when the provider does not stream", func() {
		ag, out := run(`{"prompt":"go","stream":false}
{"blocks":[{"type":"text","text":"reading"},{"type":"tool_use","id":"a","name":"Read","input":{"output":"A"}},{"type":"tool_use","id":"b","name":"Read","input":{"output":"B"}},{"type":"tool_use","id":"c","name":"Edit","input":{"output":"C"}}]}
{"when":{"ok":["a","b","c"]},"blocks":[{"type":"text","text":"done"}]}`, 0)
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		Expect(out.ToolCalls).To(Equal(3))
		hist := ag.Messages()
		Expect(hist).To(HaveLen(4))
		Expect(hist[2].Content[0].Content[0].Text).To(Equal("A"))
		Expect(hist[2].Content[2].Content[0].Text).To(Equal("C"))
		checkPairing(hist)
		Expect(rec.kinds(agent.EventText)).To(BeEmpty(), "a non-streaming model has no deltas")
	})

	It("answers unknown tools and invalid input with error results the model can read", func() {
		ag, out := run(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"u","name":"Teleport"},{"type":"tool_use","id":"v","name":"Read","input":{"no_such_field":1}}]}
{"when":{"errors":["u","v"]},"blocks":[{"type":"text","text":"ok"}]}`, 0)
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.ToolErrors).To(Equal(2))
		res := ag.Messages()[2].Content
		Expect(res[0].Content[0].Text).To(ContainSubstring("No such tool available: Teleport"))
		Expect(res[1].Content[0].Text).To(ContainSubstring("InputValidationError"))
	})

	It("stops at --max-turns and still answers the last tool calls", func() {
		ag, out := run(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"a","name":"Read"}]}
{"blocks":[{"type":"tool_use","id":"b","name":"Read"}]}
{"blocks":[{"type":"text","text":"never reached"}]}`, 2)
		Expect(out.Stop).To(Equal(agent.StopMaxTurns))
		Expect(out.Turns).To(Equal(2))
		hist := ag.Messages()
		Expect(hist).To(HaveLen(5))
		checkPairing(hist)
	})

	It("asks Refresh for the callable tools before every request", func() {
		// A tool that appears between turns (an MCP server that finished
		// connecting) is callable from the next turn on.
		sc, err := replay.Parse([]byte(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"a","name":"Late"}]}
{"blocks":[{"type":"tool_use","id":"b","name":"Late"}]}
{"blocks":[{"type":"text","text":"done"}]}`))
		Expect(err).NotTo(HaveOccurred())
		refreshes := 0
		late := &tooltest.Sim{ToolName: "Late", Safe: true}
		ag := agent.New(agent.Config{Provider: replay.New(sc, replay.Options{}), Tools: agent.ToolsFunc(func(*runtime.ToolContext) (callable, sent []runtime.Tool) {
			refreshes++
			if refreshes == 1 {
				return tools, tools
			}
			more := append(tools[:len(tools):len(tools)], late)
			return more, more
		})}, runtime.NewToolContext(GinkgoT().TempDir()))
		out := ag.Run(context.Background(), sc.Prompt)
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(refreshes).To(Equal(3))
		res := ag.Messages()
		Expect(res[2].Content[0].Content[0].Text).To(ContainSubstring("No such tool available: Late"))
		Expect(res[2].Content[0].IsError).To(BeTrue())
		Expect(res[4].Content[0].IsError).To(BeFalse())
		checkPairing(res)
	})

	It("continues the conversation with a new prompt", func() {
		sc, _ := replay.Parse([]byte(`{"blocks":[{"type":"text","text":"first"}]}
{"blocks":[{"type":"text","text":"second"}]}`))
		ag := agent.New(agent.Config{Provider: replay.New(sc, replay.Options{}), Tools: agent.List(tools)}, runtime.NewToolContext(GinkgoT().TempDir()))
		Expect(ag.Run(context.Background(), "one").Text).To(Equal("first"))
		Expect(ag.Run(context.Background(), "two").Text).To(Equal("second"))
		Expect(ag.Messages()).To(HaveLen(4))
	})

	It("stops every call when the session context is cancelled", func() {
		sc, _ := replay.Parse([]byte(`{"blocks":[{"type":"tool_use","id":"a","name":"Edit","input":{"block":true}}]}`))
		ctx, cancel := context.WithCancel(context.Background())
		rec.on = func(ev agent.Event) {
			if ev.Kind == agent.EventToolStart {
				cancel()
			}
		}
		ag := agent.New(agent.Config{Provider: replay.New(sc, replay.Options{}), Tools: agent.List(tools), Observer: rec.observe}, runtime.NewToolContext(GinkgoT().TempDir()))
		out := ag.Run(ctx, "go")
		Expect(out.Stop).To(Equal(agent.StopInterrupted))
		checkPairing(ag.Messages())
	})
})
