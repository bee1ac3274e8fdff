package orchestrate_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// RunTools partitions the calls into batches (consecutive safe calls run
// in parallel, an unsafe one alone) and yields one result per call, in
// the calls' order, whatever order they finish in.
func ExampleExecutor_RunTools() {
	ex := &orchestrate.Executor{
		Tools: []runtime.Tool{
			&tooltest.Sim{ToolName: "Read", Safe: true},
			&tooltest.Sim{ToolName: "Edit"},
		},
		CanUseTool: orchestrate.AllowAll,
	}
	calls := []orchestrate.ToolUse{
		{ID: "1", Name: "Read", Input: json.RawMessage(`{"sleep_ms":20,"output":"slow read"}`)},
		{ID: "2", Name: "Read", Input: json.RawMessage(`{"output":"fast read"}`)},
		{ID: "3", Name: "Edit", Input: json.RawMessage(`{"output":"edited"}`)},
		{ID: "4", Name: "Nope"},
	}
	for _, b := range ex.Plan(calls) {
		fmt.Println("batch", b.IDs, "parallel:", b.ConcurrencySafe)
	}
	for ev := range ex.RunTools(context.Background(), calls, runtime.NewToolContext(".")) {
		if ev.Kind == orchestrate.EventResult {
			fmt.Println(ev.ID, ev.Result.Text())
		}
	}
	// Output:
	// batch [1 2] parallel: true
	// batch [3] parallel: false
	// batch [4] parallel: false
	// 1 slow read
	// 2 fast read
	// 3 edited
	// 4 Error: No such tool available: Nope
}
