//go:build internal || ant

package tooldefs_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/pool"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/tooldefs"
)

// lazyTool is a deferred hand-written tool, so the pool has a deferred
// names list.
func lazyTool() runtime.Tool {
	return runtime.Define(runtime.Definition[struct{}]{
		Name:        "Lazy",
		Description: "Lazy is a deferred tool that does nothing.",
		Decode:      func(json.RawMessage) (struct{}, error) { return struct{}{}, nil },
		Call: func(context.Context, struct{}, *runtime.Call) (runtime.Result, error) {
			return runtime.Result{Content: []runtime.Block{runtime.TextBlock("lazy")}}, nil
		},
		ReadOnly: true, ShouldDefer: true,
	})
}

// internalSession opens a session of this variant's tools (plus extra)
// in dir, with the CLI's pool roles.
func internalSession(dir string, o session.Options, extra ...runtime.Tool) *session.Session {
	o.Dir, o.Home = dir, dir
	o.Tools = append(generated.AllBaseTools(), extra...)
	o.Pool = pool.Options{SearchTool: "ToolSearch"}
	s, err := session.Open(context.Background(), o)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(s.Close)
	return s
}

// execOne runs one call through s.Exec and returns its result event.
func execOne(ctx context.Context, s *session.Session, name, input string) orchestrate.Event {
	var got *orchestrate.Event
	for ev := range s.Exec(ctx, []orchestrate.ToolUse{{ID: "x1", Name: name, Input: json.RawMessage(input)}}) {
		if ev.Kind == orchestrate.EventResult {
			got = &ev
		}
	}
	Expect(got).NotTo(BeNil())
	return *got
}

