package agent_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/provider"
	anthropicprovider "github.com/agentcore/agentcore/runtime/provider/anthropic"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// toolTurn answers with one no-op tool call; doneTurn ends the turn.
func toolTurn(s *sse, _ map[string]any) {
	s.start()
	s.tool("toolu_noop", "Noop", `{"summary":"noop"}`)
	s.stop("tool_use")
}

func doneTurn(s *sse, _ map[string]any) {
	s.start()
	s.text("done")
	s.stop("end_turn")
}

// gaps returns, for every request that follows a tool_use response, the
// time from that response's message_stop to the request's arrival.
func (f *fakeAPI) gaps() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []time.Duration
	for i := 0; i+1 < len(f.arrived) && i < len(f.streamed); i += 2 {
		out = append(out, f.arrived[i+1].Sub(f.streamed[i]))
	}
	return out
}

func reportGap(b *testing.B, api *fakeAPI) {
	var sum time.Duration
	g := api.gaps()
	for _, d := range g {
		sum += d
	}
	if len(g) > 0 {
		b.ReportMetric(float64(sum.Nanoseconds())/float64(len(g)), "ns/gap")
	}
}

// BenchmarkStreamEndToNextRequest: the agent loop, from the end of a
// model stream with one tool call to the next request (tool run, result
// collected, history extended, request built and sent).
func BenchmarkStreamEndToNextRequest(b *testing.B) {
	api := newFakeAPI(toolTurn, doneTurn)
	api.cycle = true
	defer api.Close()
	b.Setenv("ANTHROPIC_API_KEY", "test")
	b.Setenv("ANTHROPIC_BASE_URL", api.URL())
	p := anthropicprovider.New("fake-model", option.WithMaxRetries(0))
	tools := []runtime.Tool{&tooltest.Sim{ToolName: "Noop", Safe: true}}
	tc := runtime.NewToolContext(b.TempDir())
	b.ResetTimer()
	for range b.N {
		ag := agent.New(agent.Config{Provider: p, Tools: agent.List(tools)}, tc)
		if out := ag.Run(context.Background(), "go"); out.Err != nil {
			b.Fatal(out.Err)
		}
	}
	b.StopTimer()
	reportGap(b, api)
}

// BenchmarkStreamEndToNextRequestBaseline: the same two requests sent
// through the same provider with no loop in between — the second request
// (history with the tool result) is prebuilt and sent the moment the first
// stream ends. The floor the loop's gap is compared with: what remains is
// the loop's own work (run the call, collect the result, extend the
// history).
func BenchmarkStreamEndToNextRequestBaseline(b *testing.B) {
	api := newFakeAPI(toolTurn, doneTurn)
	api.cycle = true
	defer api.Close()
	b.Setenv("ANTHROPIC_API_KEY", "test")
	b.Setenv("ANTHROPIC_BASE_URL", api.URL())
	p := anthropicprovider.New("fake-model", option.WithMaxRetries(0))
	tools := provider.ToolsOf([]runtime.Tool{&tooltest.Sim{ToolName: "Noop", Safe: true}})
	first := provider.Request{Tools: tools, Messages: []provider.Message{{Role: provider.User, Content: []provider.Block{provider.Text("go")}}}}
	second := first
	second.Messages = append(append([]provider.Message(nil), first.Messages...),
		provider.Message{Role: provider.Assistant, Content: []provider.Block{provider.ToolUse("toolu_noop", "Noop", json.RawMessage(`{"summary":"noop"}`))}},
		provider.Message{Role: provider.User, Content: []provider.Block{provider.ToolResult("toolu_noop", runtime.Result{Content: []runtime.Block{runtime.TextBlock("Noop done")}})}})
	b.ResetTimer()
	for range b.N {
		for _, req := range []provider.Request{first, second} {
			for _, err := range p.Stream(context.Background(), req) {
				if err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.StopTimer()
	reportGap(b, api)
}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// agentcoreBinary builds cmd/agentcore once.
func agentcoreBinary(b *testing.B) string {
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "agentcore-bench")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "agentcore")
		root, _ := filepath.Abs("../..")
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/agentcore")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // static, as make build and make release build it
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = err
			b.Logf("build: %s", out)
		}
	})
	if buildErr != nil {
		b.Fatal(buildErr)
	}
	return binPath
}

// BenchmarkProcessStartToFirstRequest: from starting `agentcore run` to
// its first request arriving at the API (flag parsing, settings, tool
// pool, permission engine, SDK client, request encoding).
func BenchmarkProcessStartToFirstRequest(b *testing.B) {
	bin := agentcoreBinary(b)
	arrivals := make(chan time.Time, 1)
	api := newFakeAPI(doneTurn)
	api.cycle = true
	api.onArrive = func(_ int, at time.Time) { arrivals <- at }
	defer api.Close()
	home := b.TempDir()
	env := append(os.Environ(), "ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL="+api.URL(), "HOME="+home, "AGENTCORE_CONFIG_DIR="+home)
	var total time.Duration
	b.ResetTimer()
	for range b.N {
		cmd := exec.Command(bin, "run", "--model", "anthropic:fake-model", "-p", "hi", "--output-format", "json")
		cmd.Env, cmd.Dir = env, home
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		start := time.Now()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		at := <-arrivals
		total += at.Sub(start)
		if err := cmd.Wait(); err != nil {
			b.Fatalf("%v: %s", err, out.String())
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(total.Nanoseconds())/float64(b.N), "ns/first-request")
}

// BenchmarkProcessStartBaseline: starting the same binary for `version`
// and waiting for it to exit: the process-spawn and Go-start floor.
func BenchmarkProcessStartBaseline(b *testing.B) {
	bin := agentcoreBinary(b)
	var total time.Duration
	b.ResetTimer()
	for range b.N {
		cmd := exec.Command(bin, "version")
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		total += time.Since(start)
	}
	b.StopTimer()
	b.ReportMetric(float64(total.Nanoseconds())/float64(b.N), "ns/first-request")
}
