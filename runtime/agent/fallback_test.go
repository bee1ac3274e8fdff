package agent_test

import (
	"context"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go/v2/option"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/provider/anthropic"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

var _ = Describe("the fallback model", func() {
	var (
		rec *recorder
		tc  *runtime.ToolContext
	)
	BeforeEach(func() {
		rec = &recorder{}
		tc = runtime.NewToolContext(GinkgoT().TempDir())
		GinkgoT().Setenv("ANTHROPIC_API_KEY", "test")
	})
	// overloadedMidStream streams a complete tool_use, then fails as the
	// API does when it is overloaded in the middle of a response. The
	// call is slow, so it is still running (its result not yielded) when
	// the error comes.
	overloadedMidStream := func(s *sse, _ map[string]any) {
		s.start()
		s.tool("toolu_lost", "Read", `{"summary":"a.go","output":"alpha","sleep_ms":1000}`)
		s.event("error", map[string]any{"type": "error", "error": map[string]any{"type": "overloaded_error", "message": "Overloaded"}})
	}
	answer := func(s *sse, _ map[string]any) {
		s.start()
		s.text("Done on the spare.")
		s.stop("end_turn")
	}
	newAgent := func(main, spare *fakeAPI) *agent.Agent {
		mainP := anthropic.New("main-model", option.WithBaseURL(main.URL()), option.WithMaxRetries(0))
		spareP := anthropic.New("spare-model", option.WithBaseURL(spare.URL()), option.WithMaxRetries(0))
		tools := []runtime.Tool{&tooltest.Sim{ToolName: "Read", Safe: true, ReadOnly: true}}
		// No retries: the main model's first failure goes to the
		// fallback (as when a provider had retried already).
		return agent.New(agent.Config{Provider: mainP, Fallback: spareP, Tools: agent.List(tools), Observer: rec.observe,
			Retry: agent.RetryPolicy{MaxRetries: -1}}, tc)
	}

	It("sends the failed turn to the fallback once, discarding the failed stream's calls, and keeps using it", func() {
		main := newFakeAPI(overloadedMidStream)
		spare := newFakeAPI(answer, answer)
		DeferCleanup(main.Close)
		DeferCleanup(spare.Close)
		ag := newAgent(main, spare)

		out := ag.Run(context.Background(), "read a")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		Expect(out.Text).To(Equal("Done on the spare."))
		Expect(out.Turns).To(Equal(1), "the retried request is the same turn")
		Expect(rec.kinds(agent.EventToolResult)).To(BeEmpty(), "the failed stream's call yields nothing")

		fb := rec.kinds(agent.EventFallback)
		Expect(fb).To(HaveLen(1))
		Expect(fb[0].Text).To(Equal("Switched to spare-model due to high demand for main-model"))
		Expect(fb[0].Fallback.From).To(Equal("anthropic:main-model"))
		Expect(fb[0].Fallback.To).To(Equal("anthropic:spare-model"))
		Expect(fb[0].Fallback.Trigger).To(Equal("overloaded"))

		reqs := spare.Requests()
		Expect(reqs).To(HaveLen(1))
		Expect(reqs[0]["model"]).To(Equal("spare-model"))
		Expect(messages(reqs[0])).To(HaveLen(1), "nothing of the failed turn is in the history")
		for _, m := range ag.Messages() {
			for _, b := range m.Content {
				Expect(b.ID).NotTo(Equal("toolu_lost"))
				Expect(b.ToolUseID).NotTo(Equal("toolu_lost"))
			}
		}

		Expect(ag.Run(context.Background(), "again").Err).NotTo(HaveOccurred())
		Expect(main.Requests()).To(HaveLen(1), "the next run goes to the fallback straight away")
		Expect(spare.Requests()).To(HaveLen(2))
	})

	It("keeps a started call that changed something and lets the fallback go on from its result", func() {
		writeThenOverloaded := func(s *sse, _ map[string]any) {
			s.start()
			s.tool("toolu_write", "Write", `{"summary":"a.go","output":"written"}`)
			s.event("error", map[string]any{"type": "error", "error": map[string]any{"type": "overloaded_error", "message": "Overloaded"}})
		}
		main := newFakeAPI(writeThenOverloaded)
		spare := newFakeAPI(answer)
		DeferCleanup(main.Close)
		DeferCleanup(spare.Close)
		mainP := anthropic.New("main-model", option.WithBaseURL(main.URL()), option.WithMaxRetries(0))
		spareP := anthropic.New("spare-model", option.WithBaseURL(spare.URL()), option.WithMaxRetries(0))
		tools := []runtime.Tool{&tooltest.Sim{ToolName: "Write"}}
		ag := agent.New(agent.Config{Provider: mainP, Fallback: spareP, Tools: agent.List(tools), Observer: rec.observe,
			Retry: agent.RetryPolicy{MaxRetries: -1}}, tc)

		out := ag.Run(context.Background(), "write a")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.Text).To(Equal("Done on the spare."))
		Expect(rec.kinds(agent.EventToolResult)).To(HaveLen(1), "the Write ran once and kept its result")
		Expect(rec.kinds(agent.EventFallback)).To(HaveLen(1))
		reqs := spare.Requests()
		Expect(reqs).To(HaveLen(1))
		msgs := messages(reqs[0])
		Expect(msgs).To(HaveLen(3), "prompt, the Write, its result: the fallback goes on from there")
		Expect(fmt.Sprint(msgs[2])).To(ContainSubstring("written"))
		Expect(fmt.Sprint(msgs[2])).To(ContainSubstring(agent.StreamBrokenNotice))
	})

	It("with retries, falls back after three overloaded answers in a row, as Claude Code does", func() {
		overloaded := func(s *sse, _ map[string]any) { s.fail(529, "overloaded_error", "Overloaded") }
		main := newFakeAPI(overloaded, overloaded, overloaded)
		spare := newFakeAPI(answer)
		DeferCleanup(main.Close)
		DeferCleanup(spare.Close)
		clock := newFakeClock()
		mainP := anthropic.New("main-model", option.WithBaseURL(main.URL()), option.WithMaxRetries(0))
		spareP := anthropic.New("spare-model", option.WithBaseURL(spare.URL()), option.WithMaxRetries(0))
		ag := agent.New(agent.Config{Provider: mainP, Fallback: spareP, Observer: rec.observe, Retry: clock.policy()}, tc)

		out := ag.Run(context.Background(), "hello")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.Text).To(Equal("Done on the spare."))
		Expect(main.Requests()).To(HaveLen(3))
		Expect(rec.kinds(agent.EventRetry)).To(HaveLen(2), "two retries, then the fallback")
		Expect(rec.kinds(agent.EventFallback)).To(HaveLen(1))
		Expect(spare.Requests()).To(HaveLen(1))
	})

	It("does not fall back on a failure that is the request's own (400)", func() {
		main := newFakeAPI() // no script: a 400
		spare := newFakeAPI(answer)
		DeferCleanup(main.Close)
		DeferCleanup(spare.Close)
		out := newAgent(main, spare).Run(context.Background(), "hello")
		Expect(out.Stop).To(Equal(agent.StopError))
		Expect(out.Err).To(MatchError(ContainSubstring("no script for request 1")))
		Expect(spare.Requests()).To(BeEmpty())
		Expect(rec.kinds(agent.EventFallback)).To(BeEmpty())
	})
})
