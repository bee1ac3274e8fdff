package agent_test

import (
	"context"
	"encoding/json"
	"iter"
	"path/filepath"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/provider"
)

// scripted is a provider double: each Stream call is answered by the next
// script, and the requests are kept.
type scripted struct {
	streams bool
	mu      sync.Mutex
	scripts []func(req provider.Request) ([]provider.Event, error)
	reqs    []provider.Request
}

func (p *scripted) Name() string  { return "scripted:model" }
func (p *scripted) Streams() bool { return p.streams }

func (p *scripted) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Event, error] {
	return func(yield func(provider.Event, error) bool) {
		p.mu.Lock()
		n := len(p.reqs)
		p.reqs = append(p.reqs, req)
		var script func(provider.Request) ([]provider.Event, error)
		if n < len(p.scripts) {
			script = p.scripts[n]
		}
		p.mu.Unlock()
		if script == nil {
			yield(provider.Event{}, &provider.APIError{Provider: "scripted", Status: 400, Kind: provider.ErrInvalidRequest, Message: "no script"})
			return
		}
		evs, err := script(req)
		for _, ev := range evs {
			if !yield(ev, nil) {
				return
			}
		}
		if err != nil {
			yield(provider.Event{}, err)
		}
	}
}

func (p *scripted) requests() []provider.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]provider.Request(nil), p.reqs...)
}

// reply is a whole response: its blocks as stream events, then the message.
func reply(stop provider.StopReason, blocks ...provider.Block) []provider.Event {
	var evs []provider.Event
	for i, b := range blocks {
		switch b.Type {
		case provider.TextBlock:
			evs = append(evs, provider.Event{Type: provider.EventText, Index: i, Text: b.Text})
		case provider.ToolUseBlock:
			evs = append(evs, provider.Event{Type: provider.EventToolUseStart, Index: i, Block: provider.ToolUse(b.ID, b.Name, nil)},
				provider.Event{Type: provider.EventToolUse, Index: i, Block: b})
		}
	}
	return append(evs, provider.Event{Type: provider.EventMessage, StopReason: stop,
		Message: provider.Message{Role: provider.Assistant, Content: blocks}})
}

func says(text string) func(provider.Request) ([]provider.Event, error) {
	return func(provider.Request) ([]provider.Event, error) {
		return reply(provider.StopEndTurn, provider.Text(text)), nil
	}
}

func failsWith(err error) func(provider.Request) ([]provider.Event, error) {
	return func(provider.Request) ([]provider.Event, error) { return nil, err }
}

// lastResults are the tool_result blocks of req's last message, by id.
func lastResults(req provider.Request) map[string]provider.Block {
	out := map[string]provider.Block{}
	m := req.Messages[len(req.Messages)-1]
	for _, b := range m.Content {
		if b.Type == provider.ToolResultBlock {
			out[b.ToolUseID] = b
		}
	}
	return out
}

func resultText(b provider.Block) string {
	s := ""
	for _, c := range b.Content {
		s += c.Text
	}
	return s
}

