package orchestrate_test

import (
	"context"
	"sync"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// standIns are the seed's tools with the flags their real versions declare.
func standIns(mon *tooltest.Monitor) []runtime.Tool {
	return []runtime.Tool{
		&tooltest.Sim{ToolName: "Glob", Safe: true, ReadOnly: true, Monitor: mon},
		&tooltest.Sim{ToolName: "Grep", Safe: true, ReadOnly: true, Monitor: mon},
		&tooltest.Sim{ToolName: "Read", Safe: true, ReadOnly: true, Monitor: mon},
		&tooltest.Sim{ToolName: "Bash", CancelsSiblings: true, Monitor: mon, Interrupt: runtime.InterruptCancel},
		&tooltest.Sim{ToolName: "Edit", Monitor: mon},
	}
}

var _ = Describe("the batch path", func() {
	var (
		ex  *orchestrate.Executor
		mon *tooltest.Monitor
	)
	BeforeEach(func() {
		mon = tooltest.NewMonitor()
		ex = &orchestrate.Executor{Tools: standIns(mon)}
	})

	Describe("Plan", func() {
		It("plans the seed's worked example into 5 batches following the algorithm", func() {
			calls := []orchestrate.ToolUse{
				use("1", "Glob", map[string]any{"summary": "*.ts"}),
				use("2", "Grep", map[string]any{"summary": "pattern"}),
				use("3", "Bash", map[string]any{"summary": "npm test"}),
				use("4", "Read", map[string]any{"summary": "a.ts"}),
				use("5", "Edit", map[string]any{"summary": "a.ts"}),
				use("6", "Glob", map[string]any{"summary": "*.json"}),
			}
			// The seed labels batch 3 (Read) unsafe; Read is concurrency-safe,
			// so the algorithm makes it a safe batch of one.
			Expect(ex.Plan(calls)).To(Equal([]orchestrate.Batch{
				{ConcurrencySafe: true, IDs: []string{"1", "2"}},
				{ConcurrencySafe: false, IDs: []string{"3"}},
				{ConcurrencySafe: true, IDs: []string{"4"}},
				{ConcurrencySafe: false, IDs: []string{"5"}},
				{ConcurrencySafe: true, IDs: []string{"6"}},
			}))
		})
		It("plans the seed's [Read, Read, Bash(ls), Read] example", func() {
			Expect(ex.Plan([]orchestrate.ToolUse{use("a", "Read", nil), use("b", "Read", nil), use("c", "Bash", nil), use("d", "Read", nil)})).To(Equal([]orchestrate.Batch{
				{ConcurrencySafe: true, IDs: []string{"a", "b"}},
				{ConcurrencySafe: false, IDs: []string{"c"}},
				{ConcurrencySafe: true, IDs: []string{"d"}},
			}))
		})
		It("counts unknown tools, invalid input and per-input unsafety as unsafe", func() {
			Expect(ex.Plan([]orchestrate.ToolUse{
				use("a", "Read", nil), use("b", "Nope", nil), use("c", "Read", nil),
				use("d", "Read", `{"bad":1}`), use("e", "Read", nil),
				use("f", "Read", map[string]any{"safe": false}), use("g", "Bash", map[string]any{"safe": true}), use("h", "Glob", nil),
			})).To(Equal([]orchestrate.Batch{
				{ConcurrencySafe: true, IDs: []string{"a"}},
				{ConcurrencySafe: false, IDs: []string{"b"}},
				{ConcurrencySafe: true, IDs: []string{"c"}},
				{ConcurrencySafe: false, IDs: []string{"d"}},
				{ConcurrencySafe: true, IDs: []string{"e"}},
				{ConcurrencySafe: false, IDs: []string{"f"}},
				{ConcurrencySafe: true, IDs: []string{"g", "h"}},
			}))
		})
		It("plans nothing for no calls", func() {
			Expect(ex.Plan(nil)).To(BeEmpty())
		})
	})

	It("runs a safe batch in parallel: every call waits for all the others", func() {
		var wg sync.WaitGroup
		wg.Add(4)
		ex.Tools = []runtime.Tool{&tooltest.Sim{ToolName: "Read", Safe: true, OnCall: func(ctx context.Context, in *tooltest.Input, call *runtime.Call) (runtime.Result, error) {
			wg.Done()
			wg.Wait() // deadlocks unless all four run at once
			return runtime.Result{Content: []runtime.Block{runtime.TextBlock(call.ID)}}, nil
		}}}
		res, _ := collect(ex.RunTools(bg, []orchestrate.ToolUse{use("a", "Read", nil), use("b", "Read", nil), use("c", "Read", nil), use("d", "Read", nil)}, newTC()))
		Expect(texts(res)).To(Equal([]string{"a", "b", "c", "d"}))
	})

	It("never overlaps an unsafe call with another call", func() {
		calls := []orchestrate.ToolUse{}
		for i, name := range []string{"Read", "Glob", "Bash", "Read", "Edit", "Edit", "Grep", "Read", "Bash"} {
			calls = append(calls, use(string(rune('a'+i)), name, map[string]any{"spin": 20}))
		}
		res, _ := collect(ex.RunTools(bg, calls, newTC()))
		Expect(res).To(HaveLen(len(calls)))
		Expect(mon.Violations()).To(BeEmpty())
		Expect(mon.Started()).To(HaveLen(len(calls)))
	})

	DescribeTable("reads the cap from AGENTCORE_MAX_TOOL_USE_CONCURRENCY",
		func(value string, set bool, want int) {
			getenv := func(k string) string {
				if set && k == orchestrate.EnvMaxConcurrency {
					return value
				}
				return ""
			}
			Expect(orchestrate.MaxConcurrencyFromEnv(getenv)).To(Equal(want))
		},
		Entry("unset", "", false, 10),
		Entry("0", "0", true, 10),
		Entry("junk", "lots", true, 10),
		Entry("negative", "-4", true, 10),
		Entry("3", "3", true, 3),
		Entry("padded", " 25 ", true, 25),
	)

	It("never runs more safe calls at once than the cap, and reaches it", func() {
		ex.MaxConcurrency = 3
		release := make(chan struct{})
		ex.Tools = []runtime.Tool{&tooltest.Sim{ToolName: "Read", Safe: true, Monitor: mon, OnCall: func(ctx context.Context, in *tooltest.Input, call *runtime.Call) (runtime.Result, error) {
			<-release
			return runtime.Result{}, nil
		}}}
		var calls []orchestrate.ToolUse
		for i := range 8 {
			calls = append(calls, use(string(rune('a'+i)), "Read", nil))
		}
		s := ex.Start(bg, calls, newTC())
		Eventually(mon.Running).Should(Equal(3))
		Consistently(mon.Running, "20ms", "2ms").Should(Equal(3))
		close(release)
		res, _ := collect(s.Results())
		Expect(ids(res)).To(Equal([]string{"a", "b", "c", "d", "e", "f", "g", "h"}))
		Expect(mon.MaxRunning()).To(Equal(3))
	})

	It("yields results in call order even when later calls finish first, and progress at once", func() {
		bDone := make(chan struct{})
		ex.Tools = []runtime.Tool{&tooltest.Sim{ToolName: "Read", Safe: true, OnCall: func(ctx context.Context, in *tooltest.Input, call *runtime.Call) (runtime.Result, error) {
			if call.ID == "a" {
				<-bDone
			} else {
				call.Progress("b is half way")
				defer close(bDone)
			}
			return runtime.Result{Content: []runtime.Block{runtime.TextBlock(call.ID)}}, nil
		}}}
		var order []string
		for ev := range ex.RunTools(bg, []orchestrate.ToolUse{use("a", "Read", nil), use("b", "Read", nil)}, newTC()) {
			if ev.Kind == orchestrate.EventProgress {
				order = append(order, "progress "+ev.ID+": "+ev.Progress.(string))
			} else {
				order = append(order, "result "+ev.ID)
			}
		}
		Expect(order).To(Equal([]string{"progress b: b is half way", "result a", "result b"}))
	})

	Describe("context modifiers", func() {
		var (
			seen    sync.Map // id → modifiers applied when the call started
			applied []string
		)
		BeforeEach(func() {
			applied = nil
			seen = sync.Map{}
			onCall := func(ctx context.Context, in *tooltest.Input, call *runtime.Call) (runtime.Result, error) {
				seen.Store(call.ID, len(call.Context.Env))
				id := call.ID
				call.ModifyContext(func(tc *runtime.ToolContext) {
					applied = append(applied, id)
					if tc.Env == nil {
						tc.Env = map[string]string{}
					}
					tc.Env[id] = "modified"
				})
				return runtime.Result{}, nil
			}
			ex.Tools = []runtime.Tool{
				&tooltest.Sim{ToolName: "Read", Safe: true, OnCall: onCall},
				&tooltest.Sim{ToolName: "Edit", OnCall: onCall},
			}
		})
		seenBy := func(id string) int { v, _ := seen.Load(id); return v.(int) }

		It("applies a parallel batch's modifiers after the batch, in call order; a serial call's at once", func() {
			tc := newTC()
			collect(ex.RunTools(bg, []orchestrate.ToolUse{
				use("r1", "Read", nil), use("r2", "Read", nil), use("r3", "Read", nil),
				use("e1", "Edit", nil), use("e2", "Edit", nil), use("r4", "Read", nil),
			}, tc))
			Expect(applied).To(Equal([]string{"r1", "r2", "r3", "e1", "e2", "r4"}))
			Expect(seenBy("r1")).To(Equal(0))
			Expect(seenBy("r2")).To(Equal(0)) // same batch: not yet
			Expect(seenBy("r3")).To(Equal(0))
			Expect(seenBy("e1")).To(Equal(3))
			Expect(seenBy("e2")).To(Equal(4))
			Expect(seenBy("r4")).To(Equal(5))
			Expect(tc.Env).To(HaveLen(6))
		})

		It("keeps a parallel batch's modifiers until the whole batch is done, even under a cap of 1", func() {
			ex.MaxConcurrency = 1
			collect(ex.RunTools(bg, []orchestrate.ToolUse{use("r1", "Read", nil), use("r2", "Read", nil), use("e1", "Edit", nil)}, newTC()))
			Expect(seenBy("r2")).To(Equal(0))
			Expect(seenBy("e1")).To(Equal(2))
			Expect(applied).To(Equal([]string{"r1", "r2", "e1"}))
		})
	})

	It("discards the rest and waits for running calls when the reader stops early", func() {
		var ran atomic.Int32
		ex.Tools = []runtime.Tool{&tooltest.Sim{ToolName: "Read", Safe: true, Interrupt: runtime.InterruptCancel, OnCall: func(ctx context.Context, in *tooltest.Input, call *runtime.Call) (runtime.Result, error) {
			ran.Add(1)
			if call.ID != "a" {
				<-ctx.Done()
			}
			return runtime.Result{}, nil
		}}}
		for ev := range ex.RunTools(bg, []orchestrate.ToolUse{use("a", "Read", nil), use("b", "Read", nil), use("c", "Read", nil)}, newTC()) {
			Expect(ev.ID).To(Equal("a"))
			break
		}
		// goleak (AfterEach) proves every call goroutine has ended.
	})

	It("yields nothing for no calls", func() {
		res, prog := collect(ex.RunTools(bg, nil, newTC()))
		Expect(res).To(BeEmpty())
		Expect(prog).To(BeEmpty())
	})
})
