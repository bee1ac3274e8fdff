package agent_test

import (
	"context"
	"fmt"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// The loop sends the conversation and the tools, runs the calls the
// model makes as their blocks finish streaming, sends the results back,
// and stops when the model ends its turn. (runtime/session assembles all
// of this, permissions and MCP included; this is the loop alone.)
func ExampleAgent_Run() {
	sc, _ := replay.Parse([]byte(`{"prompt":"look"}
{"blocks":[{"type":"text","text":"Looking."},{"type":"tool_use","id":"t1","name":"Glob","input":{"output":"main.go"}}]}
{"blocks":[{"type":"text","text":"There is one Go file."}]}`))
	ag := agent.New(agent.Config{
		Provider:   replay.New(sc, replay.Options{}),
		Tools:      agent.List{&tooltest.Sim{ToolName: "Glob", Safe: true}},
		CanUseTool: orchestrate.AllowAll,
		Observer: func(ev agent.Event) {
			if ev.Kind == agent.EventToolResult {
				fmt.Println(ev.Name, "→", ev.Call.Result.Text())
			}
		},
	}, runtime.NewToolContext("."))
	out := ag.Run(context.Background(), sc.Prompt)
	fmt.Println(out.Stop, out.Turns, out.Text)
	// Output:
	// Glob → main.go
	// end_turn 2 There is one Go file.
}
