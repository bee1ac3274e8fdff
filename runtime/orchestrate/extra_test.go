package orchestrate_test

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

var _ = Describe("edge cases", func() {
	var ex *orchestrate.Executor

	It("drops a panicking modifier and still applies the others in order", func() {
		var applied []string
		ex = &orchestrate.Executor{Tools: []runtime.Tool{&tooltest.Sim{ToolName: "Edit", OnCall: func(ctx context.Context, in *tooltest.Input, call *runtime.Call) (runtime.Result, error) {
			id := call.ID
			call.ModifyContext(func(*runtime.ToolContext) {
				if in.Tag == "bad" {
					panic("modifier exploded")
				}
				applied = append(applied, id)
			})
			return runtime.Result{}, nil
		}}}}
		res, _ := collect(ex.RunTools(bg, []orchestrate.ToolUse{use("a", "Edit", nil), use("b", "Edit", map[string]any{"tag": "bad"}), use("c", "Edit", nil)}, newTC()))
		Expect(res).To(HaveLen(3))
		Expect(applied).To(Equal([]string{"a", "c"}))
	})

	It("applies a modifier returned in the Result as well as registered ones", func() {
		tc := newTC()
		ex = &orchestrate.Executor{Tools: []runtime.Tool{&tooltest.Sim{ToolName: "Write", OnCall: func(ctx context.Context, in *tooltest.Input, call *runtime.Call) (runtime.Result, error) {
			call.ModifyContext(func(tc *runtime.ToolContext) { tc.Cwd = "/first" })
			return runtime.Result{Modifier: func(tc *runtime.ToolContext) { tc.Cwd += "/then-result" }}, nil
		}}}}
		collect(ex.RunTools(bg, []orchestrate.ToolUse{use("a", "Write", nil)}, tc))
		Expect(tc.Cwd).To(Equal("/first/then-result"))
	})

	It("drops progress reported after the call returned", func() {
		var late *runtime.Call
		ex = &orchestrate.Executor{Tools: []runtime.Tool{&tooltest.Sim{ToolName: "Read", Safe: true, OnCall: func(ctx context.Context, in *tooltest.Input, call *runtime.Call) (runtime.Result, error) {
			late = call
			return runtime.Result{}, nil
		}}}}
		s := orchestrate.NewStreaming(bg, ex, newTC())
		s.Add(use("a", "Read", nil))
		Eventually(func() int { r, _ := collect(s.Ready()); return len(r) }).Should(Equal(1))
		late.Progress("too late")
		res, prog := collect(s.Results())
		Expect(res).To(BeEmpty())
		Expect(prog).To(BeEmpty())
	})

	It("lets a reader stop Results early and resume it", func() {
		ex = &orchestrate.Executor{Tools: []runtime.Tool{&tooltest.Sim{ToolName: "Read", Safe: true}}}
		s := orchestrate.NewStreaming(bg, ex, newTC())
		for _, id := range []string{"a", "b", "c"} {
			s.Add(use(id, "Read", nil))
		}
		var got []string
		for ev := range s.Results() {
			got = append(got, ev.ID)
			break
		}
		for ev := range s.Results() {
			got = append(got, ev.ID)
		}
		Expect(got).To(Equal([]string{"a", "b", "c"}))
	})

	It("recognises Bash by its name when called through an alias", func() {
		g := newGate()
		ex = &orchestrate.Executor{Tools: []runtime.Tool{
			&tooltest.Sim{ToolName: "Bash", CancelsSiblings: true, ToolAliases: []string{"Shell"}, Safe: true},
			&tooltest.Sim{ToolName: "Read", Safe: true, OnCall: g.onCall},
		}}
		s := orchestrate.NewStreaming(bg, ex, newTC())
		s.Add(use("r", "Read", nil))
		s.Add(use("b", "Shell", map[string]any{"summary": "make", "fail": "exit 2"}))
		res, _ := collect(s.Results())
		Expect(res[0].Result.Text()).To(Equal("Cancelled: parallel tool call Bash(make) errored"))
	})

	It("caps the streaming path too", func() {
		mon := tooltest.NewMonitor()
		ex = &orchestrate.Executor{MaxConcurrency: 2, Tools: []runtime.Tool{&tooltest.Sim{ToolName: "Read", Safe: true, Monitor: mon, Default: tooltest.Input{Spin: 50}}}}
		s := orchestrate.NewStreaming(bg, ex, newTC())
		for _, id := range []string{"a", "b", "c", "d", "e"} {
			s.Add(use(id, "Read", nil))
		}
		res, _ := collect(s.Results())
		Expect(res).To(HaveLen(5))
		Expect(mon.MaxRunning()).To(BeNumerically("<=", 2))
	})

	It("runs with a nil tool context", func() {
		ex = &orchestrate.Executor{Tools: []runtime.Tool{&tooltest.Sim{ToolName: "Read"}}}
		res, _ := collect(ex.RunTools(bg, []orchestrate.ToolUse{use("a", "Read", nil)}, nil))
		Expect(res[0].IsError()).To(BeFalse())
	})

	It("names outcomes and states", func() {
		Expect(orchestrate.OutcomeSiblingError.String()).To(Equal("sibling_error"))
		Expect(orchestrate.Outcome(99).String()).To(Equal("outcome(99)"))
		Expect(orchestrate.StateYielded.String()).To(Equal("yielded"))
		b, _ := orchestrate.StateQueued.MarshalText()
		Expect(string(b)).To(Equal("queued"))
	})
})

