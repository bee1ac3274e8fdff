package agent_test

import (
	"context"
	"iter"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// tooLong is a provider that refuses chosen requests (by their 0-based
// number) as the Anthropic API refuses a conversation over the window,
// and sends the others to the replay model.
type tooLong struct {
	*capture
	mu     sync.Mutex
	n      int
	refuse map[int]bool
}

// ptl is the API's answer to a conversation too long for the window.
var ptl = &provider.APIError{Provider: "anthropic", Status: 400, Kind: provider.ErrInvalidRequest,
	Message: "prompt is too long: 212345 tokens > 200000 maximum"}

func (p *tooLong) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Event, error] {
	p.mu.Lock()
	n := p.n
	p.n++
	p.mu.Unlock()
	if p.refuse[n] {
		p.capture.mu.Lock()
		p.capture.reqs = append(p.capture.reqs, req)
		p.capture.mu.Unlock()
		return func(yield func(provider.Event, error) bool) { yield(provider.Event{}, ptl) }
	}
	return p.capture.Stream(ctx, req)
}

var _ = Describe("compaction when the API finds the conversation too long", func() {
	var (
		rec   *recorder
		model *tooLong
		tools []runtime.Tool
	)
	BeforeEach(func() {
		rec = &recorder{}
		tools = []runtime.Tool{&tooltest.Sim{ToolName: "Read", Safe: true, ReadOnly: true}}
	})
	start := func(src string, policy agent.ContextPolicy, refuse ...int) *agent.Agent {
		sc, err := replay.Parse([]byte(src))
		Expect(err).NotTo(HaveOccurred())
		model = &tooLong{capture: &capture{Provider: replay.New(sc, replay.Options{})}, refuse: map[int]bool{}}
		for _, n := range refuse {
			model.refuse[n] = true
		}
		return agent.New(agent.Config{Provider: model, Tools: agent.List(tools), Observer: rec.observe, Context: policy},
			runtime.NewToolContext(GinkgoT().TempDir()))
	}

	It("recognises the APIs' answers for a conversation over the window", func() {
		Expect(provider.PromptTooLong(ptl)).To(BeTrue())
		Expect(provider.PromptTooLong(&provider.APIError{Status: 400, Kind: provider.ErrInvalidRequest,
			Message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens."})).To(BeTrue())
		Expect(provider.PromptTooLong(&provider.APIError{Status: 413, Kind: provider.ErrInvalidRequest})).To(BeTrue())
		Expect(provider.PromptTooLong(&provider.APIError{Status: 400, Kind: provider.ErrInvalidRequest, Message: "tools.0.name: bad"})).To(BeFalse())
		Expect(provider.PromptTooLong(&provider.APIError{Status: 529, Kind: provider.ErrOverloaded, Message: "prompt is too long"})).To(BeFalse())
	})

	It("compacts and sends the request again when the API refuses it as too long, once", func() {
		ag := start(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"r1","name":"Read","input":{"output":"first"}}],"usage":{"input_tokens":1000,"output_tokens":10}}
{"blocks":[{"type":"tool_use","id":"r2","name":"Read","input":{"output":"second"}}],"usage":{"input_tokens":2000,"output_tokens":10}}
{"blocks":[{"type":"text","text":"<summary>read first and second</summary>"}]}
{"blocks":[{"type":"text","text":"done after the summary"}]}`, agent.ContextPolicy{Threshold: 167_000, KeepTokens: -1}, 2)
		out := ag.Run(context.Background(), "go")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.Text).To(Equal("done after the summary"))
		reqs := model.requests()
		Expect(reqs).To(HaveLen(5))
		Expect(reqs[3].System).To(ContainSubstring("summarise a coding session"))
		Expect(reqs[4].Messages).To(HaveLen(1))
		Expect(textOf(reqs[4].Messages[0])).To(ContainSubstring("read first and second"))
		Expect(rec.kinds(agent.EventCompact)).To(HaveLen(1))
		Expect(rec.kinds(agent.EventCompact)[0].Compact.Trigger).To(Equal(agent.CompactAuto))
		checkPairing(ag.Messages())
	})

	It("ends with the API's error when the request is refused again after the compaction", func() {
		ag := start(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"r1","name":"Read","input":{"output":"first"}}]}
{"blocks":[{"type":"text","text":"<summary>s</summary>"}]}`, agent.ContextPolicy{Threshold: 167_000, KeepTokens: -1}, 1, 3)
		out := ag.Run(context.Background(), "go")
		Expect(out.Stop).To(Equal(agent.StopError))
		Expect(out.Err).To(MatchError(ContainSubstring("prompt is too long")))
		Expect(model.requests()).To(HaveLen(4), "one compaction, one request after it, no loop")
	})

	It("does not compact on the API's refusal when compaction is off", func() {
		ag := start(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"r1","name":"Read","input":{"output":"first"}}]}`, agent.ContextPolicy{}, 1)
		out := ag.Run(context.Background(), "go")
		Expect(out.Err).To(MatchError(ContainSubstring("prompt is too long")))
		Expect(model.requests()).To(HaveLen(2))
		Expect(rec.kinds(agent.EventCompact)).To(BeEmpty())
	})

	It("leaves the oldest messages out of a summary request refused as too long, and tries again", func() {
		ag := start(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"r1","name":"Read","input":{"output":"one"}}]}
{"blocks":[{"type":"tool_use","id":"r2","name":"Read","input":{"output":"two"}}]}
{"blocks":[{"type":"tool_use","id":"r3","name":"Read","input":{"output":"three"}}]}
{"blocks":[{"type":"tool_use","id":"r4","name":"Read","input":{"output":"four"}}]}
{"blocks":[{"type":"text","text":"read all four"}]}
{"blocks":[{"type":"text","text":"<summary>the later reads</summary>"}]}`, agent.ContextPolicy{KeepTokens: -1}, 5, 6)
		Expect(ag.Run(context.Background(), "go").Err).NotTo(HaveOccurred())
		before := len(ag.Messages())
		info, err := ag.Compact(context.Background(), "")
		Expect(err).NotTo(HaveOccurred())
		Expect(info.Summary).To(Equal("the later reads"))
		Expect(info.Summarized).To(Equal(before))
		Expect(info.Dropped).To(BeNumerically(">", 0))
		reqs := model.requests()
		Expect(reqs).To(HaveLen(8), "five turns, two refused summary requests, one answered")
		first, second, third := reqs[5].Messages, reqs[6].Messages, reqs[7].Messages
		Expect(len(second)).To(BeNumerically("<", len(first)))
		Expect(len(third)).To(BeNumerically("<", len(second)))
		for _, msgs := range [][]provider.Message{second, third} {
			Expect(msgs[0].Role).To(Equal(provider.User))
			Expect(textOf(msgs[0])).To(ContainSubstring("earliest part of this conversation was left out"))
			Expect(msgs[1].Role).To(Equal(provider.Assistant))
			Expect(textOf(msgs[len(msgs)-1])).To(ContainSubstring("write a detailed summary"))
			checkPairing(msgs)
		}
		Expect(strings.Count(textOf(third[0]), "left out")).To(Equal(1), "one note, not one per cut")
	})

	It("stops compacting automatically after three failures in a row, and says so", func() {
		src := `{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"r1","name":"Read","input":{"output":"a"}}],"usage":{"input_tokens":190000,"output_tokens":10}}
{"blocks":[{"type":"tool_use","id":"r2","name":"Read","input":{"output":"b"}}],"usage":{"input_tokens":190000,"output_tokens":10}}
{"blocks":[{"type":"tool_use","id":"r3","name":"Read","input":{"output":"c"}}],"usage":{"input_tokens":190000,"output_tokens":10}}
{"blocks":[{"type":"tool_use","id":"r4","name":"Read","input":{"output":"d"}}],"usage":{"input_tokens":190000,"output_tokens":10}}
{"blocks":[{"type":"text","text":"done"}],"usage":{"input_tokens":190000,"output_tokens":10}}`
		// Every turn reports a conversation over the threshold, and
		// every summary request fails.
		sc, err := replay.Parse([]byte(src))
		Expect(err).NotTo(HaveOccurred())
		inner := &capture{Provider: replay.New(sc, replay.Options{})}
		summaries := 0
		failing := &summaryFails{capture: inner, count: &summaries}
		ag := agent.New(agent.Config{Provider: failing, Tools: agent.List(tools), Observer: rec.observe,
			Context: agent.ContextPolicy{Threshold: 100_000}}, runtime.NewToolContext(GinkgoT().TempDir()))
		out := ag.Run(context.Background(), "go")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.Text).To(Equal("done"))
		var notes []string
		for _, ev := range rec.kinds(agent.EventHook) {
			notes = append(notes, ev.Text)
		}
		Expect(notes).To(HaveLen(agent.MaxAutoCompactFailures))
		Expect(notes[2]).To(ContainSubstring("automatic compaction is off for the rest of this session"))
		Expect(summaries).To(Equal(agent.MaxAutoCompactFailures), "no fourth attempt")
	})
})

// summaryFails answers every summary request with a server error (not
// retried by the summary) and sends the others to the replay model.
type summaryFails struct {
	*capture
	count *int
}

func (p *summaryFails) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Event, error] {
	if strings.Contains(req.System, "summarise a coding session") {
		*p.count++
		return func(yield func(provider.Event, error) bool) {
			yield(provider.Event{}, &provider.APIError{Provider: "anthropic", Status: 400, Kind: provider.ErrInvalidRequest, Message: "bad summary request"})
		}
	}
	return p.capture.Stream(ctx, req)
}
