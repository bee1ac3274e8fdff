package orchestrate_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"

	rt "github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// mixWorld is the shared state of one random mix: the monitor, the log of
// applied modifiers, and what each call saw of it when it started.
type mixWorld struct {
	mon     *tooltest.Monitor
	mu      sync.Mutex
	applied []string
	seen    map[string]int
}

func (w *mixWorld) onCall(ctx context.Context, in *tooltest.Input, call *rt.Call) (rt.Result, error) {
	w.mu.Lock()
	w.seen[call.ID] = len(w.applied)
	w.mu.Unlock()
	for i := range in.Progress {
		call.Progress(i)
	}
	if in.Panic != "" {
		panic(in.Panic)
	}
	for range in.Spin {
		if ctx.Err() != nil && !in.IgnoreCancel {
			return rt.Result{}, context.Cause(ctx)
		}
		runtime.Gosched()
	}
	if in.Block {
		<-ctx.Done()
		return rt.Result{}, context.Cause(ctx)
	}
	if in.Modify {
		id := call.ID
		call.ModifyContext(func(*rt.ToolContext) {
			w.mu.Lock()
			w.applied = append(w.applied, id)
			w.mu.Unlock()
		})
	}
	if in.Fail != "" {
		return rt.Result{}, errors.New(in.Fail)
	}
	if in.ErrorResult != "" {
		return rt.ErrorResult(in.ErrorResult), nil
	}
	return rt.Result{Content: []rt.Block{rt.TextBlock(call.ID)}}, nil
}

type mixCall struct {
	use    orchestrate.ToolUse
	want   orchestrate.Outcome
	modify bool
	blocks bool // runs until cancelled
	tool   string
}

type mix struct {
	streaming bool
	limit     int
	calls     []mixCall
	// what happens to the run, and after how many adds / yields
	interruptAt, cancelAt, discardAt int
	// timeout sets a 2 ms CallTimeout (and lets block calls end by it).
	timeout bool
}

func randomMix(r *rand.Rand) mix {
	m := mix{streaming: r.IntN(2) == 0, limit: 1 + r.IntN(4), interruptAt: -1, cancelAt: -1, discardAt: -1}
	n := 1 + r.IntN(8)
	anyBlock := false
	for i := range n {
		c := mixCall{want: orchestrate.OutcomeOK}
		c.tool = []string{"Safe", "Safe", "Unsafe", "Bash", "SafeCancel", "UnsafeCancel"}[r.IntN(6)]
		in := map[string]any{"spin": r.IntN(4)}
		if r.IntN(2) == 0 {
			in["modify"], c.modify = true, true
		}
		if p := r.IntN(3); p > 0 {
			in["progress"] = p
		}
		if c.tool == "Bash" && r.IntN(2) == 0 {
			in["safe"] = true
		}
		raw := ""
		switch k := r.IntN(100); {
		case k < 10:
			in["fail"], c.want = "failed", orchestrate.OutcomeToolError
		case k < 15:
			in["panic"], c.want = "boom", orchestrate.OutcomePanic
		case k < 20:
			in["error_result"] = "bad exit"
		case k < 23:
			raw, c.want = `{"spin":`, orchestrate.OutcomeInvalidInput
		case k < 26:
			c.tool, c.want = "Missing", orchestrate.OutcomeUnknownTool
		case k < 29:
			in["panic_safe"] = true
		case k < 33 && (c.tool == "SafeCancel" || c.tool == "UnsafeCancel"):
			in["block"], c.blocks, anyBlock = true, true, true
		}
		if raw == "" {
			b := fmt.Appendf(nil, "%s", mustJSON(in))
			raw = string(b)
		}
		c.use = orchestrate.ToolUse{ID: "c" + strconv.Itoa(i), Name: c.tool, Input: []byte(raw)}
		m.calls = append(m.calls, c)
	}
	m.timeout = r.IntN(20) == 0
	switch k := r.IntN(100); {
	case anyBlock && m.timeout && k < 50:
		// the timeout ends the blocked calls
	case k < 12 || anyBlock && k < 60:
		m.interruptAt = r.IntN(n + 1)
	case k < 22 || anyBlock:
		m.cancelAt = r.IntN(n + 1)
	case k < 30:
		m.discardAt = r.IntN(n + 1)
	}
	return m
}

