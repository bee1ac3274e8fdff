package orchestrate_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// callsPerRun is how many no-op calls one run of the overhead benchmarks
// makes; the figures are per call.
const callsPerRun = 64

func noopCalls(n int) []orchestrate.ToolUse {
	calls := make([]orchestrate.ToolUse, n)
	for i := range calls {
		calls[i] = orchestrate.ToolUse{ID: "c" + strconv.Itoa(i), Name: "NoOp", Input: json.RawMessage(`{}`)}
	}
	return calls
}

// BenchmarkOverhead measures the runtime's per-call cost with no-op tools,
// against a bare goroutine-per-call baseline in the same run. Read ns/call.
//
//	go test ./runtime/orchestrate -run '^$' -bench Overhead -benchmem
func BenchmarkOverhead(b *testing.B) {
	tc := runtime.NewToolContext(".")
	calls := noopCalls(callsPerRun)
	// perCall reports wall and CPU time per call: on a loaded machine the
	// CPU time (user+sys of this process) is the steadier figure.
	var cpu0 time.Duration
	perCall := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*callsPerRun), "ns/call")
		b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N*callsPerRun), "cpu-ns/call")
	}
	start := func() { cpu0 = cpuTime() }

	b.Run("baseline=goroutine-per-call", func(b *testing.B) {
		tool := &tooltest.NoOp{Safe: true}
		ctx := context.Background()
		results := make([]runtime.Result, callsPerRun)
		start()
		for b.Loop() {
			var wg sync.WaitGroup
			for i := range callsPerRun {
				wg.Go(func() {
					in, _ := tool.Decode(calls[i].Input)
					results[i], _ = tool.Call(ctx, in, nil)
				})
			}
			wg.Wait()
		}
		perCall(b)
	})
	for _, safe := range []bool{true, false} {
		ex := &orchestrate.Executor{Tools: []runtime.Tool{&tooltest.NoOp{Safe: safe}}}
		kind := map[bool]string{true: "safe", false: "unsafe"}[safe]
		b.Run("batch/"+kind, func(b *testing.B) {
			start()
			for b.Loop() {
				n := 0
				for range ex.RunTools(context.Background(), calls, tc) {
					n++
				}
				if n != callsPerRun {
					b.Fatalf("%d results", n)
				}
			}
			perCall(b)
		})
		b.Run("streaming/"+kind, func(b *testing.B) {
			start()
			for b.Loop() {
				s := orchestrate.NewStreaming(context.Background(), ex, tc)
				for _, c := range calls {
					_ = s.Add(c)
				}
				n := 0
				for range s.Results() {
					n++
				}
				if n != callsPerRun {
					b.Fatalf("%d results", n)
				}
			}
			perCall(b)
		})
	}
}

// scenarioScale is the time scale of BenchmarkScenario: 1 is the seed's
// real scenario (1 s tools, 400 ms apart); the default 0.05 keeps go test
// fast. Set AGENTCORE_BENCH_SCENARIO_SCALE=1 for the real thing.
func scenarioScale() float64 {
	if v, err := strconv.ParseFloat(os.Getenv("AGENTCORE_BENCH_SCENARIO_SCALE"), 64); err == nil && v > 0 {
		return v
	}
	return 0.05
}

// BenchmarkScenario is the seed's scenario: the model streams five tool
// calls 400 ms apart (for 2 s), each tool takes 1 s. It reports each path's
// wall time as a ratio to the critical-path lower bound: all-safe, last
// arrival + 1 s; all-unsafe, first arrival + 5 s.
//
//	AGENTCORE_BENCH_SCENARIO_SCALE=1 go test ./runtime/orchestrate -run '^$' -bench Scenario -benchtime 3x
func BenchmarkScenario(b *testing.B) {
	scale := scenarioScale()
	toolDur := time.Duration(float64(time.Second) * scale)
	gap := time.Duration(float64(400*time.Millisecond) * scale)
	const n = 5
	for _, safe := range []bool{true, false} {
		mix := map[bool]string{true: "all-safe", false: "all-unsafe"}[safe]
		ex := &orchestrate.Executor{Tools: []runtime.Tool{&tooltest.Sim{ToolName: "Work", Safe: safe}}}
		calls := make([]orchestrate.ToolUse, n)
		for i := range calls {
			calls[i] = orchestrate.ToolUse{ID: fmt.Sprint(i), Name: "Work",
				Input: fmt.Appendf(nil, `{"sleep_ms":%g}`, float64(toolDur)/float64(time.Millisecond))}
		}
		bound := gap*n + toolDur // last arrival + one tool
		if !safe {
			bound = gap + n*toolDur // first arrival + all tools in a row
		}
		for _, mode := range []string{"streaming", "batch"} {
			b.Run(mix+"/"+mode, func(b *testing.B) {
				var total time.Duration
				for b.Loop() {
					total += runScenario(ex, calls, gap, mode == "streaming")
				}
				wall := total / time.Duration(b.N)
				b.ReportMetric(float64(wall)/float64(bound), "x-bound")
				b.ReportMetric(float64(wall)/float64(time.Millisecond), "wall-ms")
				b.ReportMetric(float64(bound)/float64(time.Millisecond), "bound-ms")
				b.ReportMetric(float64(wall-bound)/float64(time.Millisecond), "over-bound-ms")
			})
		}
	}
}

// runScenario streams calls gap apart and returns the wall time from the
// start of the stream to the last result.
func runScenario(ex *orchestrate.Executor, calls []orchestrate.ToolUse, gap time.Duration, streaming bool) time.Duration {
	tc := runtime.NewToolContext(".")
	begin := time.Now()
	count := 0
	if streaming {
		s := orchestrate.NewStreaming(context.Background(), ex, tc)
		for i, c := range calls {
			time.Sleep(time.Until(begin.Add(gap * time.Duration(i+1))))
			_ = s.Add(c)
		}
		for range s.Results() {
			count++
		}
	} else {
		time.Sleep(time.Until(begin.Add(gap * time.Duration(len(calls)))))
		for range ex.RunTools(context.Background(), calls, tc) {
			count++
		}
	}
	if count != len(calls) {
		panic("scenario lost results")
	}
	return time.Since(begin)
}

// cpuTime is the user+system CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
