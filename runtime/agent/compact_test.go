package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"os"
	"path/filepath"
	"slices"
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

// capture is a provider that keeps every request it is sent.
type capture struct {
	provider.Provider
	mu   sync.Mutex
	reqs []provider.Request
	// on, if set, is called with each request before it is answered.
	on func(req provider.Request)
}

func (c *capture) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Event, error] {
	c.mu.Lock()
	req.Messages = slices.Clone(req.Messages)
	c.reqs = append(c.reqs, req)
	on := c.on
	c.mu.Unlock()
	if on != nil {
		on(req)
	}
	return c.Provider.Stream(ctx, req)
}

func (c *capture) requests() []provider.Request {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.reqs)
}

// hookLog is a CompactHooks that records its calls.
type hookLog struct {
	mu    sync.Mutex
	calls []string
	block error
	add   string
}

func (h *hookLog) PreCompact(_ context.Context, trigger agent.CompactTrigger, instructions string) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls = append(h.calls, "pre:"+string(trigger)+":"+instructions)
	if h.block != nil {
		return "", h.block
	}
	return strings.TrimSpace(instructions + " " + h.add), nil
}

func (h *hookLog) PostCompact(_ context.Context, trigger agent.CompactTrigger, summary string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls = append(h.calls, "post:"+string(trigger)+":"+summary)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func textOf(m provider.Message) string {
	var b strings.Builder
	for _, bl := range m.Content {
		b.WriteString(bl.Text)
	}
	return b.String()
}

var _ = Describe("compaction", func() {
	var (
		rec   *recorder
		hooks *hookLog
		model *capture
		tools []runtime.Tool
	)

	BeforeEach(func() {
		rec = &recorder{}
		hooks = &hookLog{}
		tools = []runtime.Tool{&tooltest.Sim{ToolName: "Read", Safe: true, ReadOnly: true}}
	})

	start := func(src string, policy agent.ContextPolicy) *agent.Agent {
		sc, err := replay.Parse([]byte(src))
		Expect(err).NotTo(HaveOccurred())
		model = &capture{Provider: replay.New(sc, replay.Options{})}
		return agent.New(agent.Config{Provider: model, Tools: agent.List(tools), Observer: rec.observe,
			Context: policy, Compaction: hooks}, runtime.NewToolContext(GinkgoT().TempDir()))
	}

	It("computes Claude Code's auto-compact threshold", func() {
		Expect(agent.AutoCompactThreshold(200_000, 0)).To(Equal(167_000))
		Expect(agent.AutoCompactThreshold(200_000, 50)).To(Equal(90_000))
		Expect(agent.AutoCompactThreshold(200_000, 95)).To(Equal(167_000), "an override is never later than the default")
		Expect(agent.AutoCompactThreshold(1_000_000, 0)).To(Equal(967_000))
		Expect(provider.ContextWindow("anthropic:claude-sonnet-4-5")).To(Equal(200_000))
		Expect(provider.ContextWindow("anthropic:claude-sonnet-4-5[1m]")).To(Equal(1_000_000))
		Expect(provider.ContextWindow("openai:gpt-4.1")).To(Equal(1_047_576))
		Expect(provider.ContextWindow("openai:some-local-model")).To(Equal(provider.DefaultContextWindow))
	})

	It("compacts before the request once the usage reaches the threshold, keeping a tail whose tool_uses all have results", func() {
		ag := start(`{"prompt":"read both files"}
{"blocks":[{"type":"tool_use","id":"r1","name":"Read","input":{"output":"first file"}}],"usage":{"input_tokens":1000,"output_tokens":50}}
{"blocks":[{"type":"text","text":"now the second"},{"type":"tool_use","id":"r2","name":"Read","input":{"output":"second file"}}],"usage":{"input_tokens":20000,"cache_read_input_tokens":150000,"output_tokens":100}}
{"blocks":[{"type":"text","text":"<analysis>went through it</analysis>\n<summary>The user asked to read both files; r1 read the first.</summary>"}]}
{"blocks":[{"type":"text","text":"both read"}]}`, agent.ContextPolicy{Threshold: agent.AutoCompactThreshold(200_000, 0)})
		out := ag.Run(context.Background(), "go")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.Text).To(Equal("both read"))

		reqs := model.requests()
		Expect(reqs).To(HaveLen(4))
		// The third request is the summary's: the history up to the kept
		// tail, with the compaction prompt appended to its last user
		// message.
		sum := reqs[2]
		Expect(sum.System).To(ContainSubstring("summarise a coding session"))
		Expect(sum.Messages).To(HaveLen(3))
		Expect(textOf(sum.Messages[2])).To(ContainSubstring("write a detailed summary"))
		Expect(sum.Tools).NotTo(BeEmpty(), "tool_use blocks in a request need the tool definitions")
		checkPairing(sum.Messages)

		// The next request is the summary plus the kept tail.
		next := reqs[3].Messages
		Expect(next).To(HaveLen(3))
		Expect(next[0].Role).To(Equal(provider.User))
		Expect(textOf(next[0])).To(ContainSubstring("<summary>\nThe user asked to read both files; r1 read the first.\n</summary>"))
		Expect(textOf(next[0])).NotTo(ContainSubstring("went through it"))
		Expect(next[1].Role).To(Equal(provider.Assistant))
		Expect(next[1].ToolUses()[0].ID).To(Equal("r2"))
		Expect(next[2].Content[0].ToolUseID).To(Equal("r2"))
		checkPairing(next)
		checkPairing(ag.Messages())

		Expect(hooks.calls).To(Equal([]string{"pre:auto:", "post:auto:The user asked to read both files; r1 read the first."}))
		ev := rec.kinds(agent.EventCompact)
		Expect(ev).To(HaveLen(1))
		Expect(ev[0].Compact.Trigger).To(Equal(agent.CompactAuto))
		Expect(ev[0].Compact.PreTokens).To(BeNumerically(">=", 170_100))
		Expect(ev[0].Compact.Summarized).To(Equal(3))
		Expect(ev[0].Compact.Kept).To(Equal(2))
		Expect(ag.ContextTokens()).To(BeNumerically("<", 1000))
	})

	It("keeps no tail when the recent messages are too large, and says to go on", func() {
		big := strings.Repeat("x", 40_000)
		ag := start(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"r1","name":"Read","input":{"output":"small"}}]}
{"blocks":[{"type":"tool_use","id":"r2","name":"Read","input":{"output":"`+big+`"}}],"usage":{"input_tokens":190000,"output_tokens":10}}
{"blocks":[{"type":"text","text":"<summary>read r1 and r2</summary>"}]}
{"blocks":[{"type":"text","text":"done"}]}`, agent.ContextPolicy{Threshold: 100_000, KeepTokens: 1000})
		out := ag.Run(context.Background(), "go")
		Expect(out.Err).NotTo(HaveOccurred())
		next := model.requests()[3].Messages
		Expect(next).To(HaveLen(1))
		Expect(textOf(next[0])).To(ContainSubstring("read r1 and r2"))
		Expect(textOf(next[0])).To(ContainSubstring("without asking the user any further questions"))
		Expect(textOf(next[0])).NotTo(ContainSubstring(big))
	})

	It("does not compact below the threshold, nor with none", func() {
		ag := start(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"r1","name":"Read","input":{"output":"a"}}],"usage":{"input_tokens":150000,"output_tokens":10}}
{"blocks":[{"type":"text","text":"done"}],"usage":{"input_tokens":150100,"output_tokens":5}}`, agent.ContextPolicy{Threshold: 167_000})
		Expect(ag.Run(context.Background(), "go").Err).NotTo(HaveOccurred())
		Expect(model.requests()).To(HaveLen(2))
		Expect(rec.kinds(agent.EventCompact)).To(BeEmpty())
		Expect(ag.ContextTokens()).To(BeNumerically(">=", 150_105))
	})

	It("compacts on demand with the user's instructions, the hooks adding theirs", func() {
		hooks.add = "and the hook's"
		ag := start(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"r1","name":"Read","input":{"output":"a"}}]}
{"blocks":[{"type":"text","text":"read it"}]}
{"blocks":[{"type":"text","text":"<summary>manual summary</summary>"}]}
{"blocks":[{"type":"text","text":"after"}]}`, agent.ContextPolicy{})
		Expect(ag.Run(context.Background(), "go").Err).NotTo(HaveOccurred())
		info, err := ag.Compact(context.Background(), "focus on the reads")
		Expect(err).NotTo(HaveOccurred())
		Expect(info.Trigger).To(Equal(agent.CompactManual))
		Expect(info.Summary).To(Equal("manual summary"))
		sum := model.requests()[2]
		Expect(textOf(sum.Messages[len(sum.Messages)-1])).To(ContainSubstring("focus on the reads and the hook's"))
		Expect(hooks.calls[0]).To(Equal("pre:manual:focus on the reads"))

		msgs := ag.Messages()
		Expect(textOf(msgs[0])).To(ContainSubstring("manual summary"))
		Expect(msgs[len(msgs)-1].Role).To(Equal(provider.Assistant))
		checkPairing(msgs)
		out := ag.Run(context.Background(), "and now?")
		Expect(out.Text).To(Equal("after"))
		last := model.requests()[3].Messages
		Expect(textOf(last[0])).To(ContainSubstring("manual summary"))
		Expect(textOf(last[len(last)-1])).To(Equal("and now?"))
	})

	It("leaves the history alone when a PreCompact hook blocks, or there is nothing to summarise", func() {
		ag := start(`{"prompt":"go"}
{"blocks":[{"type":"text","text":"hello"}]}`, agent.ContextPolicy{})
		_, err := ag.Compact(context.Background(), "")
		Expect(err).To(MatchError(agent.ErrNothingToCompact))
		Expect(ag.Run(context.Background(), "go").Err).NotTo(HaveOccurred())
		hooks.block = errors.New("not now")
		before := ag.Messages()
		_, err = ag.Compact(context.Background(), "")
		Expect(err).To(MatchError("not now"))
		Expect(ag.Messages()).To(Equal(before))
		Expect(model.requests()).To(HaveLen(1))
	})

	It("writes a result above its tool's cap to a file and gives the model a preview and the path", func() {
		dir := filepath.Join(GinkgoT().TempDir(), "tool-results")
		big := strings.Repeat("0123456789\n", 20_000) // 220,000 characters
		sc, err := replay.Parse([]byte(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"toolu_big","name":"Read","input":{"output":` + jsonString(big) + `}},{"type":"tool_use","id":"toolu_small","name":"Read","input":{"output":"small"}}]}
{"blocks":[{"type":"text","text":"done"}]}`))
		Expect(err).NotTo(HaveOccurred())
		model = &capture{Provider: replay.New(sc, replay.Options{})}
		ag := agent.New(agent.Config{Provider: model, Tools: agent.List(tools), Observer: rec.observe,
			LargeResults: &agent.LargeResults{Dir: dir}}, runtime.NewToolContext(GinkgoT().TempDir()))
		Expect(ag.Run(context.Background(), "go").Err).NotTo(HaveOccurred())
		results := model.requests()[1].Messages[2].Content
		path := filepath.Join(dir, "toolu_big.txt")
		got := results[0].Content[0].Text
		Expect(got).To(HavePrefix("<persisted-output>\nOutput too large (214.8KB). Full output saved to: " + path + "\n\nPreview (first 2KB):\n0123456789\n"))
		Expect(got).To(HaveSuffix("\n...\n</persisted-output>"))
		Expect(len(got)).To(BeNumerically("<", 2300))
		Expect(os.ReadFile(path)).To(Equal([]byte(big)))
		Expect(results[1].Content[0].Text).To(Equal("small"))
	})

	It("takes each tool's own cap from its traits: a small one spills, a negative one never", func() {
		mk := func(name string, limit int) runtime.Tool {
			type in struct{}
			return runtime.Define(runtime.Definition[in]{
				Name: name, Description: name,
				Decode: func(json.RawMessage) (in, error) { return in{}, nil },
				Call: func(context.Context, in, *runtime.Call) (runtime.Result, error) {
					return runtime.Result{Content: []runtime.Block{runtime.TextBlock(strings.Repeat("z", 500))}}, nil
				},
				ReadOnly: true, ConcurrencySafe: true, MaxResultSizeChars: limit,
			})
		}
		dir := filepath.Join(GinkgoT().TempDir(), "out")
		sc, err := replay.Parse([]byte(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"a","name":"Small","input":{}},{"type":"tool_use","id":"b","name":"Never","input":{}}]}
{"blocks":[{"type":"text","text":"done"}]}`))
		Expect(err).NotTo(HaveOccurred())
		model = &capture{Provider: replay.New(sc, replay.Options{})}
		ag := agent.New(agent.Config{Provider: model, Tools: agent.List{mk("Small", 100), mk("Never", -1)},
			LargeResults: &agent.LargeResults{Dir: dir, PreviewChars: 50}}, runtime.NewToolContext(GinkgoT().TempDir()))
		Expect(ag.Run(context.Background(), "go").Err).NotTo(HaveOccurred())
		results := model.requests()[1].Messages[2].Content
		Expect(results[0].Content[0].Text).To(Equal("<persisted-output>\nOutput too large (500B). Full output saved to: " +
			filepath.Join(dir, "a.txt") + "\n\nPreview (first 50B):\n" + strings.Repeat("z", 50) + "\n...\n</persisted-output>"))
		Expect(results[1].Content[0].Text).To(Equal(strings.Repeat("z", 500)))
		Expect(filepath.Join(dir, "b.txt")).NotTo(BeAnExistingFile())
	})

	It("stops at an interrupt during the summary request, the history as it was", func() {
		sc, err := replay.Parse([]byte(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"r1","name":"Read","input":{"output":"a"}}]}
{"blocks":[{"type":"tool_use","id":"r2","name":"Read","input":{"output":"b"}}],"usage":{"input_tokens":190000,"output_tokens":10}}
{"blocks":[{"type":"text","text":"<summary>never</summary>","delay_ms":600000}]}
{"blocks":[{"type":"text","text":"not asked"}]}`))
		Expect(err).NotTo(HaveOccurred())
		model = &capture{Provider: replay.New(sc, replay.Options{Speed: 1})}
		var ag *agent.Agent
		model.on = func(req provider.Request) {
			if strings.Contains(req.System, "summarise a coding session") {
				go ag.Interrupt()
			}
		}
		ag = agent.New(agent.Config{Provider: model, Tools: agent.List(tools), Observer: rec.observe,
			Context: agent.ContextPolicy{Threshold: 100_000}}, runtime.NewToolContext(GinkgoT().TempDir()))
		out := ag.Run(context.Background(), "go")
		Expect(out.Stop).To(Equal(agent.StopInterrupted))
		Expect(model.requests()).To(HaveLen(3), "no request after the interrupted summary")
		Expect(ag.Messages()).To(HaveLen(5))
		checkPairing(ag.Messages())
		Expect(rec.kinds(agent.EventCompact)).To(BeEmpty())
		Expect(rec.kinds(agent.EventInterrupted)).To(HaveLen(1))
	})
})