var _ = Describe("the retry policy", Label("faults"), func() {
	var (
		rec   *recorder
		tc    *runtime.ToolContext
		fx    sideEffects
		clock *fakeClock
	)
	BeforeEach(func() {
		rec = &recorder{}
		dir := GinkgoT().TempDir()
		tc = runtime.NewToolContext(dir)
		fx = sideEffects{path: filepath.Join(dir, "marker")}
		clock = newFakeClock()
	})
	newAgent := func(p provider.Provider, policy agent.RetryPolicy) *agent.Agent {
		tools := []runtime.Tool{fx.tool("Bash")}
		return agent.New(agent.Config{Provider: p, Tools: agent.List(tools), Observer: rec.observe, Retry: policy}, tc)
	}

	It("after a stalled stream, sends the request once without streaming, then streams again", func() {
		stalled := &provider.APIError{Provider: "scripted", Kind: provider.ErrStalled, Message: "no data for 300 s"}
		p := &scripted{streams: true, scripts: []func(provider.Request) ([]provider.Event, error){
			failsWith(stalled),
			func(provider.Request) ([]provider.Event, error) {
				return reply(provider.StopToolUse, provider.ToolUse("toolu_1", "Bash", json.RawMessage(`{"summary":"echo x >> marker"}`))), nil
			},
			says("done"),
		}}
		out := newAgent(p, clock.policy()).Run(context.Background(), "go")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		reqs := p.requests()
		Expect(reqs).To(HaveLen(3))
		Expect([]bool{reqs[0].NoStream, reqs[1].NoStream, reqs[2].NoStream}).To(Equal([]bool{false, true, false}))
		Expect(fx.runs("echo x >> marker")).To(Equal(1))
		retries := rec.kinds(agent.EventRetry)
		Expect(retries).To(HaveLen(1))
		Expect(retries[0].Retry.NoStream).To(BeTrue())
		Expect(retries[0].Text).To(Equal("retrying without streaming in 0.5 s (attempt 1 of 10): stream stalled: no data for 300 s"))
	})

	It("does not retry a second stall of the same request", func() {
		stalled := &provider.APIError{Provider: "scripted", Kind: provider.ErrStalled, Message: "no data for 300 s"}
		p := &scripted{streams: true, scripts: []func(provider.Request) ([]provider.Event, error){failsWith(stalled), failsWith(stalled), says("never")}}
		out := newAgent(p, clock.policy()).Run(context.Background(), "go")
		Expect(out.Stop).To(Equal(agent.StopError))
		Expect(out.Err).To(MatchError(stalled))
		Expect(p.requests()).To(HaveLen(2))
	})

	It("waits the retry-after the server named", func() {
		busy := &provider.APIError{Provider: "scripted", Status: 529, Kind: provider.ErrOverloaded, Message: "Overloaded", RetryAfter: 7 * time.Second}
		p := &scripted{streams: true, scripts: []func(provider.Request) ([]provider.Event, error){failsWith(busy), says("ok")}}
		out := newAgent(p, clock.policy()).Run(context.Background(), "go")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(clock.Waited()).To(Equal([]time.Duration{7 * time.Second}))
		Expect(rec.kinds(agent.EventRetry)[0].Text).To(Equal("retrying in 7 s (attempt 1 of 10): 529 (overloaded): Overloaded"))
	})

	It("stops retrying when the next wait would pass the total time", func() {
		boom := &provider.APIError{Provider: "scripted", Status: 500, Kind: provider.ErrServer, Message: "boom"}
		var scripts []func(provider.Request) ([]provider.Event, error)
		for range 20 {
			scripts = append(scripts, failsWith(boom))
		}
		p := &scripted{streams: true, scripts: scripts}
		policy := clock.policy()
		policy.MaxTotal = 10 * time.Second // 0.5+1+2+4 = 7.5 s; the next 8 s wait would end at 15.5 s
		out := newAgent(p, policy).Run(context.Background(), "go")
		Expect(out.Stop).To(Equal(agent.StopError))
		Expect(out.Err).To(MatchError(boom))
		Expect(clock.Waited()).To(HaveLen(4))
		Expect(p.requests()).To(HaveLen(5))
	})

	It("ends a back-off wait at once when the user interrupts", func() {
		boom := &provider.APIError{Provider: "scripted", Status: 500, Kind: provider.ErrServer, Message: "boom"}
		p := &scripted{streams: true, scripts: []func(provider.Request) ([]provider.Event, error){failsWith(boom), says("never")}}
		var ag *agent.Agent
		rec.on = func(ev agent.Event) {
			if ev.Kind == agent.EventRetry {
				go ag.Interrupt()
			}
		}
		ag = newAgent(p, agent.RetryPolicy{BaseDelay: time.Hour}) // the real timer
		done := make(chan *agent.Outcome, 1)
		go func() { done <- ag.Run(context.Background(), "go") }()
		var out *agent.Outcome
		Eventually(done, 10*time.Second).Should(Receive(&out))
		Expect(out.Stop).To(Equal(agent.StopInterrupted))
		Expect(p.requests()).To(HaveLen(1))
		Expect(rec.kinds(agent.EventInterrupted)).To(HaveLen(1))
	})

	It("answers a tool_use whose input was cut off as such, runs nothing, and says no validation error", func() {
		p := &scripted{streams: true, scripts: []func(provider.Request) ([]provider.Event, error){
			func(provider.Request) ([]provider.Event, error) {
				return reply(provider.StopMaxTokens,
					provider.ToolUse("toolu_ok", "Bash", json.RawMessage(`{"summary":"echo ok >> marker"}`)),
					provider.ToolUse("toolu_cut", "Bash", json.RawMessage(`{"summary":"echo x >> mar`))), nil
			},
			says("I will send it again"),
		}}
		out := newAgent(p, clock.policy()).Run(context.Background(), "go")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(fx.runs("echo ok >> marker")).To(Equal(1))
		Expect(fx.runs("echo x >> mar")).To(BeZero())
		reqs := p.requests()
		Expect(reqs).To(HaveLen(2))
		res := lastResults(reqs[1])
		Expect(res).To(HaveLen(2))
		Expect(resultText(res["toolu_ok"])).To(Equal("ran echo ok >> marker"))
		Expect(res["toolu_cut"].IsError).To(BeTrue())
		Expect(resultText(res["toolu_cut"])).To(Equal(agent.CutOffResult))
		sent := reqs[1].Messages[1].ToolUses()
		Expect(string(sent[1].Input)).To(Equal(`{}`), "the history holds JSON the API accepts")
	})

	It("answers the last tool_use of a response that hit max_tokens as cut off (a provider that does not stream)", func() {
		p := &scripted{streams: false, scripts: []func(provider.Request) ([]provider.Event, error){
			func(provider.Request) ([]provider.Event, error) {
				return reply(provider.StopMaxTokens,
					provider.Text("Let me run it."),
					provider.ToolUse("toolu_cut", "Bash", json.RawMessage(`{}`))), nil
			},
			says("again"),
		}}
		out := newAgent(p, clock.policy()).Run(context.Background(), "go")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(fx.path).NotTo(BeAnExistingFile(), "nothing ran")
		res := lastResults(p.requests()[1])
		Expect(resultText(res["toolu_cut"])).To(Equal(agent.CutOffResult))
	})

	DescribeTable("Delay doubles from the base up to the cap, plus up to a quarter of jitter",
		func(n int, jitter float64, want time.Duration) {
			p := agent.RetryPolicy{Jitter: func() float64 { return jitter }}
			Expect(p.Delay(n, 0)).To(Equal(want))
		},
		Entry("first", 1, 0.0, 500*time.Millisecond),
		Entry("second", 2, 0.0, time.Second),
		Entry("seventh reaches the cap", 7, 0.0, 32*time.Second),
		Entry("tenth stays at the cap", 10, 0.0, 32*time.Second),
		Entry("jitter adds at most a quarter", 3, 0.999, 2*time.Second+time.Duration(0.999*0.25*float64(2*time.Second))),
	)
})
