package agent_test

import (
	"context"
	"sync"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2/option"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/anthropic"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// recorder collects the loop's events.
type recorder struct {
	mu     sync.Mutex
	events []agent.Event
	on     func(agent.Event)
}

func (r *recorder) observe(ev agent.Event) {
	r.mu.Lock()
	r.events = append(r.events, ev)
	on := r.on
	r.mu.Unlock()
	if on != nil {
		on(ev)
	}
}

func (r *recorder) kinds(k agent.EventKind) []agent.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []agent.Event
	for _, ev := range r.events {
		if ev.Kind == k {
			out = append(out, ev)
		}
	}
	return out
}

var _ = Describe("the loop against a fake Messages API through the SDK", func() {
	var (
		read, slow, fin *tooltest.Sim
		tools           []runtime.Tool
		rec             *recorder
		tc              *runtime.ToolContext
	)

	BeforeEach(func() {
		read = &tooltest.Sim{ToolName: "Read", Safe: true, ReadOnly: true}
		slow = &tooltest.Sim{ToolName: "Slow", Interrupt: runtime.InterruptCancel}
		fin = &tooltest.Sim{ToolName: "Fin"}
		tools = []runtime.Tool{read, slow, fin}
		rec = &recorder{}
		tc = runtime.NewToolContext(GinkgoT().TempDir())
		GinkgoT().Setenv("ANTHROPIC_API_KEY", "test")
	})

	newAgent := func(api *fakeAPI) *agent.Agent {
		GinkgoT().Setenv("ANTHROPIC_BASE_URL", api.URL())
		p := anthropic.New("fake-model", option.WithMaxRetries(0))
		return agent.New(agent.Config{Provider: p, Tools: agent.List(tools), System: "be brief", Observer: rec.observe}, tc)
	}

	It("starts tools before the stream ends, returns results in order and sends them in the next request", func() {
		started := make(chan struct{})
		var once sync.Once
		rec.on = func(ev agent.Event) {
			if ev.Kind == agent.EventToolStart {
				once.Do(func() { close(started) })
			}
		}
		var startedBeforeEnd bool
		api := newFakeAPI(
			func(s *sse, _ map[string]any) {
				s.start()
				s.text("Reading two files. ")
				s.tool("toolu_a", "Read", `{"summary":"a.go","output":"alpha"}`)
				// The stream stays open until the first call has started.
				select {
				case <-started:
					startedBeforeEnd = true
				case <-time.After(10 * time.Second):
				}
				s.tool("toolu_b", "Read", `{"summary":"b.go","output":"beta"}`)
				s.stop("tool_use")
			},
			func(s *sse, _ map[string]any) {
				s.start()
				s.text("Both read.")
				s.stop("end_turn")
			},
		)
		DeferCleanup(api.Close)

		out := newAgent(api).Run(context.Background(), "read a and b")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		Expect(out.Turns).To(Equal(2))
		Expect(out.Text).To(Equal("Both read."))
		Expect(startedBeforeEnd).To(BeTrue(), "the first call should start while the response still streams")

		results := rec.kinds(agent.EventToolResult)
		Expect(results).To(HaveLen(2))
		Expect(results[0].ID).To(Equal("toolu_a"))
		Expect(results[1].ID).To(Equal("toolu_b"))
		for _, k := range []agent.EventKind{agent.EventToolStart, agent.EventToolEnd, agent.EventToolResult} {
			evs := rec.kinds(k)
			Expect(evs).To(HaveLen(2))
			for _, ev := range evs {
				Expect(ev.Tool).To(BeIdenticalTo(read), "the events carry the tool itself: the agent wraps no tool")
			}
		}

		reqs := api.Requests()
		Expect(reqs).To(HaveLen(2))
		Expect(reqs[0]["stream"]).To(BeTrue())
		Expect(reqs[0]["model"]).To(Equal("fake-model"))
		// Prompt caching: the system prompt and the last tool definition
		// carry cache_control.
		system := reqs[0]["system"].([]any)[0].(map[string]any)
		Expect(system["cache_control"]).To(HaveKeyWithValue("type", "ephemeral"))
		defs := reqs[0]["tools"].([]any)
		Expect(defs).To(HaveLen(3))
		Expect(defs[2].(map[string]any)["cache_control"]).To(HaveKeyWithValue("type", "ephemeral"))
		Expect(defs[0].(map[string]any)).NotTo(HaveKey("cache_control"))

		msgs := messages(reqs[1])
		Expect(msgs).To(HaveLen(3))
		// ... and the newest block, so the next turn reads the history
		// from the cache.
		Expect(blocks(msgs[2])[1]["cache_control"]).To(HaveKeyWithValue("type", "ephemeral"))
		Expect(blocks(msgs[2])[0]).NotTo(HaveKey("cache_control"))
		Expect(pairingProblems(reqs[1])).To(BeEmpty())
		assistant := blocks(msgs[1])
		Expect(assistant[1]["input"]).To(Equal(map[string]any{"summary": "a.go", "output": "alpha"}))
		user := blocks(msgs[2])
		Expect(user).To(HaveLen(2))
		Expect(user[0]["tool_use_id"]).To(Equal("toolu_a"))
		Expect(user[0]["content"].([]any)[0].(map[string]any)["text"]).To(Equal("alpha"))
		Expect(user[1]["tool_use_id"]).To(Equal("toolu_b"))
		Expect(user[1]["content"].([]any)[0].(map[string]any)["text"]).To(Equal("beta"))
	})

	It("pairs every tool_use with a tool_result when the user interrupts mid-stream", func() {
		rec.on = func(ev agent.Event) {}
		var ag *agent.Agent
		api := newFakeAPI(
			func(s *sse, _ map[string]any) {
				s.start()
				s.tool("toolu_slow", "Slow", `{"summary":"forever","block":true}`)
				s.tool("toolu_fin", "Fin", `{"summary":"queued behind"}`)
				s.toolStart("toolu_cut", "Read", `{"summary":"never fini`, 5)
				s.hang()
			},
			func(s *sse, body map[string]any) {
				s.start()
				s.text("Understood.")
				s.stop("end_turn")
			},
		)
		DeferCleanup(api.Close)
		ag = newAgent(api)
		rec.mu.Lock()
		rec.on = func(ev agent.Event) {
			// Interrupt once both complete blocks are in: the slow call
			// runs (or is about to), the second is queued behind it.
			if ev.Kind == agent.EventToolQueued && ev.ID == "toolu_fin" {
				go ag.Interrupt()
			}
		}
		rec.mu.Unlock()

		out := ag.Run(context.Background(), "do slow things")
		Expect(out.Stop).To(Equal(agent.StopInterrupted))

		hist := ag.Messages()
		Expect(hist).To(HaveLen(3))
		Expect(hist[1].Role).To(Equal(provider.Assistant))
		uses := hist[1].ToolUses()
		Expect(uses).To(HaveLen(2), "the unfinished tool_use block is dropped")
		Expect(uses[0].ID).To(Equal("toolu_slow"))
		Expect(uses[1].ID).To(Equal("toolu_fin"))
		res := hist[2].Content
		Expect(res).To(HaveLen(3))
		Expect(res[0].ToolUseID).To(Equal("toolu_slow"))
		Expect(res[0].IsError).To(BeTrue())
		Expect(res[1].ToolUseID).To(Equal("toolu_fin"))
		Expect(res[1].IsError).To(BeTrue(), "the queued call never started")
		Expect(res[2]).To(Equal(provider.Text(agent.InterruptNotice)))

		// The conversation goes on and is valid for the API.
		out = ag.Run(context.Background(), "never mind")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		reqs := api.Requests()
		Expect(reqs).To(HaveLen(2))
		Expect(pairingProblems(reqs[1])).To(BeEmpty())
	})

	It("drops a turn whose stream fails and reports the API error", func() {
		api := newFakeAPI() // no script: every request is a 400
		DeferCleanup(api.Close)
		ag := newAgent(api)
		out := ag.Run(context.Background(), "hello")
		Expect(out.Stop).To(Equal(agent.StopError))
		Expect(out.Err).To(MatchError(ContainSubstring("no script for request 1")))
		Expect(ag.Messages()).To(HaveLen(1), "only the prompt stays")
	})

	It("carries the context modifications of one turn into the next", func() {
		read.OnModify = func(id string, tc *runtime.ToolContext) { tc.Cwd = "/moved/by/" + id }
		var cwdSeen string
		fin.OnCall = func(_ context.Context, _ *tooltest.Input, call *runtime.Call) (runtime.Result, error) {
			cwdSeen = call.Context.Cwd
			return runtime.Result{Content: []runtime.Block{runtime.TextBlock("ok")}}, nil
		}
		api := newFakeAPI(
			func(s *sse, _ map[string]any) {
				s.start()
				s.tool("toolu_cd", "Read", `{"summary":"cd","modify":true}`)
				s.stop("tool_use")
			},
			func(s *sse, _ map[string]any) {
				s.start()
				s.tool("toolu_where", "Fin", `{"summary":"where"}`)
				s.stop("tool_use")
			},
			func(s *sse, _ map[string]any) {
				s.start()
				s.text("done")
				s.stop("end_turn")
			},
		)
		DeferCleanup(api.Close)
		ag := newAgent(api)
		out := ag.Run(context.Background(), "move")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(cwdSeen).To(Equal("/moved/by/toolu_cd"))
		Expect(ag.ToolContext().Cwd).To(Equal("/moved/by/toolu_cd"))
		Expect(rec.kinds(agent.EventContext)).To(HaveLen(1))
	})
})
