//go:build unix

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
		kind := "unsafe"
		if safe {
			kind = "safe"
		}
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
		mix := "all-unsafe"
		if safe {
			mix = "all-safe"
		}
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
		for _, mode := range []string{"oracle", "streaming", "batch"} {
			b.Run(mix+"/"+mode, func(b *testing.B) {
				var total, excess time.Duration
				best := time.Duration(1 << 62)
				for b.Loop() {
					var wall, ideal time.Duration
					if mode == "oracle" {
						wall = runOracle(ex.Tools[0], calls, gap, safe)
						ideal = wall
					} else {
						wall, ideal = runScenario(ex, calls, gap, mode == "streaming", safe)
					}
					total += wall
					excess += wall - ideal
					best = min(best, wall)
				}
				b.ReportMetric(float64(excess)/float64(b.N)/float64(time.Millisecond), "sched-ms")
				wall := total / time.Duration(b.N)
				b.ReportMetric(float64(wall)/float64(bound), "x-bound")
				b.ReportMetric(float64(best)/float64(bound), "best-x-bound")
				b.ReportMetric(float64(wall)/float64(time.Millisecond), "wall-ms")
				b.ReportMetric(float64(bound)/float64(time.Millisecond), "bound-ms")
				b.ReportMetric(float64(wall-bound)/float64(time.Millisecond), "over-bound-ms")
			})
		}
	}
}

// runOracle is the ideal schedule written by hand, measured in the same
// run as a check on the machine's own timing noise: with every call safe
// each starts the moment it arrives; with none safe they run back to back
// from the first arrival. No validation, permission or ordering.
func runOracle(tool runtime.Tool, calls []orchestrate.ToolUse, gap time.Duration, safe bool) time.Duration {
	begin := time.Now()
	ctx := context.Background()
	var wg sync.WaitGroup
	if safe {
		for i, c := range calls {
			time.Sleep(time.Until(begin.Add(gap * time.Duration(i+1))))
			in, _ := tool.Decode(c.Input)
			wg.Go(func() { _, _ = tool.Call(ctx, in, nil) })
		}
	} else {
		arrived := make(chan orchestrate.ToolUse, len(calls))
		wg.Go(func() {
			for c := range arrived {
				in, _ := tool.Decode(c.Input)
				_, _ = tool.Call(ctx, in, nil)
			}
		})
		for i, c := range calls {
			time.Sleep(time.Until(begin.Add(gap * time.Duration(i+1))))
			arrived <- c
		}
		close(arrived)
	}
	wg.Wait()
	return time.Since(begin)
}

// runScenario streams calls gap apart and returns the wall time from the
// start of the stream to the last result, and the ideal wall time of the
// same run: the critical path computed from the calls' actual arrival
// times and actual running times. wall − ideal is what the executor's
// scheduling added (timer and CPU noise of the machine cancels out).
func runScenario(ex *orchestrate.Executor, calls []orchestrate.ToolUse, gap time.Duration, streaming, safe bool) (wall, ideal time.Duration) {
	tc := runtime.NewToolContext(".")
	begin := time.Now()
	arrivals := make([]time.Duration, len(calls))
	var evs []orchestrate.Event
	if streaming {
		s := orchestrate.NewStreaming(context.Background(), ex, tc)
		for i, c := range calls {
			time.Sleep(time.Until(begin.Add(gap * time.Duration(i+1))))
			arrivals[i] = time.Since(begin)
			_ = s.Add(c)
		}
		for ev := range s.Results() {
			evs = append(evs, ev)
		}
	} else {
		for i := range calls {
			arrivals[i] = gap * time.Duration(i+1)
		}
		time.Sleep(time.Until(begin.Add(gap * time.Duration(len(calls)))))
		for ev := range ex.RunTools(context.Background(), calls, tc) {
			evs = append(evs, ev)
		}
	}
	wall = time.Since(begin)
	if len(evs) != len(calls) {
		panic("scenario lost results")
	}
	var chain time.Duration
	for i, ev := range evs {
		dur := ev.Ended.Sub(ev.Started)
		if safe {
			ideal = max(ideal, arrivals[i]+dur)
		} else {
			chain = max(chain, arrivals[i]) + dur
			ideal = chain
		}
	}
	return wall, ideal
}

// cpuTime is the user+system CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