var _ = Describe("CtxInspect (internal variants)", func() {
	var dir string

	BeforeEach(func() {
		dir = GinkgoT().TempDir()
	})

	It("costs every part of the running conversation, largest first, with the pool's estimate", func() {
		big := filepath.Join(dir, "big.txt")
		Expect(os.WriteFile(big, []byte(strings.Repeat("a line of the big file to read\n", 600)), 0o644)).To(Succeed())
		sc, err := replay.Parse([]byte(fmt.Sprintf(`{"prompt":"go"}
{"blocks":[{"type":"text","text":"Reading."},{"type":"tool_use","id":"r1","name":"Read","input":{"file_path":%q}}]}
{"blocks":[{"type":"tool_use","id":"c1","name":"CtxInspect","input":{}}]}
{"blocks":[{"type":"tool_use","id":"c2","name":"CtxInspect","input":{"kind":"tools","limit":2}}]}
{"blocks":[{"type":"text","text":"done"}]}`, big)))
		Expect(err).NotTo(HaveOccurred())
		s := internalSession(dir, session.Options{System: "be brief", Provider: replay.New(sc, replay.Options{})}, lazyTool())

		results := map[string]runtime.Result{}
		for ev := range s.Run(context.Background(), "go") {
			if ev.Kind == agent.EventToolResult {
				results[ev.Call.ID] = ev.Call.Result
			}
		}
		Expect(results["r1"].IsError).To(BeFalse(), results["r1"].Text())
		Expect(results["c1"].IsError).To(BeFalse(), results["c1"].Text())
		all, ok := results["c1"].Data.(tooldefs.CtxInspectOutput)
		Expect(ok).To(BeTrue())

		By("largest first: the Read result, with the estimate of its JSON")
		for i := 1; i < len(all.Parts); i++ {
			Expect(all.Parts[i-1].Tokens).To(BeNumerically(">=", all.Parts[i].Tokens))
		}
		msgs := s.Messages()
		raw, err := json.Marshal(msgs[2])
		Expect(err).NotTo(HaveOccurred())
		Expect(all.Parts[0]).To(Equal(tooldefs.CtxPart{Kind: tooldefs.CtxMessage, Name: "user", Index: 3, Turn: 2,
			Summary: all.Parts[0].Summary, Tokens: pool.EstimateText(string(raw))}))
		Expect(all.Parts[0].Summary).To(HavePrefix(`tool_result Read: "`))

		By("every message with its role, turn and summary; the running turn's message may not be complete yet")
		Expect(all.MessageCount).To(BeElementOf(3, 4))
		var first, second tooldefs.CtxPart
		for _, p := range all.Parts {
			switch {
			case p.Kind == tooldefs.CtxMessage && p.Index == 1:
				first = p
			case p.Kind == tooldefs.CtxMessage && p.Index == 2:
				second = p
			}
		}
		Expect([]any{first.Name, first.Turn, first.Summary}).To(Equal([]any{"user", 1, `"go"`}))
		Expect(second.Name).To(Equal("assistant"))
		Expect(second.Turn).To(Equal(1))
		Expect(second.Summary).To(HavePrefix(`"Reading."; tool_use Read {"file_path":`))

		By("the definitions sent, the deferred names and the system prompt, as the pool counts them")
		defs := s.Definitions()
		Expect(all.ToolCount).To(Equal(len(defs)))
		Expect(all.Tools).To(Equal(pool.EstimateTokens(defs...)))
		Expect(s.Pool().DeferredPrompt()).To(ContainSubstring("Lazy"))
		Expect(all.Deferred).To(Equal(pool.EstimateText(s.Pool().DeferredPrompt())))
		Expect(all.System).To(Equal(pool.EstimateText("be brief")))
		Expect(all.Total).To(Equal(all.Messages + all.Tools + all.Deferred + all.System))
		Expect(all.Matching).To(Equal(len(all.Parts)))

		By("saying that the numbers are estimates")
		text := results["c1"].Text()
		Expect(text).To(ContainSubstring("tokens are estimates"))
		Expect(text).To(ContainSubstring("message #3 user, turn 2: tool_result Read"))

		By("kind and limit filter the parts, not the totals")
		tools, ok := results["c2"].Data.(tooldefs.CtxInspectOutput)
		Expect(ok).To(BeTrue())
		Expect(tools.Parts).To(HaveLen(2))
		Expect(tools.Matching).To(Equal(len(defs) + 1))
		largest := 0
		for _, t := range defs {
			largest = max(largest, pool.EstimateTokens(t))
		}
		Expect(tools.Parts[0].Kind).To(Equal(tooldefs.CtxTool))
		Expect(tools.Parts[0].Tokens).To(Equal(largest))
		Expect(tools.Total).To(BeNumerically(">", all.Total), "the totals still count every message")
	})

	It("shows the system prompt alone, and no messages before the first run", func() {
		s := internalSession(dir, session.Options{System: "You are a test agent.\nBe brief."})
		ev := execOne(context.Background(), s, "CtxInspect", `{"kind":"system"}`)
		Expect(ev.Result.IsError).To(BeFalse(), ev.Result.Text())
		out := ev.Result.Data.(tooldefs.CtxInspectOutput)
		Expect(out.Parts).To(Equal([]tooldefs.CtxPart{{Kind: tooldefs.CtxSystem, Name: "system prompt",
			Summary: "You are a test agent. Be brief.", Tokens: pool.EstimateText("You are a test agent.\nBe brief.")}}))
		Expect(out.MessageCount).To(BeZero())
		Expect(out.Deferred).To(Equal(pool.EstimateText(s.Pool().DeferredPrompt())), "the deferred names (EnterWorktree, ExitWorktree) are counted apart")

		ev = execOne(context.Background(), s, "CtxInspect", `{"kind":"messages"}`)
		Expect(ev.Result.Data.(tooldefs.CtxInspectOutput).Parts).To(BeEmpty())
	})

	It("is read-only and safe beside other calls, so plan mode and read-only agents may use it", func() {
		tool := runtime.Lookup(generated.AllBaseTools(), "CtxInspect")
		in, err := tool.Decode(json.RawMessage(`{"limit":3}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(tool.IsReadOnly(in)).To(BeTrue())
		Expect(tool.IsConcurrencySafe(in)).To(BeTrue())
		s := internalSession(dir, session.Options{Permissions: permission.Sources{Mode: permission.ModePlan}})
		Expect(execOne(context.Background(), s, "CtxInspect", `{}`).Result.IsError).To(BeFalse())
	})

	It("refuses bad filters before running, and says it needs a session", func() {
		tool := runtime.Lookup(generated.AllBaseTools(), "CtxInspect")
		_, err := tool.Decode(json.RawMessage(`{"kind":"files"}`))
		Expect(err).To(MatchError(ContainSubstring("kind")))
		_, err = tool.Decode(json.RawMessage(`{"limit":0}`))
		Expect(err).To(MatchError(ContainSubstring("limit")))
		in, err := tool.Decode(json.RawMessage(`{}`))
		Expect(err).NotTo(HaveOccurred())
		_, err = tool.Call(context.Background(), in, runtime.NewCall("c", runtime.NewToolContext(dir), nil))
		Expect(err).To(MatchError(ContainSubstring("needs a session")))
	})
})
