package session_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/session"
)

// A program opens a session with its tools (here one hand-written tool;
// usually generated.AllBaseTools() too) and a model, and ranges over the
// events of a prompt.
func ExampleSession_Run() {
	dir, _ := os.MkdirTemp("", "session")
	defer os.RemoveAll(dir)
	sc, _ := replay.Parse([]byte(`{"prompt":"greet"}
{"blocks":[{"type":"tool_use","id":"t1","name":"Greet","input":{"name":"Ada"}}]}
{"blocks":[{"type":"text","text":"I greeted Ada."}]}`))
	ctx := context.Background()
	s, err := session.Open(ctx, session.Options{
		Dir: dir, Home: dir,
		Tools:    []runtime.Tool{greet()},
		Provider: replay.New(sc, replay.Options{}),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	for ev := range s.Run(ctx, sc.Prompt) {
		switch ev.Kind {
		case agent.EventToolResult:
			fmt.Println(ev.Name, "→", ev.Call.Result.Text())
		case agent.EventDone:
			fmt.Println(ev.Outcome.Text)
		}
	}
	// Output:
	// Greet → Hello, Ada!
	// I greeted Ada.
}

// Exec runs tool calls directly, as the model would make them.
func ExampleSession_Exec() {
	dir, _ := os.MkdirTemp("", "session")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	s, err := session.Open(ctx, session.Options{Dir: dir, Home: dir, Tools: []runtime.Tool{greet()}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	for ev := range s.Exec(ctx, []orchestrate.ToolUse{
		{ID: "a", Name: "Greet", Input: json.RawMessage(`{"name":"Ada"}`)},
		{ID: "b", Name: "Greet", Input: json.RawMessage(`{"nom":"Bob"}`)},
	}) {
		fmt.Println(ev.ID, ev.Result.IsError, ev.Result.Text())
	}
	// Output:
	// a false Hello, Ada!
	// b true InputValidationError: Greet failed due to the following issue: name: required
}

func greet() runtime.Tool {
	type in struct{ Name string }
	return runtime.Define(runtime.Definition[in]{
		Name:        "Greet",
		Description: "Greet says hello to someone.",
		Decode: func(raw json.RawMessage) (in, error) {
			var v struct {
				Name string `json:"name"`
			}
			if err := json.Unmarshal(raw, &v); err != nil || v.Name == "" {
				return in{}, fmt.Errorf("name: required")
			}
			return in{Name: v.Name}, nil
		},
		Call: func(_ context.Context, i in, _ *runtime.Call) (runtime.Result, error) {
			return runtime.Result{Content: []runtime.Block{runtime.TextBlock("Hello, " + i.Name + "!")}}, nil
		},
		ReadOnly: true, ConcurrencySafe: true,
	})
}