// keepAlive holds cancel funcs of contexts that must outlive their spec.
var keepAlive []context.CancelFunc

// opaqueCtx hides its parent's type, so context must watch it with a
// goroutine of its own until the run releases its contexts.
type opaqueCtx struct{ context.Context }

// Value hides the parent's values (and so its cancelCtx).
func (opaqueCtx) Value(any) any { return nil }

var _ = Describe("context release", func() {
	It("leaves no context goroutine behind under a foreign context type", func() {
		ex := &orchestrate.Executor{Tools: []runtime.Tool{&tooltest.Sim{ToolName: "Read", Safe: true}}}
		// The parent stays alive past the goleak check: only the run's own
		// release can end the goroutine watching it.
		ctx, cancel := context.WithCancel(bg)
		keepAlive = append(keepAlive, cancel)
		s := orchestrate.NewStreaming(opaqueCtx{ctx}, ex, newTC())
		s.Add(use("a", "Read", nil))
		Eventually(func() int { r, _ := collect(s.Ready()); return len(r) }).Should(Equal(1))
		res, _ := collect(s.Results())
		Expect(res).To(BeEmpty())
		// goleak in AfterEach fails if the run's contexts were not released.
	})
})

var _ = Describe("AbandonAfter", func() {
	It("abandons a call that ignores its cancelled context, and the run moves on", func() {
		release := make(chan struct{})
		stubborn := &tooltest.Sim{ToolName: "Stubborn", OnCall: func(ctx context.Context, in *tooltest.Input, call *runtime.Call) (runtime.Result, error) {
			<-release // ignores ctx
			return runtime.Result{}, nil
		}}
		// The deadline leaves the call time to start even on a loaded
		// machine: one that expired before Call ran is cancelled, not
		// abandoned.
		ex := &orchestrate.Executor{CallTimeout: 250 * time.Millisecond, AbandonAfter: 2 * time.Millisecond,
			Tools: []runtime.Tool{stubborn, &tooltest.Sim{ToolName: "Read", Safe: true}}}
		res, _ := collect(ex.RunTools(bg, []orchestrate.ToolUse{use("a", "Stubborn", nil), use("b", "Read", nil)}, newTC()))
		Expect(ids(res)).To(Equal([]string{"a", "b"}))
		Expect(res[0].Outcome).To(Equal(orchestrate.OutcomeTimeout))
		Expect(res[0].Result.Text()).To(ContainSubstring("timed out after 250ms"))
		Expect(res[0].Result.Text()).To(ContainSubstring("was abandoned"))
		Expect(res[1].IsError()).To(BeFalse())
		close(release) // let the abandoned goroutine end before goleak looks
	})

	It("does not abandon a call that stops in time", func() {
		ex := &orchestrate.Executor{CallTimeout: time.Millisecond, AbandonAfter: time.Hour,
			Tools: []runtime.Tool{&tooltest.Sim{ToolName: "Read"}}}
		res, _ := collect(ex.RunTools(bg, []orchestrate.ToolUse{use("a", "Read", map[string]any{"block": true})}, newTC()))
		Expect(res[0].Outcome).To(Equal(orchestrate.OutcomeTimeout))
		Expect(res[0].Result.Text()).NotTo(ContainSubstring("abandoned"))
	})
})

var _ = Describe("AbandonAfter on interrupt", func() {
	It("abandons a stubborn cancel tool after an interrupt and starts nothing more", func() {
		release := make(chan struct{})
		started := make(chan struct{})
		ex := &orchestrate.Executor{AbandonAfter: 2 * time.Millisecond, Tools: []runtime.Tool{
			&tooltest.Sim{ToolName: "Stubborn", Interrupt: runtime.InterruptCancel, OnCall: func(ctx context.Context, in *tooltest.Input, call *runtime.Call) (runtime.Result, error) {
				close(started)
				<-release
				return runtime.Result{}, nil
			}},
			&tooltest.Sim{ToolName: "Edit"},
		}}
		s := orchestrate.NewStreaming(bg, ex, newTC())
		s.Add(use("a", "Stubborn", nil))
		s.Add(use("b", "Edit", nil))
		Eventually(started).Should(BeClosed())
		s.Interrupt()
		res, _ := collect(s.Results())
		Expect(ids(res)).To(Equal([]string{"a", "b"}))
		Expect(res[0].Outcome).To(Equal(orchestrate.OutcomeInterrupted))
		Expect(res[0].Result.Text()).To(ContainSubstring("abandoned"))
		Expect(res[1].Outcome).To(Equal(orchestrate.OutcomeInterrupted))
		close(release)
	})
})
