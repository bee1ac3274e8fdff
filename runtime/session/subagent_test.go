package session_test

import (
	"context"
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// writer is a tool that is never read-only.
func writer() runtime.Tool {
	return runtime.Define(runtime.Definition[struct{}]{
		Name:        "Writer",
		Description: "Writer pretends to change things.",
		Decode:      func(json.RawMessage) (struct{}, error) { return struct{}{}, nil },
		Call: func(context.Context, struct{}, *runtime.Call) (runtime.Result, error) {
			return runtime.Result{Content: []runtime.Block{runtime.TextBlock("wrote")}}, nil
		},
	})
}

var _ = Describe("Subagent", func() {
	var (
		dir string
		ctx context.Context
	)
	BeforeEach(func() {
		DeferCleanup(tooltest.LeakCheck(GinkgoT()))
		dir = GinkgoT().TempDir()
		ctx = context.Background()
	})
	open := func(script string) *session.Session {
		sc, err := replay.Parse([]byte(script))
		Expect(err).NotTo(HaveOccurred())
		s, err := session.Open(ctx, session.Options{Dir: dir, Home: dir, ID: "parent-id",
			Tools: []runtime.Tool{echo(), writer()}, Provider: replay.New(sc, replay.Options{})})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		return s
	}

	It("fits the child's tool descriptions to its tools: what names a tool it lacks is dropped", func() {
		pointer := runtime.WithDescription(echo(), "Echo repeats text. To change things, use Writer.")
		sc, err := replay.Parse([]byte(`{"blocks":[{"type":"text","text":"parent"}]}
{"agent":"call_1","blocks":[{"type":"text","text":"child"}]}`))
		Expect(err).NotTo(HaveOccurred())
		s, err := session.Open(ctx, session.Options{Dir: dir, Home: dir,
			Tools: []runtime.Tool{pointer, writer()}, Provider: replay.New(sc, replay.Options{})})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		Expect(runtime.Lookup(s.Tools(), "Echo").Description()).To(Equal("Echo repeats text. To change things, use Writer."))
		child, err := s.Subagent(s.ToolContext(), agent.SubagentOptions{ID: "call_1", Label: "reader",
			Tools: func(t runtime.Tool) bool { return t.Name() == "Echo" }})
		Expect(err).NotTo(HaveOccurred())
		defer child.Close()
		Expect(runtime.Lookup(child.Tools(), "Echo").Description()).To(Equal("Echo repeats text."))
	})

	It("opens a session of its own: filtered tools, its own ToolContext and messages, the parent's ID", func() {
		s := open(`{"blocks":[{"type":"text","text":"parent"}]}
{"agent":"call_1","blocks":[{"type":"tool_use","id":"c1","name":"Echo","input":{"text":"hi"}}]}
{"agent":"call_1","blocks":[{"type":"text","text":"child done"}]}`)
		info, err := runtime.Need[runtime.SessionInfo](s.ToolContext(), "the spec")
		Expect(err).NotTo(HaveOccurred())
		Expect(info.IsSubagent()).To(BeFalse())

		child, err := s.Subagent(s.ToolContext(), agent.SubagentOptions{ID: "call_1", Label: "test agent",
			Tools: func(t runtime.Tool) bool { return t.Name() == "Echo" }, System: "be a child"})
		Expect(err).NotTo(HaveOccurred())
		defer child.Close()
		Expect(child.ID()).To(Equal("parent-id"))
		Expect(child.System()).To(Equal("be a child"))
		Expect(names(child.Tools())).To(Equal([]string{"Echo"}))
		Expect(child.ToolContext()).NotTo(BeIdenticalTo(s.ToolContext()))
		Expect(child.ToolContext().FileState).NotTo(BeIdenticalTo(s.ToolContext().FileState))
		me, err := runtime.Need[runtime.SessionInfo](child.ToolContext(), "the spec")
		Expect(err).NotTo(HaveOccurred())
		Expect(me.IsSubagent()).To(BeTrue(), "the child's capabilities are its own, not the parent's it inherited")
		Expect(me.Dir()).To(Equal(child.Dir()))
		hist, err := runtime.Need[agent.History](child.ToolContext(), "the spec")
		Expect(err).NotTo(HaveOccurred())
		Expect(hist.BaseSystem()).To(Equal("be a child"))

		var parents []string
		var out *agent.Outcome
		for ev := range child.Run(ctx, "go") {
			parents = append(parents, ev.ParentToolUseID)
			if ev.Kind == agent.EventDone {
				out = ev.Outcome
			}
		}
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		Expect(out.Text).To(Equal("child done"))
		Expect(parents).To(HaveEach("call_1"))
		Expect(child.Messages()).To(HaveLen(4))
		Expect(s.Messages()).To(BeEmpty(), "the parent's conversation is untouched")

		_, err = child.Subagent(child.ToolContext(), agent.SubagentOptions{ID: "x"})
		Expect(err).To(MatchError(agent.ErrNestedSubagent))
		subs, err := runtime.Need[agent.Subagents](child.ToolContext(), "the spec")
		Expect(err).NotTo(HaveOccurred())
		_, err = subs.StartSubagent(nil, agent.SubagentOptions{ID: "x"})
		Expect(err).To(MatchError(agent.ErrNestedSubagent))
	})

	It("denies a read-only sub-agent's calls that are not read-only, whatever the mode", func() {
		s := open(`{"blocks":[{"type":"text","text":"parent"}]}
{"agent":"ro","blocks":[{"type":"text","text":"unused"}]}`)
		child, err := s.Subagent(nil, agent.SubagentOptions{ID: "ro", Label: "Explore agent (x)", ReadOnly: true})
		Expect(err).NotTo(HaveOccurred())
		defer child.Close()
		s.Engine().SetMode("bypassPermissions")
		var texts []string
		for ev := range child.Exec(ctx, []orchestrate.ToolUse{
			{ID: "w", Name: "Writer", Input: json.RawMessage(`{}`)},
			{ID: "e", Name: "Echo", Input: json.RawMessage(`{"text":"ok"}`)},
		}) {
			if ev.Kind == orchestrate.EventResult {
				texts = append(texts, ev.Result.Text())
			}
		}
		Expect(texts[0]).To(ContainSubstring("Explore agent (x) is read-only"))
		Expect(texts[1]).To(Equal("echo: ok"))
	})

	It("keeps the structured answer's tool (JSONSchema) to the main conversation", func() {
		sc, err := replay.Parse([]byte(`{"blocks":[{"type":"text","text":"parent"}]}
{"agent":"sub","blocks":[{"type":"text","text":"unused"}]}`))
		Expect(err).NotTo(HaveOccurred())
		s, err := session.Open(ctx, session.Options{Dir: dir, Home: dir, Tools: []runtime.Tool{echo()}, Provider: replay.New(sc, replay.Options{}),
			JSONSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		names := func(ts []runtime.Tool) (out []string) {
			for _, t := range ts {
				out = append(out, t.Name())
			}
			return out
		}
		Expect(names(s.Tools())).To(ContainElements("Echo", "StructuredOutput"))
		child, err := s.Subagent(nil, agent.SubagentOptions{ID: "sub", Label: "sub"})
		Expect(err).NotTo(HaveOccurred())
		defer child.Close()
		Expect(names(child.Tools())).To(Equal([]string{"Echo"}))
	})

	It("refuses a JSONSchema it cannot use, saying why", func() {
		_, err := session.Open(ctx, session.Options{Dir: dir, Home: dir, JSONSchema: json.RawMessage(`{"type":"array"}`)})
		Expect(err).To(MatchError(ContainSubstring("must describe an object")))
	})

	It("fails clearly when the provider has no script for the sub-agent", func() {
		s := open(`{"blocks":[{"type":"text","text":"parent"}]}`)
		_, err := s.Subagent(nil, agent.SubagentOptions{ID: "unscripted"})
		Expect(err).To(MatchError(ContainSubstring("scripts no sub-agent for the Agent call unscripted")))
	})

	It("adds notices to the next request, and drops emitted events when no run is on", func() {
		s := open(`{"blocks":[{"type":"text","text":"first"}]}
{"blocks":[{"type":"text","text":"second"}]}`)
		subs, err := runtime.Need[agent.Subagents](s.ToolContext(), "the spec")
		Expect(err).NotTo(HaveOccurred())
		subs.Emit(agent.Event{Kind: agent.EventText, Text: "nobody listens"}) // must not block
		for range s.Run(ctx, "one") {
		}
		notices, err := runtime.Need[runtime.Conversation](s.ToolContext(), "the spec")
		Expect(err).NotTo(HaveOccurred())
		notices.Notify("<task-notification>done</task-notification>")
		for range s.Run(ctx, "two") {
		}
		msgs := s.Messages()
		Expect(msgs).To(HaveLen(4))
		Expect(msgs[2].Content).To(Equal([]provider.Block{provider.Text("two"), provider.Text("<task-notification>done</task-notification>")}))
		Expect(msgs[0].Content).To(HaveLen(1), "earlier messages stay as they were")
	})
})

func names(tools []runtime.Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name())
	}
	return out
}
