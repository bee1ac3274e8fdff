package orchestrate_test

import (
	"context"
	"errors"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// gate is a set of channels tests use to hold and release calls by id.
type gate struct {
	mu      sync.Mutex
	release map[string]chan struct{}
	started map[string]chan struct{}
}

func newGate() *gate {
	return &gate{release: map[string]chan struct{}{}, started: map[string]chan struct{}{}}
}

func (g *gate) ch(m map[string]chan struct{}, id string) chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	c, ok := m[id]
	if !ok {
		c = make(chan struct{})
		m[id] = c
	}
	return c
}

// Release lets call id finish.
func (g *gate) Release(id string) { close(g.ch(g.release, id)) }

// Started is closed when call id has entered Call.
func (g *gate) Started(id string) <-chan struct{} { return g.ch(g.started, id) }

// onCall holds each call until released (or cancelled); its input's fail
// or error_result apply after the release.
func (g *gate) onCall(ctx context.Context, in *tooltest.Input, call *runtime.Call) (runtime.Result, error) {
	close(g.ch(g.started, call.ID))
	for range in.Progress {
		call.Progress("working on " + call.ID)
	}
	select {
	case <-g.ch(g.release, call.ID):
	case <-ctx.Done():
		if !in.IgnoreCancel {
			return runtime.Result{}, context.Cause(ctx)
		}
		<-g.ch(g.release, call.ID)
	}
	if in.Fail != "" {
		return runtime.Result{}, errors.New(in.Fail)
	}
	return runtime.Result{Content: []runtime.Block{runtime.TextBlock(call.ID + " ok")}}, nil
}