func mustJSON(v any) string {
	b, err := jsonMarshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// checkMix runs one mix and returns a description of every broken
// invariant.
func checkMix(m mix) (problems []string) {
	w := &mixWorld{mon: tooltest.NewMonitor(), seen: map[string]int{}}
	sim := func(name string, safe bool, ib rt.InterruptBehavior) rt.Tool {
		return &tooltest.Sim{ToolName: name, Safe: safe, Interrupt: ib, Monitor: w.mon, OnCall: w.onCall, CancelsSiblings: name == "Bash"}
	}
	ex := &orchestrate.Executor{MaxConcurrency: m.limit, Tools: []rt.Tool{
		sim("Safe", true, rt.InterruptBlock), sim("Unsafe", false, rt.InterruptBlock), sim("Bash", false, rt.InterruptCancel),
		sim("SafeCancel", true, rt.InterruptCancel), sim("UnsafeCancel", false, rt.InterruptCancel),
	}}
	if !m.streaming {
		ex.MaxConcurrency = m.limit
	} else {
		ex.MaxConcurrency = 100
	}
	if m.timeout {
		ex.CallTimeout = 2 * time.Millisecond
	}
	uses := make([]orchestrate.ToolUse, len(m.calls))
	for i, c := range m.calls {
		uses[i] = c.use
	}
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	var s *orchestrate.StreamingExecutor
	act := func(i int) {
		switch i {
		case m.interruptAt:
			s.Interrupt()
		case m.cancelAt:
			cancel()
		case m.discardAt:
			s.Discard()
		}
	}
	var results []orchestrate.Event
	discarded := false
	if m.streaming {
		s = orchestrate.NewStreaming(ctx, ex, newTC())
		for i, u := range uses {
			act(i)
			if i == m.discardAt {
				discarded = true
				break
			}
			if err := s.Add(u); err != nil {
				problems = append(problems, "Add: "+err.Error())
			}
			for ev := range s.Ready() {
				if ev.Kind == orchestrate.EventResult {
					results = append(results, ev)
				}
			}
			runtime.Gosched()
		}
		if !discarded && m.discardAt == len(uses) || m.interruptAt == len(uses) || m.cancelAt == len(uses) {
			act(len(uses))
			discarded = m.discardAt == len(uses)
		}
	} else {
		s = ex.Start(ctx, uses, newTC())
		if m.interruptAt >= 0 || m.cancelAt >= 0 || m.discardAt >= 0 {
			for range m.interruptAt + m.cancelAt + m.discardAt + 2 {
				runtime.Gosched()
			}
			act(max(m.interruptAt, m.cancelAt, m.discardAt))
			discarded = m.discardAt >= 0
		}
	}
	for ev := range s.Results() {
		if ev.Kind == orchestrate.EventResult {
			results = append(results, ev)
		}
	}
	s.Wait()

	// Results: in call order, one per call (a prefix when discarded).
	got := ids(results)
	want := make([]string, len(uses))
	for i, u := range uses {
		want[i] = u.ID
	}
	if discarded {
		if len(got) > len(want) || !slices.Equal(got, want[:len(got)]) {
			problems = append(problems, fmt.Sprintf("discarded run yielded %v, not a prefix of %v", got, want))
		}
	} else if !slices.Equal(got, want) {
		problems = append(problems, fmt.Sprintf("results %v, want %v", got, want))
	}
	// No unsafe overlap; the cap on the batch path.
	problems = append(problems, w.mon.Violations()...)
	if !m.streaming && w.mon.MaxRunning() > m.limit {
		problems = append(problems, fmt.Sprintf("%d calls ran at once, cap %d", w.mon.MaxRunning(), m.limit))
	}
	// Outcomes match what was asked, unless a cancellation explains them.
	cancelling := m.interruptAt >= 0 || m.cancelAt >= 0 || m.discardAt >= 0
	bashFailed := false
	for _, ev := range results {
		if ev.Name == "Bash" && ev.IsError() && ev.Outcome != orchestrate.OutcomeSiblingError && ev.Outcome != orchestrate.OutcomeRejected &&
			ev.Outcome != orchestrate.OutcomeInterrupted && ev.Outcome != orchestrate.OutcomeCancelled {
			bashFailed = true
		}
	}
	for i, ev := range results {
		c := m.calls[i]
		ok := ev.Outcome == c.want ||
			m.streaming && bashFailed && ev.Outcome == orchestrate.OutcomeSiblingError ||
			cancelling && (ev.Outcome == orchestrate.OutcomeInterrupted || ev.Outcome == orchestrate.OutcomeCancelled) ||
			m.timeout && ev.Outcome == orchestrate.OutcomeTimeout
		if !ok {
			problems = append(problems, fmt.Sprintf("%s (%s): outcome %s, want %s", ev.ID, c.tool, ev.Outcome, c.want))
		}
		if ev.Outcome != orchestrate.OutcomeOK && !ev.IsError() {
			problems = append(problems, fmt.Sprintf("%s: outcome %s but not is_error", ev.ID, ev.Outcome))
		}
		if ev.Outcome == orchestrate.OutcomeSiblingError && !strings.HasPrefix(ev.Result.Text(), "Cancelled: parallel tool call Bash") {
			problems = append(problems, fmt.Sprintf("%s: sibling error text %q", ev.ID, ev.Result.Text()))
		}
	}
	// Modifiers: each applied once, in call order, exactly for the calls
	// that asked for one and ended OK or with their own error.
	w.mu.Lock()
	applied := slices.Clone(w.applied)
	seen := w.seen
	w.mu.Unlock()
	var wantApplied []string
	for i, ev := range results {
		if m.calls[i].modify && (ev.Outcome == orchestrate.OutcomeOK || ev.Outcome == orchestrate.OutcomeToolError) {
			wantApplied = append(wantApplied, ev.ID)
		}
	}
	if !discarded && !slices.Equal(applied, wantApplied) {
		problems = append(problems, fmt.Sprintf("modifiers applied %v, want %v", applied, wantApplied))
	}
	if discarded && (len(applied) > 0 && !isSubsequence(applied, want)) {
		problems = append(problems, fmt.Sprintf("modifiers applied %v out of order", applied))
	}
	// Later calls see the modifiers of earlier batches (exactly those, on
	// the batch path).
	if !discarded {
		plan := ex.Plan(uses)
		index := map[string]int{}
		for i, u := range uses {
			index[u.ID] = i
		}
		before := 0 // modifiers applied by earlier batches
		upTo := 0   // modifiers of every earlier call
		for _, b := range plan {
			for _, id := range b.IDs {
				n, ran := seen[id]
				if ran && (n < before || n > upTo+countIn(wantApplied, b.IDs, id)) {
					problems = append(problems, fmt.Sprintf("%s saw %d modifiers, want %d..%d", id, n, before, upTo))
				}
				if ran && !m.streaming && n != before {
					problems = append(problems, fmt.Sprintf("%s saw %d modifiers, want exactly %d", id, n, before))
				}
			}
			for _, id := range b.IDs {
				if slices.Contains(wantApplied, id) {
					before++
					upTo++
				}
			}
		}
	}
	return problems
}

// countIn counts the applied modifiers of the calls of ids before id.
func countIn(applied, ids []string, id string) int {
	n := 0
	for _, x := range ids {
		if x == id {
			break
		}
		if slices.Contains(applied, x) {
			n++
		}
	}
	return n
}

func isSubsequence(sub, of []string) bool {
	j := 0
	for _, x := range of {
		if j < len(sub) && sub[j] == x {
			j++
		}
	}
	return j == len(sub)
}

var _ = Describe("random call mixes", Label("property"), func() {
	It("keep call order, never overlap unsafe calls, respect the cap, yield one result per call and apply every modifier once in order", func() {
		n := 10000
		if v, err := strconv.Atoi(os.Getenv("AGENTCORE_PROPERTY_MIXES")); err == nil && v > 0 {
			n = v
		}
		seed := uint64(GinkgoRandomSeed())
		for i := range n {
			r := rand.New(rand.NewPCG(seed, uint64(i)))
			m := randomMix(r)
			if problems := checkMix(m); len(problems) > 0 {
				Fail(fmt.Sprintf("mix %d (seed %d, streaming=%v, cap %d, interrupt@%d cancel@%d discard@%d timeout=%v) %v:\n%v",
					i, seed, m.streaming, m.limit, m.interruptAt, m.cancelAt, m.discardAt, m.timeout, describeMix(m), problems))
			}
		}
	})
})

func describeMix(m mix) []string {
	out := make([]string, len(m.calls))
	for i, c := range m.calls {
		out[i] = c.use.ID + ":" + c.use.Name + string(c.use.Input)
	}
	return out
}
