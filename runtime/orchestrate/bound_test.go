package orchestrate_test

import (
	"context"
	"encoding/json"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// One call, bound once: every stage of the pipeline sees the same
// runtime.Invocation, and the observer sees a call's life in order.
var _ = Describe("A call bound once", func() {
	var (
		ex   *orchestrate.Executor
		mu   sync.Mutex
		seen []orchestrate.Event
		invs []*runtime.Invocation
	)
	record := func(inv *runtime.Invocation) {
		mu.Lock()
		defer mu.Unlock()
		invs = append(invs, inv)
	}

	BeforeEach(func() {
		seen, invs = nil, nil
		ex = &orchestrate.Executor{
			Tools: []runtime.Tool{&tooltest.Sim{ToolName: "Sim", ToolAliases: []string{"Old"}, Safe: true, ReadOnly: true}},
			Observer: func(ev orchestrate.Event) {
				mu.Lock()
				defer mu.Unlock()
				seen = append(seen, ev)
			},
			PreToolUse: func(_ context.Context, inv *runtime.Invocation, _ *runtime.ToolContext) orchestrate.PreToolUseResult {
				record(inv)
				return orchestrate.PreToolUseResult{}
			},
			CanUseTool: func(_ context.Context, inv *runtime.Invocation, _ *runtime.ToolContext) runtime.PermissionDecision {
				record(inv)
				return runtime.PermissionDecision{Behavior: runtime.Allow}
			},
			PostToolUse: func(_ context.Context, inv *runtime.Invocation, _ runtime.Result, _ *runtime.ToolContext) orchestrate.PostToolUseResult {
				record(inv)
				return orchestrate.PostToolUseResult{}
			},
		}
	})

	It("hands the hooks, the permission check, the observer and the result the same Invocation", func() {
		raw := json.RawMessage(`{"summary": "a.txt",  "progress": 2}`)
		results, progress := collect(ex.RunTools(bg, []orchestrate.ToolUse{{ID: "c1", Name: "Old", Input: raw}}, newTC()))
		Expect(progress).To(BeEmpty(), "progress goes to the Observer only")
		Expect(results).To(HaveLen(1))
		inv := results[0].Invocation
		Expect(inv).NotTo(BeNil())
		Expect(inv.ID).To(Equal("c1"))
		Expect(inv.Name).To(Equal("Old"))
		Expect(inv.ToolName).To(Equal("Sim"))
		Expect(inv.Raw).To(Equal(raw), "the raw input as the model sent it, not re-encoded")
		Expect(inv.ConcurrencySafe).To(BeTrue())
		Expect(inv.ReadOnly).To(BeTrue())
		Expect(inv.Use).To(Equal("a.txt"))
		Expect(invs).To(HaveLen(3))
		for _, got := range invs {
			Expect(got).To(BeIdenticalTo(inv))
		}
		var kinds []orchestrate.EventKind
		for _, ev := range seen {
			kinds = append(kinds, ev.Kind)
			Expect(ev.Invocation).To(BeIdenticalTo(inv))
			Expect(ev.Raw).To(Equal(raw))
		}
		Expect(kinds).To(Equal([]orchestrate.EventKind{orchestrate.EventQueued, orchestrate.EventStart,
			orchestrate.EventProgress, orchestrate.EventProgress, orchestrate.EventEnd}))
	})

	It("binds nothing for an unknown tool or an input that does not decode", func() {
		results, _ := collect(ex.RunTools(bg, []orchestrate.ToolUse{use("u", "Nope", nil), use("b", "Sim", `{"summary": 3}`)}, newTC()))
		Expect(results).To(HaveLen(2))
		Expect(results[0].Invocation).To(BeNil())
		Expect(results[1].Invocation).To(BeNil())
		Expect(results[1].Tool).NotTo(BeNil())
		Expect(invs).To(BeEmpty())
		Expect(seen).To(HaveLen(2))
		for _, ev := range seen {
			Expect(ev.Kind).To(Equal(orchestrate.EventQueued))
			Expect(ev.Invocation).To(BeNil())
		}
	})

	It("binds an input a hook replaces anew, leaving the first Invocation as it was", func() {
		ex.PreToolUse = func(_ context.Context, inv *runtime.Invocation, _ *runtime.ToolContext) orchestrate.PreToolUseResult {
			record(inv)
			return orchestrate.PreToolUseResult{UpdatedInput: json.RawMessage(`{"summary":"b.txt"}`)}
		}
		results, _ := collect(ex.RunTools(bg, []orchestrate.ToolUse{use("c1", "Sim", map[string]any{"summary": "a.txt"})}, newTC()))
		Expect(invs).To(HaveLen(3))
		first, replaced := invs[0], invs[1]
		Expect(first.Use).To(Equal("a.txt"))
		Expect(replaced.Use).To(Equal("b.txt"))
		Expect(string(replaced.Raw)).To(Equal(`{"summary":"b.txt"}`))
		Expect(invs[2]).To(BeIdenticalTo(replaced))
		Expect(results[0].Invocation).To(BeIdenticalTo(replaced))
	})

	It("wakes a consumer that waits on Wake instead of polling", func() {
		s := orchestrate.NewStreaming(bg, ex, newTC())
		DeferCleanup(func() { s.Discard(); s.Wait() })
		release := make(chan struct{})
		ex.Tools = []runtime.Tool{&tooltest.Sim{ToolName: "Sim", OnCall: func(context.Context, *tooltest.Input, *runtime.Call) (runtime.Result, error) {
			<-release
			return runtime.Result{Content: []runtime.Block{runtime.TextBlock("done")}}, nil
		}}}
		Expect(s.Add(use("c1", "Sim", nil))).To(Succeed())
		// Drain the wake-up of Add itself: nothing is ready yet.
		<-s.Wake()
		Expect(collectReady(s)).To(BeEmpty())
		close(release)
		Eventually(s.Wake()).Should(Receive())
		got := collectReady(s)
		Expect(got).To(HaveLen(1))
		Expect(got[0].Result.Text()).To(Equal("done"))
	})
})

func collectReady(s *orchestrate.StreamingExecutor) []orchestrate.Event {
	var out []orchestrate.Event
	for ev := range s.Ready() {
		out = append(out, ev)
	}
	return out
}
