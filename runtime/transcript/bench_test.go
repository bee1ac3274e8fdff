package transcript_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/transcript"
)

// A turn as the loop records it: an assistant message with text and two
// calls, their results (2 KB each), and the sync at the turn's end.
func BenchmarkTurn(b *testing.B) {
	store := transcript.Store{Root: filepath.Join(b.TempDir(), "projects")}
	w, err := store.Create(transcript.Meta{SessionID: runtime.NewUUID(), Cwd: "/work/project", Version: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	asst := provider.Message{Role: provider.Assistant, Content: []provider.Block{
		provider.Text("Reading both files."),
		provider.ToolUse("t1", "Read", json.RawMessage(`{"file_path":"/work/project/a.go"}`)),
		provider.ToolUse("t2", "Read", json.RawMessage(`{"file_path":"/work/project/b.go"}`)),
	}}
	body := runtime.Result{Content: []runtime.Block{runtime.TextBlock(strings.Repeat("package main // line\n", 100))}}
	res := provider.Message{Role: provider.User, Content: []provider.Block{provider.ToolResult("t1", body), provider.ToolResult("t2", body)}}
	b.ResetTimer()
	for range b.N {
		w.Add(asst)
		w.Add(res)
		w.TurnEnd()
	}
	if err := w.Err(); err != nil {
		b.Fatal(err)
	}
}

// The same turn without the sync: what the appends cost alone.
func BenchmarkTurnNoSync(b *testing.B) {
	store := transcript.Store{Root: filepath.Join(b.TempDir(), "projects")}
	w, _ := store.Create(transcript.Meta{SessionID: runtime.NewUUID(), Cwd: "/work/project"})
	defer w.Close()
	asst := provider.Message{Role: provider.Assistant, Content: []provider.Block{provider.Text("Reading."),
		provider.ToolUse("t1", "Read", json.RawMessage(`{"file_path":"/work/project/a.go"}`))}}
	body := runtime.Result{Content: []runtime.Block{runtime.TextBlock(strings.Repeat("package main // line\n", 100))}}
	res := provider.Message{Role: provider.User, Content: []provider.Block{provider.ToolResult("t1", body), provider.ToolResult("t2", body)}}
	for range b.N {
		w.Add(asst)
		w.Add(res)
	}
}

// Loading a 200-turn transcript, as -c does before the first request.
func BenchmarkLoad(b *testing.B) {
	store := transcript.Store{Root: filepath.Join(b.TempDir(), "projects")}
	id := runtime.NewUUID()
	w, _ := store.Create(transcript.Meta{SessionID: id, Cwd: "/work/project"})
	body := runtime.Result{Content: []runtime.Block{runtime.TextBlock(strings.Repeat("package main // line\n", 100))}}
	for i := range 200 {
		id := "t" + string(rune('a'+i%26))
		w.Add(provider.Message{Role: provider.Assistant, Content: []provider.Block{provider.ToolUse(id, "Read", json.RawMessage(`{}`))}})
		w.Add(provider.Message{Role: provider.User, Content: []provider.Block{provider.ToolResult(id, body)}})
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, _, err := transcript.Load(store.Path("/work/project", id)); err != nil {
			b.Fatal(err)
		}
	}
}
