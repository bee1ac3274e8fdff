package e2e

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/server/temporaltest"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime/agent"
	durable "github.com/agentcore/agentcore/runtime/durable/temporal"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/session"
)

var (
	benchOnce   sync.Once
	benchServer *temporaltest.TestServer
)

// quiet drops the workers' logs: a local session logs nothing either.
var quiet = slog.New(slog.DiscardHandler)

// benchClient starts one in-process server for the benchmarks.
func benchClient(b *testing.B) client.Client {
	benchOnce.Do(func() { benchServer = temporaltest.NewServer() })
	return benchServer.GetDefaultClient()
}

// threeReads is one model request calling Read three times, then the
// answer.
func threeReads(b *testing.B) (*replay.Scenario, string) {
	dir := b.TempDir()
	var blocks []string
	for i, name := range []string{"a.txt", "b.txt", "c.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Repeat("line\n", 50)), 0o644); err != nil {
			b.Fatal(err)
		}
		blocks = append(blocks, fmt.Sprintf(`{"type":"tool_use","id":"r%d","name":"Read","input":{"file_path":%q}}`, i, filepath.Join(dir, name)))
	}
	sc, err := replay.Parse([]byte(`{"name":"reads"}` + "\n" + `{"blocks":[` + strings.Join(blocks, ",") + `]}` + "\n" + `{"blocks":[{"type":"text","text":"read"}]}`))
	if err != nil {
		b.Fatal(err)
	}
	return sc, dir
}

// BenchmarkTurn runs one turn (one model request calling Read three
// times, then the closing answer) as a local session and as a durable
// session on an in-process Temporal server with one in-process worker,
// alternating which goes first, and reports each one's time per turn, the
// durable turn's overhead and the ratio of the two.
func BenchmarkTurn(b *testing.B) {
	c := benchClient(b)
	sc, dir := threeReads(b)
	tools := generated.AllBaseTools()
	p := durable.NewScript(sc, replay.Options{})
	queue := fmt.Sprintf("bench-%d", time.Now().UnixNano())
	w, err := durable.NewWorker(c, durable.WorkerOptions{TaskQueue: queue, Workspace: "w", StateDir: b.TempDir(),
		Tools: tools, Provider: p, Permissions: permission.Sources{Mode: permission.ModeBypass, ConfigDir: b.TempDir()},
		Logger: quiet})
	if err != nil {
		b.Fatal(err)
	}
	if err := w.Start(); err != nil {
		b.Fatal(err)
	}
	defer w.Stop()
	ctx := context.Background()
	local := func() {
		s, err := session.Open(ctx, session.Options{Dir: dir, Tools: tools, Provider: p,
			Permissions: permission.Sources{Mode: permission.ModeBypass, ConfigDir: b.TempDir()}})
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		for ev := range s.Run(ctx, "read") {
			if ev.Kind == agent.EventDone && ev.Outcome.Stop != agent.StopEndTurn {
				b.Fatalf("stopped with %s: %v", ev.Outcome.Stop, ev.Outcome.Err)
			}
		}
	}
	i := 0
	durableTurn := func() {
		i++
		id := fmt.Sprintf("%s-%d", queue, i)
		if _, err := durable.Start(ctx, c, id, "read", durable.Options{TaskQueue: queue, Dir: dir}); err != nil {
			b.Fatal(err)
		}
		out, err := durable.Wait(ctx, c, id)
		if err != nil || out.Stop != "end_turn" || len(out.Messages) != 4 {
			b.Fatalf("session %s: %v %+v", id, err, out)
		}
	}
	timed := func(f func()) time.Duration {
		t0 := time.Now()
		f()
		return time.Since(t0)
	}
	var tl, td time.Duration
	for b.Loop() {
		if i%2 == 0 {
			tl += timed(local)
			td += timed(durableTurn)
		} else {
			td += timed(durableTurn)
			tl += timed(local)
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(tl.Microseconds())/1000/n, "ms/local-turn")
	b.ReportMetric(float64(td.Microseconds())/1000/n, "ms/durable-turn")
	b.ReportMetric(float64((td-tl).Microseconds())/1000/n, "ms-overhead/turn")
	b.ReportMetric(float64(td)/float64(tl), "x-local")
}

// sessionsPerOp is how many sessions one op of BenchmarkTwoWorkers starts
// at once.
const sessionsPerOp = 20

// BenchmarkTwoWorkers starts sessionsPerOp sessions at once on two
// in-process workers (each session: one model request with a Bash call,
// then the answer) and waits for them all; it reports sessions/s.
func BenchmarkTwoWorkers(b *testing.B) {
	c := benchClient(b)
	sc, err := replay.Parse([]byte(`{"name":"many"}` + "\n" +
		`{"blocks":[{"type":"tool_use","id":"g1","name":"Bash","input":{"command":"echo hi > hi.txt","description":"write"}}]}` + "\n" +
		`{"blocks":[{"type":"text","text":"ok"}]}`))
	if err != nil {
		b.Fatal(err)
	}
	queue := fmt.Sprintf("bench2-%d", time.Now().UnixNano())
	for _, ws := range []string{"one", "two"} {
		w, err := durable.NewWorker(c, durable.WorkerOptions{TaskQueue: queue, Workspace: ws, StateDir: b.TempDir(),
			Tools: generated.AllBaseTools(), Provider: durable.NewScript(sc, replay.Options{}),
			Permissions: permission.Sources{Mode: permission.ModeBypass, ConfigDir: b.TempDir()}, Logger: quiet})
		if err != nil {
			b.Fatal(err)
		}
		if err := w.Start(); err != nil {
			b.Fatal(err)
		}
		defer w.Stop()
	}
	ctx := context.Background()
	i := 0
	for b.Loop() {
		var wg sync.WaitGroup
		errs := make(chan error, sessionsPerOp)
		for range sessionsPerOp {
			i++
			id := fmt.Sprintf("%s-%d", queue, i)
			if _, err := durable.Start(ctx, c, id, "go", durable.Options{TaskQueue: queue}); err != nil {
				b.Fatal(err)
			}
			wg.Go(func() {
				out, err := durable.Wait(ctx, c, id)
				if err == nil && out.Stop != "end_turn" {
					err = fmt.Errorf("session %s stopped with %s: %s", id, out.Stop, out.Error)
				}
				if err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*sessionsPerOp)/b.Elapsed().Seconds(), "sessions/s")
}
