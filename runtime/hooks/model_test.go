package hooks_test

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2/option"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/hooks"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/anthropic"
	"github.com/agentcore/agentcore/runtime/provider/providertest"
)

// answering is a Messages API script whose answer is text.
func answering(text string) providertest.Script {
	return func(s *providertest.Stream) {
		s.Start()
		s.Text(0, text)
		s.Stop("end_turn")
	}
}

var _ = Describe("prompt hooks (a loopback Messages API answers)", func() {
	var (
		dir string
		ctx context.Context
		srv *providertest.Server
	)
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		ctx = context.Background()
	})
	// model serves scripts on loopback and returns the Anthropic
	// provider talking to it.
	model := func(scripts ...providertest.Script) provider.Provider {
		srv = providertest.NewServer(scripts...)
		DeferCleanup(srv.Close)
		return anthropic.NewWithOptions(anthropic.Options{Model: "fake-model", APIKey: "k",
			RequestOptions: []option.RequestOption{option.WithBaseURL(srv.URL())}})
	}
	runner := func(ev hooks.Event, h hooks.Hook, m provider.Provider) *hooks.Runner {
		return &hooks.Runner{Config: hooks.Config{ev: {{Hooks: []hooks.Hook{h}}}}, Dir: dir, SessionID: "s-1",
			Mode: func() string { return "default" }, Model: m}
	}
	bash := hooks.Input{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf build"}, "tool_use_id": "toolu_1"}
	// userText is the text of the only message of request n.
	userText := func(n int) string {
		GinkgoHelper()
		reqs := srv.Requests()
		Expect(len(reqs)).To(BeNumerically(">", n))
		msgs, _ := reqs[n].Body["messages"].([]any)
		Expect(msgs).To(HaveLen(1))
		m := msgs[0].(map[string]any)
		Expect(m["role"]).To(Equal("user"))
		var b strings.Builder
		for _, c := range m["content"].([]any) {
			b.WriteString(c.(map[string]any)["text"].(string))
		}
		return b.String()
	}

	It("sends the prompt with $ARGUMENTS replaced by the event's JSON and Claude Code's system prompt, without tools; ok:true lets the call go on", func() {
		r := runner(hooks.PreToolUse, hooks.Hook{Type: hooks.TypePrompt, Prompt: "Is this safe? $ARGUMENTS Answer in JSON."}, model(answering(`{"ok": true}`)))
		res := r.Run(ctx, hooks.PreToolUse, "Bash", bash)
		Expect(res.Ran).To(Equal(1))
		Expect(res.Decision).To(Equal(hooks.None))
		Expect(res.Messages).To(BeEmpty())

		body := srv.Requests()[0].Body
		Expect(body["system"]).To(ContainElement(HaveKeyWithValue("text", hooks.PromptSystem)))
		Expect(body).NotTo(HaveKey("tools"))
		text := userText(0)
		Expect(text).To(HavePrefix("Is this safe? {"))
		Expect(text).To(HaveSuffix("} Answer in JSON."))
		var in map[string]any
		Expect(json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimPrefix(text, "Is this safe? "), " Answer in JSON.")), &in)).To(Succeed())
		Expect(in).To(HaveKeyWithValue("hook_event_name", "PreToolUse"))
		Expect(in).To(HaveKeyWithValue("tool_name", "Bash"))
		Expect(in).To(HaveKeyWithValue("session_id", "s-1"))
		Expect(in["tool_input"]).To(HaveKeyWithValue("command", "rm -rf build"))
	})

	It("asks the session's model when the hook names a model the provider cannot switch to", func() {
		r := runner(hooks.PreToolUse, hooks.Hook{Type: hooks.TypePrompt, Prompt: "Safe? $ARGUMENTS", Model: "haiku"}, model(answering(`{"ok": false, "reason": "no"}`)))
		res := r.Run(ctx, hooks.PreToolUse, "Bash", bash)
		Expect(res.Decision).To(Equal(hooks.Deny))
		Expect(srv.Requests()[0].Body).To(HaveKeyWithValue("model", "fake-model"))
	})

	It("appends the input after ARGUMENTS: when the prompt has no $ARGUMENTS", func() {
		r := runner(hooks.Stop, hooks.Hook{Type: hooks.TypePrompt, Prompt: "Are all tasks done?"}, model(answering(`{"ok": true}`)))
		r.Run(ctx, hooks.Stop, "", hooks.Input{"stop_hook_active": false})
		text := userText(0)
		Expect(text).To(HavePrefix("Are all tasks done?\n\nARGUMENTS: {"))
		Expect(text).To(ContainSubstring(`"hook_event_name":"Stop"`))
	})

	DescribeTable("maps ok:false per event as Claude Code does",
		func(ev hooks.Event, continueOnBlock bool, decision hooks.Decision, stop bool) {
			h := hooks.Hook{Type: hooks.TypePrompt, Prompt: "Check $ARGUMENTS", ContinueOnBlock: continueOnBlock}
			r := runner(ev, h, model(answering("```json\n{\"ok\": false, \"reason\": \"tests still fail\"}\n```")))
			res := r.Run(ctx, ev, "Bash", bash)
			Expect(res.Decision).To(Equal(decision))
			Expect(res.Stop).To(Equal(stop))
			if decision == hooks.Deny {
				Expect(res.Reason).To(Equal("Prompt hook condition was not met: tests still fail"))
			}
			if stop {
				Expect(res.StopReason).To(Equal("tests still fail"))
			}
		},
		Entry("PreToolUse denies the call", hooks.PreToolUse, false, hooks.Deny, false),
		Entry("Stop makes the model go on with the reason", hooks.Stop, false, hooks.Deny, false),
		Entry("SubagentStop too", hooks.SubagentStop, false, hooks.Deny, false),
		Entry("UserPromptSubmit blocks the prompt", hooks.UserPromptSubmit, false, hooks.Deny, false),
		Entry("PostToolUse gives feedback and ends the turn", hooks.PostToolUse, false, hooks.Deny, true),
		Entry("PostToolUse with continueOnBlock only gives feedback", hooks.PostToolUse, true, hooks.Deny, false),
		Entry("PostToolUseFailure gives feedback", hooks.PostToolUseFailure, false, hooks.Deny, false),
		Entry("PermissionRequest is not affected", hooks.PermissionRequest, false, hooks.None, false),
	)

	DescribeTable("a malformed answer blocks nothing and says why",
		func(answer, want string) {
			r := runner(hooks.PreToolUse, hooks.Hook{Type: hooks.TypePrompt, Prompt: "Check $ARGUMENTS"}, model(answering(answer)))
			res := r.Run(ctx, hooks.PreToolUse, "Bash", bash)
			Expect(res.Ran).To(Equal(1))
			Expect(res.Decision).To(Equal(hooks.None))
			Expect(res.Messages).To(ConsistOf(And(ContainSubstring("PreToolUse prompt hook"), ContainSubstring(want))))
		},
		Entry("prose", "I think this is fine.", "is not JSON"),
		Entry("no ok", `{"reason": "looks bad"}`, `has no boolean "ok"`),
		Entry("ok not a boolean", `{"ok": "false"}`, "is not JSON"),
		Entry("reason not a string", `{"ok": false, "reason": 3}`, `"reason" that is not a string`),
	)

	It("is killed at its timeout, blocking nothing", func() {
		r := runner(hooks.PreToolUse, hooks.Hook{Type: hooks.TypePrompt, Prompt: "Check $ARGUMENTS", Timeout: 0.5},
			model(func(s *providertest.Stream) { s.Hang() }))
		start := time.Now()
		res := r.Run(ctx, hooks.PreToolUse, "Bash", bash)
		Expect(time.Since(start)).To(BeNumerically("<", 20*time.Second))
		Expect(res.Decision).To(Equal(hooks.None))
		Expect(res.Messages).To(ConsistOf(ContainSubstring("timed out after 500ms")))
	})

	It("fails without blocking when the model answers with an error, or there is no model", func() {
		r := runner(hooks.PreToolUse, hooks.Hook{Type: hooks.TypePrompt, Prompt: "Check"},
			model(func(s *providertest.Stream) { s.Error(400, "invalid_request_error", "bad model") }))
		res := r.Run(ctx, hooks.PreToolUse, "Bash", bash)
		Expect(res.Decision).To(Equal(hooks.None))
		Expect(res.Messages).To(ConsistOf(ContainSubstring("bad model")))

		res = runner(hooks.PreToolUse, hooks.Hook{Type: hooks.TypePrompt, Prompt: "Check"}, nil).Run(ctx, hooks.PreToolUse, "Bash", bash)
		Expect(res.Decision).To(Equal(hooks.None))
		Expect(res.Messages).To(ConsistOf(ContainSubstring("no model to ask")))
	})

	It("does not run on events Claude Code runs no prompt hooks for", func() {
		r := runner(hooks.SessionStart, hooks.Hook{Type: hooks.TypePrompt, Prompt: "Check"}, model())
		res := r.Run(ctx, hooks.SessionStart, "startup", hooks.Input{"source": "startup"})
		Expect(res.Ran).To(Equal(0))
		Expect(res.Messages).To(ConsistOf(ContainSubstring("prompt hooks run only on")))
		Expect(srv.Requests()).To(BeEmpty())
	})

	It("survives an agent runner that panics, blocking nothing", func() {
		r := runner(hooks.PreToolUse, hooks.Hook{Type: hooks.TypeAgent, Prompt: "Check"}, nil)
		r.Agent = func(context.Context, hooks.Hook, string) (json.RawMessage, error) { panic("boom") }
		res := r.Run(ctx, hooks.PreToolUse, "Bash", bash)
		Expect(res.Decision).To(Equal(hooks.None))
		Expect(res.Messages).To(ConsistOf(ContainSubstring("panic: boom")))
	})
})