var _ = Describe("the streaming path", func() {
	var (
		ex  *orchestrate.Executor
		g   *gate
		mon *tooltest.Monitor
		s   *orchestrate.StreamingExecutor
	)
	BeforeEach(func() {
		g = newGate()
		mon = tooltest.NewMonitor()
		ex = &orchestrate.Executor{Tools: []runtime.Tool{
			&tooltest.Sim{ToolName: "Read", Safe: true, Monitor: mon, OnCall: g.onCall, Interrupt: runtime.InterruptCancel},
			&tooltest.Sim{ToolName: "Grep", Safe: true, Monitor: mon, OnCall: g.onCall},
			&tooltest.Sim{ToolName: "Bash", CancelsSiblings: true, Monitor: mon, OnCall: g.onCall, Interrupt: runtime.InterruptCancel},
			&tooltest.Sim{ToolName: "SafeBash", Safe: true, Monitor: mon, OnCall: g.onCall},
			&tooltest.Sim{ToolName: "Edit", Monitor: mon, OnCall: g.onCall},
		}}
		s = orchestrate.NewStreaming(bg, ex, newTC())
		DeferCleanup(func() { s.Discard(); s.Wait() })
	})

	// state returns the current state of the i-th added call.
	state := func(i int) func() string {
		return func() string {
			tr := s.Trace()[i]
			return tr[len(tr)-1].State.String()
		}
	}
	// bashUse is a Bash call the stand-in treats as concurrency-safe.
	bashUse := func(id, summary string, extra map[string]any) orchestrate.ToolUse {
		in := map[string]any{"summary": summary, "safe": true}
		for k, v := range extra {
			in[k] = v
		}
		return use(id, "Bash", in)
	}

	It("starts a call as soon as it is added, before the stream ends", func() {
		Expect(s.Add(use("a", "Edit", nil))).To(Succeed())
		Eventually(g.Started("a")).Should(BeClosed())
		Expect(state(0)()).To(Equal("executing"))
		g.Release("a")
		res, _ := collect(s.Results())
		Expect(states(res[0])).To(Equal([]string{"queued", "executing", "completed", "yielded"}))
		at := res[0].States
		for i := 1; i < len(at); i++ {
			Expect(at[i].At).NotTo(BeTemporally("<", at[i-1].At))
		}
	})

	It("runs safe calls beside executing safe calls", func() {
		s.Add(use("a", "Read", nil))
		s.Add(use("b", "Grep", nil))
		Eventually(g.Started("a")).Should(BeClosed())
		Eventually(g.Started("b")).Should(BeClosed())
		g.Release("b")
		g.Release("a")
		res, _ := collect(s.Results())
		Expect(ids(res)).To(Equal([]string{"a", "b"}))
	})

	It("queues an unsafe call until the executing calls finish, and it holds back the calls behind it", func() {
		s.Add(use("a", "Read", nil))
		s.Add(use("b", "Edit", nil))
		s.Add(use("c", "Read", nil)) // could run beside a, but b holds it back
		Eventually(g.Started("a")).Should(BeClosed())
		Consistently(state(1), "20ms").Should(Equal("queued"))
		Expect(state(2)()).To(Equal("queued"))
		g.Release("a")
		Eventually(g.Started("b")).Should(BeClosed())
		Consistently(state(2), "10ms").Should(Equal("queued"))
		g.Release("b")
		Eventually(g.Started("c")).Should(BeClosed())
		g.Release("c")
		res, _ := collect(s.Results())
		Expect(ids(res)).To(Equal([]string{"a", "b", "c"}))
		Expect(mon.Violations()).To(BeEmpty())
	})

	It("does not start a safe call while an unsafe one executes", func() {
		s.Add(use("a", "Edit", nil))
		Eventually(g.Started("a")).Should(BeClosed())
		s.Add(use("b", "Read", nil))
		Consistently(state(1), "20ms").Should(Equal("queued"))
		g.Release("a")
		Eventually(g.Started("b")).Should(BeClosed())
		g.Release("b")
		collect(s.Results())
	})

	It("yields results in Add order and progress ahead of order", func() {
		s.Add(use("a", "Read", nil))
		s.Add(use("b", "Read", map[string]any{"progress": 1}))
		Eventually(g.Started("b")).Should(BeClosed())
		g.Release("b")
		Eventually(state(1)).Should(Equal("completed"))
		// b is completed but a is not: only b's progress is ready.
		var ready []string
		for ev := range s.Ready() {
			ready = append(ready, ev.ID+"/"+map[orchestrate.EventKind]string{orchestrate.EventResult: "result", orchestrate.EventProgress: "progress"}[ev.Kind])
		}
		Expect(ready).To(Equal([]string{"b/progress"}))
		g.Release("a")
		res, prog := collect(s.Results())
		Expect(ids(res)).To(Equal([]string{"a", "b"}))
		Expect(prog).To(BeEmpty())
	})

	It("refuses adds after Close", func() {
		s.Close()
		Expect(s.Add(use("a", "Read", nil))).To(MatchError(orchestrate.ErrClosed))
		res, _ := collect(s.Results())
		Expect(res).To(BeEmpty())
	})

	Describe("a Bash error", func() {
		It("cancels running and queued siblings with the exact message, and calls added later", func() {
			s.Add(use("r", "Read", nil))
			s.Add(bashUse("b", "npm test -- --reporter=verbose --coverage --watch=false", map[string]any{"fail": "exit status 1"}))
			s.Add(use("e", "Edit", nil)) // queued
			Eventually(g.Started("r")).Should(BeClosed())
			Eventually(g.Started("b")).Should(BeClosed())
			g.Release("b")
			Eventually(state(0)).Should(Equal("completed"))
			s.Add(use("late", "Grep", nil))
			res, _ := collect(s.Results())
			Expect(ids(res)).To(Equal([]string{"r", "b", "e", "late"}))
			want := "Cancelled: parallel tool call Bash(npm test -- --reporter=verbose --coverag…) errored"
			Expect(res[0].Result.Text()).To(Equal(want))
			Expect(res[0].Outcome).To(Equal(orchestrate.OutcomeSiblingError))
			Expect(res[1].Result.Text()).To(Equal("exit status 1"))
			Expect(res[2].Result.Text()).To(Equal(want))
			Expect(states(res[2])).To(Equal([]string{"queued", "completed", "yielded"}))
			Expect(res[3].Result.Text()).To(Equal(want))
			Expect(mon.Started()).NotTo(ContainElement("e"))
		})

		It("never touches a result that is already completed", func() {
			s.Add(use("r", "Read", nil))
			s.Add(bashUse("b", "make", map[string]any{"fail": "boom"}))
			Eventually(g.Started("r")).Should(BeClosed())
			g.Release("r")
			Eventually(state(0)).Should(Equal("completed"))
			g.Release("b")
			res, _ := collect(s.Results())
			Expect(res[0].IsError()).To(BeFalse())
			Expect(res[0].Result.Text()).To(Equal("r ok"))
		})

		It("leaves other tools' errors local", func() {
			s.Add(use("g", "Grep", map[string]any{"fail": "no such file"}))
			s.Add(use("r", "Read", nil))
			g.Release("g")
			Eventually(state(0)).Should(Equal("completed"))
			g.Release("r")
			res, _ := collect(s.Results())
			Expect(res[0].Result.Text()).To(Equal("no such file"))
			Expect(res[1].Result.Text()).To(Equal("r ok"))
		})

		It("does not cancel siblings when the Bash call was only denied", func() {
			ex.CanUseTool = func(_ context.Context, inv *runtime.Invocation, _ *runtime.ToolContext) runtime.PermissionDecision {
				if inv.ToolName == "Bash" {
					return runtime.PermissionDecision{Behavior: runtime.Deny}
				}
				return runtime.PermissionDecision{Behavior: runtime.Allow}
			}
			s.Add(use("r", "Read", nil))
			s.Add(bashUse("b", "rm -rf /", nil))
			Eventually(state(1)).Should(Equal("completed"))
			g.Release("r")
			res, _ := collect(s.Results())
			Expect(res[0].Result.Text()).To(Equal("r ok"))
			Expect(res[1].Rejected()).To(BeTrue())
		})

		It("only cancels its own run, not an unrelated one", func() {
			other := orchestrate.NewStreaming(bg, ex, newTC())
			other.Add(use("x", "Read", nil))
			s.Add(bashUse("b", "false", map[string]any{"fail": "exit 1"}))
			g.Release("b")
			Eventually(state(0)).Should(Equal("completed"))
			g.Release("x")
			res, _ := collect(other.Results())
			Expect(res[0].Result.Text()).To(Equal("x ok"))
			collect(s.Results())
		})

		It("is not applied on the batch path", func() {
			run := ex.Start(bg, []orchestrate.ToolUse{use("r", "Read", nil), bashUse("b", "false", map[string]any{"fail": "exit 1"})}, newTC())
			g.Release("b")
			Eventually(g.Started("r")).Should(BeClosed())
			g.Release("r")
			res, _ := collect(run.Results())
			Expect(res[0].Result.Text()).To(Equal("r ok"))
		})
	})

	It("uses the tool's RenderUse summary in the message, or the bare name", func() {
		s.Add(use("r", "Read", nil))
		s.Add(bashUse("b", "", map[string]any{"fail": "x"}))
		g.Release("b")
		res, _ := collect(s.Results())
		Expect(res[0].Result.Text()).To(Equal("Cancelled: parallel tool call Bash errored"))
	})

	Describe("Discard", func() {
		It("drops everything not yet yielded; nothing leaks out", func() {
			s.Add(use("a", "Read", map[string]any{"progress": 2}))
			s.Add(use("b", "Edit", nil))
			Eventually(g.Started("a")).Should(BeClosed())
			s.Discard()
			res, prog := collect(s.Results())
			Expect(res).To(BeEmpty())
			Expect(prog).To(BeEmpty())
			Expect(collect(s.Ready())).To(BeEmpty())
			s.Wait()
			Expect(mon.Started()).To(Equal([]string{"a"}))
			tr := s.Trace()
			Expect(tr[1][len(tr[1])-1].State).To(Equal(orchestrate.StateDiscarded))
			Expect(s.Add(use("c", "Read", nil))).To(MatchError(orchestrate.ErrClosed))
		})

		It("keeps what was already yielded, and lets block tools finish unseen", func() {
			s.Add(use("a", "Read", nil))
			s.Add(use("b", "Grep", map[string]any{"ignore_cancel": true}))
			g.Release("a")
			Eventually(g.Started("b")).Should(BeClosed())
			Eventually(func() int { r, _ := collect(s.Ready()); return len(r) }).Should(Equal(1))
			s.Discard()
			Consistently(state(1), "10ms").Should(Equal("discarded"))
			Expect(mon.Running()).To(Equal(1)) // the block tool is still running
			g.Release("b")
			s.Wait()
			Expect(collect(s.Results())).To(BeEmpty())
		})
	})

	Describe("Interrupt", func() {
		It("stops cancel tools, lets block tools finish, and starts nothing more", func() {
			s.Add(use("r", "Read", nil)) // cancel
			s.Add(use("g", "Grep", nil)) // block
			s.Add(use("e", "Edit", nil)) // queued
			Eventually(g.Started("r")).Should(BeClosed())
			Eventually(g.Started("g")).Should(BeClosed())
			s.Interrupt()
			Eventually(state(0)).Should(Equal("completed"))
			Expect(state(1)()).To(Equal("executing"))
			g.Release("g")
			s.Add(use("late", "Read", nil))
			res, _ := collect(s.Results())
			Expect(ids(res)).To(Equal([]string{"r", "g", "e", "late"}))
			Expect(res[0].Outcome).To(Equal(orchestrate.OutcomeInterrupted))
			Expect(res[0].Result.Text()).To(Equal(orchestrate.InterruptMessage))
			Expect(res[1].IsError()).To(BeFalse())
			Expect(res[2].Outcome).To(Equal(orchestrate.OutcomeInterrupted))
			Expect(res[3].Outcome).To(Equal(orchestrate.OutcomeInterrupted))
			Expect(mon.Started()).To(ConsistOf("r", "g"))
		})
	})

	It("stops everything when the session context is cancelled, one result per call", func() {
		ctx, cancel := context.WithCancelCause(bg)
		s = orchestrate.NewStreaming(ctx, ex, newTC())
		s.Add(use("r", "Read", nil))
		s.Add(use("g", "Grep", nil))
		s.Add(use("e", "Edit", nil))
		Eventually(g.Started("g")).Should(BeClosed())
		cancel(errors.New("session over"))
		res, _ := collect(s.Results())
		Expect(ids(res)).To(Equal([]string{"r", "g", "e"}))
		for _, ev := range res {
			Expect(ev.Outcome).To(Equal(orchestrate.OutcomeCancelled))
			Expect(ev.Result.Text()).To(ContainSubstring("session over"))
		}
	})

	It("applies modifiers in Add order only when nothing executes", func() {
		var applied []string
		tools := []runtime.Tool{
			&tooltest.Sim{ToolName: "Read", Safe: true, Default: tooltest.Input{Modify: true}, OnModify: func(id string, _ *runtime.ToolContext) { applied = append(applied, id) }},
		}
		ex.Tools = tools
		s2 := orchestrate.NewStreaming(bg, ex, newTC())
		for _, id := range []string{"a", "b", "c", "d"} {
			s2.Add(use(id, "Read", map[string]any{"spin": 3}))
		}
		res, _ := collect(s2.Results())
		Expect(res).To(HaveLen(4))
		Expect(applied).To(Equal([]string{"a", "b", "c", "d"}))
	})

	It("truncates long summaries at 40 characters", func() {
		long := strings.Repeat("x", 60)
		s.Add(use("r", "Read", nil))
		s.Add(bashUse("b", long, map[string]any{"fail": "x"}))
		g.Release("b")
		res, _ := collect(s.Results())
		Expect(res[0].Result.Text()).To(Equal("Cancelled: parallel tool call Bash(" + strings.Repeat("x", 40) + "…) errored"))
	})
})
