package e2e

import (
	"context"
	"fmt"
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

// BenchmarkLocalTurn runs the turn (and the closing answer) in a local
// session.
func BenchmarkLocalTurn(b *testing.B) {
	sc, dir := threeReads(b)
	p := durable.NewScript(sc, replay.Options{})
	tools := generated.AllBaseTools()
	ctx := context.Background()
	for b.Loop() {
		s, err := session.Open(ctx, session.Options{Dir: dir, Tools: tools, Provider: p,
			Permissions: permission.Sources{Mode: permission.ModeBypass, ConfigDir: b.TempDir()}})
		if err != nil {
			b.Fatal(err)
		}
		for ev := range s.Run(ctx, "read") {
			if ev.Kind == agent.EventDone && ev.Outcome.Stop != agent.StopEndTurn {
				b.Fatalf("stopped with %s: %v", ev.Outcome.Stop, ev.Outcome.Err)
			}
		}
		s.Close()
	}
}

// BenchmarkDurableTurn runs the same turn as a durable session on an
// in-process Temporal server with one in-process worker.
func BenchmarkDurableTurn(b *testing.B) {
	c := benchClient(b)
	sc, dir := threeReads(b)
	queue := fmt.Sprintf("bench-%d", time.Now().UnixNano())
	w, err := durable.NewWorker(c, durable.WorkerOptions{TaskQueue: queue, Workspace: "w", StateDir: b.TempDir(),
		Tools: generated.AllBaseTools(), Provider: durable.NewScript(sc, replay.Options{}),
		Permissions: permission.Sources{Mode: permission.ModeBypass, ConfigDir: b.TempDir()}})
	if err != nil {
		b.Fatal(err)
	}
	if err := w.Start(); err != nil {
		b.Fatal(err)
	}
	defer w.Stop()
	ctx := context.Background()
	i := 0
	for b.Loop() {
		i++
		id := fmt.Sprintf("%s-%d", queue, i)
		if _, err := durable.Start(ctx, c, id, "read", durable.Options{TaskQueue: queue, Dir: dir}); err != nil {
			b.Fatal(err)
		}
		out, err := durable.Wait(ctx, c, id)
		if err != nil || out.Stop != "end_turn" {
			b.Fatalf("session %s: %v %+v", id, err, out)
		}
	}
}
