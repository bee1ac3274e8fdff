package agent_test

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
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

// cut closes the connection under the response, as a network failure or a
// dying proxy would: what was flushed has arrived, the rest never will.
func (s *sse) cut() {
	conn, _, err := s.w.(http.Hijacker).Hijack()
	if err != nil {
		panic(err)
	}
	_ = conn.Close()
}

var _ = Describe("a model stream cut in the middle of a tool_use", Label("faults"), func() {
	It("ends the turn with a clear error, runs no half call, and the session takes the next prompt", func() {
		var ran atomic.Int32
		write := &tooltest.Sim{ToolName: "Write", OnCall: func(context.Context, *tooltest.Input, *runtime.Call) (runtime.Result, error) {
			ran.Add(1)
			return runtime.Result{Content: []runtime.Block{runtime.TextBlock("wrote")}}, nil
		}}
		rec := &recorder{}
		tc := runtime.NewToolContext(GinkgoT().TempDir())
		GinkgoT().Setenv("ANTHROPIC_API_KEY", "test")
		api := newFakeAPI(
			func(s *sse, _ map[string]any) {
				s.start()
				s.text("Writing the file. ")
				// Half of the input, flushed as content_block_delta
				// events, then the connection goes.
				s.toolStart("toolu_cut", "Write", `{"summary":"notes.txt","output":"half of the con`, 9)
				s.cut()
			},
			func(s *sse, _ map[string]any) {
				s.start()
				s.text("Starting again.")
				s.stop("end_turn")
			},
		)
		DeferCleanup(api.Close)
		GinkgoT().Setenv("ANTHROPIC_BASE_URL", api.URL())
		p := anthropic.New("fake-model", option.WithMaxRetries(0))
		ag := agent.New(agent.Config{Provider: p, Tools: agent.List([]runtime.Tool{write}), System: "be brief", Observer: rec.observe}, tc)

		out := ag.Run(context.Background(), "write notes.txt")
		Expect(out.Stop).To(Equal(agent.StopError))
		Expect(out.Err).To(HaveOccurred())
		var apiErr *provider.APIError
		Expect(errors.As(out.Err, &apiErr)).To(BeTrue(), "%v", out.Err)
		Expect(apiErr.Kind).To(Equal(provider.ErrStream))
		Expect(apiErr.Retryable()).To(BeTrue())
		Expect(out.Err).To(MatchError("anthropic: stream failed: the connection closed in the middle of the response (unexpected EOF): the response broke off: try again"))
		Expect(ran.Load()).To(BeZero(), "the half tool call must not run")
		Expect(rec.kinds(agent.EventToolStart)).To(BeEmpty())
		Expect(ag.Messages()).To(HaveLen(1), "only the prompt stays: the cut turn is dropped")

		out = ag.Run(context.Background(), "try again")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		Expect(out.Text).To(Equal("Starting again."))
		reqs := api.Requests()
		Expect(reqs).To(HaveLen(2))
		Expect(pairingProblems(reqs[1])).To(BeEmpty())
		msgs := messages(reqs[1])
		Expect(msgs).To(HaveLen(2))
		Expect(msgs[0]["role"]).To(Equal(string(provider.User)))
		Expect(msgs[1]["role"]).To(Equal(string(provider.User)))
		Expect(ran.Load()).To(BeZero())
	})
})

var _ = Describe("a model stream cut after a tool call has started", Label("faults"), func() {
	It("keeps the call that ran with its result, runs no half call, ends with the stream error, and the next request is valid", func() {
		var ran, halfRan atomic.Int32
		write := &tooltest.Sim{ToolName: "Write", OnCall: func(context.Context, *tooltest.Input, *runtime.Call) (runtime.Result, error) {
			ran.Add(1)
			return runtime.Result{Content: []runtime.Block{runtime.TextBlock("wrote a.txt")}}, nil
		}}
		bash := &tooltest.Sim{ToolName: "Bash", OnCall: func(context.Context, *tooltest.Input, *runtime.Call) (runtime.Result, error) {
			halfRan.Add(1)
			return runtime.Result{}, nil
		}}
		started := make(chan struct{})
		var once sync.Once
		rec := &recorder{on: func(ev agent.Event) {
			if ev.Kind == agent.EventToolStart {
				once.Do(func() { close(started) })
			}
		}}
		tc := runtime.NewToolContext(GinkgoT().TempDir())
		GinkgoT().Setenv("ANTHROPIC_API_KEY", "test")
		api := newFakeAPI(
			func(s *sse, _ map[string]any) {
				s.start()
				s.tool("toolu_a", "Write", `{"summary":"a.txt"}`)
				select { // the first call runs before the cut
				case <-started:
				case <-time.After(10 * time.Second):
				}
				s.toolStart("toolu_b", "Bash", `{"summary":"rm -rf bu`, 6)
				s.cut()
			},
			func(s *sse, _ map[string]any) {
				s.start()
				s.text("I see a.txt was written.")
				s.stop("end_turn")
			},
		)
		DeferCleanup(api.Close)
		GinkgoT().Setenv("ANTHROPIC_BASE_URL", api.URL())
		p := anthropic.New("fake-model", option.WithMaxRetries(0))
		ag := agent.New(agent.Config{Provider: p, Tools: agent.List([]runtime.Tool{write, bash}), System: "be brief", Observer: rec.observe}, tc)

		out := ag.Run(context.Background(), "write a.txt, then clean up")
		Expect(out.Stop).To(Equal(agent.StopError))
		var apiErr *provider.APIError
		Expect(errors.As(out.Err, &apiErr)).To(BeTrue(), "%v", out.Err)
		Expect(apiErr.Kind).To(Equal(provider.ErrStream))
		Expect(ran.Load()).To(Equal(int32(1)))
		Expect(halfRan.Load()).To(BeZero(), "the half tool call must not run")

		hist := ag.Messages()
		Expect(hist).To(HaveLen(3), "the prompt, what the model got to say, the result of what ran")
		uses := hist[1].ToolUses()
		Expect(uses).To(HaveLen(1))
		Expect(uses[0].ID).To(Equal("toolu_a"))
		Expect(hist[2].Content).To(HaveLen(2))
		Expect(hist[2].Content[0].ToolUseID).To(Equal("toolu_a"))
		Expect(hist[2].Content[0].IsError).To(BeFalse())
		Expect(hist[2].Content[1]).To(Equal(provider.Text(agent.StreamBrokenNotice)))

		out = ag.Run(context.Background(), "go on")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		reqs := api.Requests()
		Expect(reqs).To(HaveLen(2))
		Expect(pairingProblems(reqs[1])).To(BeEmpty())
		Expect(ran.Load()).To(Equal(int32(1)), "nothing ran twice")
	})
})
