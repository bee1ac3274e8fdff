package openai_test

import (
	"context"
	"sync"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/openai/openaitest"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// The agent loop's guarantees hold with this provider as with Anthropic's:
// calls start while the response streams, every tool call is answered,
// and an interrupt answers every call it cut short.
var _ = Describe("the agent loop over the OpenAI provider", func() {
	var (
		tools  []runtime.Tool
		tc     *runtime.ToolContext
		mu     sync.Mutex
		events []agent.Event
		on     func(agent.Event)
	)
	observe := func(ev agent.Event) {
		mu.Lock()
		events = append(events, ev)
		f := on
		mu.Unlock()
		if f != nil {
			f(ev)
		}
	}
	kinds := func(k agent.EventKind) []agent.Event {
		mu.Lock()
		defer mu.Unlock()
		var out []agent.Event
		for _, ev := range events {
			if ev.Kind == k {
				out = append(out, ev)
			}
		}
		return out
	}

	BeforeEach(func() {
		tools = []runtime.Tool{
			&tooltest.Sim{ToolName: "Read", Safe: true, ReadOnly: true},
			&tooltest.Sim{ToolName: "Slow", Interrupt: runtime.InterruptCancel},
			&tooltest.Sim{ToolName: "Fin"},
		}
		tc = runtime.NewToolContext(GinkgoT().TempDir())
		mu.Lock()
		events, on = nil, nil
		mu.Unlock()
	})

	newAgent := func(srv *openaitest.Server) *agent.Agent {
		return agent.New(agent.Config{Provider: newProvider(srv), Tools: agent.List(tools), System: "be brief", Observer: observe}, tc)
	}

	It("starts the first call before the stream ends and answers both parallel calls in the next request", func() {
		started := make(chan struct{})
		var once sync.Once
		on = func(ev agent.Event) {
			if ev.Kind == agent.EventToolStart {
				once.Do(func() { close(started) })
			}
		}
		var startedBeforeEnd atomic.Bool
		srv := openaitest.NewServer(
			func(s *openaitest.Stream) {
				s.Text("Reading two files.")
				s.ToolCall(0, "call_a", "Read", `{"summary":"a.go","output":"alpha"}`, 6)
				s.ToolStart(1, "call_b", "Read")
				startedBeforeEnd.Store(s.Wait(started))
				s.ToolArgs(1, `{"summary":"b.go","output":"beta"}`, 6)
				s.Finish("tool_calls")
			},
			func(s *openaitest.Stream) {
				s.Text("Both read.")
				s.Finish("stop")
			},
		)
		DeferCleanup(srv.Close)

		out := newAgent(srv).Run(context.Background(), "read a and b")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		Expect(out.Turns).To(Equal(2))
		Expect(out.Text).To(Equal("Both read."))
		Expect(out.Usage.OutputTokens).To(BeNumerically("==", 34), "usage of both responses")
		Expect(startedBeforeEnd.Load()).To(BeTrue(), "the first call should start while the response still streams")

		results := kinds(agent.EventToolResult)
		Expect(results).To(HaveLen(2))
		Expect(results[0].ID).To(Equal("call_a"))
		Expect(results[1].ID).To(Equal("call_b"))

		reqs := srv.Requests()
		Expect(reqs).To(HaveLen(2))
		Expect(openaitest.PairingProblems(reqs[1].Body)).To(BeEmpty())
		msgs := openaitest.Messages(reqs[1].Body)
		Expect(msgs).To(HaveLen(5))
		Expect(msgs[3]).To(Equal(map[string]any{"role": "tool", "tool_call_id": "call_a", "content": "alpha"}))
		Expect(msgs[4]).To(Equal(map[string]any{"role": "tool", "tool_call_id": "call_b", "content": "beta"}))
	})

	It("answers every call when the user interrupts mid-stream, and the conversation stays valid", func() {
		var ag *agent.Agent
		srv := openaitest.NewServer(
			func(s *openaitest.Stream) {
				s.ToolCall(0, "call_slow", "Slow", `{"summary":"forever","block":true}`, 8)
				s.ToolCall(1, "call_fin", "Fin", `{"summary":"queued behind"}`, 8)
				s.ToolCall(2, "call_cut", "Read", `{"summary":"never fini`, 5)
				s.Hang()
			},
			func(s *openaitest.Stream) {
				s.Text("Understood.")
				s.Finish("stop")
			},
		)
		DeferCleanup(srv.Close)
		ag = newAgent(srv)
		mu.Lock()
		on = func(ev agent.Event) {
			// call_fin is complete once call_cut starts: interrupt then.
			if ev.Kind == agent.EventToolQueued && ev.ID == "call_fin" {
				go ag.Interrupt()
			}
		}
		mu.Unlock()

		out := ag.Run(context.Background(), "do slow things")
		Expect(out.Stop).To(Equal(agent.StopInterrupted))
		hist := ag.Messages()
		Expect(hist).To(HaveLen(3))
		uses := hist[1].ToolUses()
		Expect(uses).To(HaveLen(2), "the unfinished call is dropped")
		Expect(uses[0].ID).To(Equal("call_slow"))
		Expect(uses[1].ID).To(Equal("call_fin"))
		res := hist[2].Content
		Expect(res).To(HaveLen(3))
		Expect(res[0].ToolUseID).To(Equal("call_slow"))
		Expect(res[0].IsError).To(BeTrue())
		Expect(res[1].ToolUseID).To(Equal("call_fin"))
		Expect(res[2]).To(Equal(provider.Text(agent.InterruptNotice)))

		out = ag.Run(context.Background(), "never mind")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		reqs := srv.Requests()
		Expect(reqs).To(HaveLen(2))
		Expect(openaitest.PairingProblems(reqs[1].Body)).To(BeEmpty())
		msgs := openaitest.Messages(reqs[1].Body)
		// system, prompt, assistant, two tool messages, the notice, the new prompt
		Expect(msgs).To(HaveLen(7))
		Expect(msgs[5]).To(Equal(map[string]any{"role": "user", "content": agent.InterruptNotice}))
		Expect(msgs[6]).To(Equal(map[string]any{"role": "user", "content": "never mind"}))
	})

	It("drops a turn whose request fails and reports the API's message", func() {
		srv := openaitest.NewServer() // no script: every request is a 400
		DeferCleanup(srv.Close)
		ag := newAgent(srv)
		out := ag.Run(context.Background(), "hello")
		Expect(out.Stop).To(Equal(agent.StopError))
		Expect(out.Err).To(MatchError(ContainSubstring("no script for request 1")))
		Expect(ag.Messages()).To(HaveLen(1), "only the prompt stays")
	})
})
