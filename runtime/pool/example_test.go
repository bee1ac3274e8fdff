package pool_test

import (
	"fmt"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/pool"
)

// The CLI assembles the pool from generated.AllBaseTools() and the MCP
// manager's tools, with the permission engine's blanket denies and the
// tool-search mode, registers it for ToolSearch, and sends Sent(loaded)
// plus DeferredPrompt() every turn.
func ExampleAssemble() {
	getenv := func(string) string { return "" }          // os.Getenv in the CLI
	mode, err := pool.ResolveDeferMode(getenv, "always") // the toolSearch setting
	if err != nil {
		fmt.Println(err)
		return
	}
	base := named("Read", "Bash", "ToolSearch", "Write")
	mcp := named("mcp__github__list_issues", "mcp__github__create_issue")
	p := pool.Assemble(base, mcp, pool.Options{
		SearchTool: "ToolSearch",
		Defer:      mode,
		DenyTool:   func(t runtime.Tool) bool { return t.Name() == "Write" }, // engine.DeniesTool
	})

	tc := runtime.NewToolContext(".")
	pool.Provide(tc, p) // ToolSearch finds the pool here

	fmt.Println("sent:    ", names(p.Sent(pool.LoadedIn(tc))))
	fmt.Println("deferred:", p.DeferredNames())

	// ToolSearch's context modifier loads what it found.
	pool.MarkLoaded("mcp__github__create_issue")(tc)
	fmt.Println("sent:    ", names(p.Sent(pool.LoadedIn(tc))))
	// Output:
	// sent:     [Bash Read ToolSearch]
	// deferred: [mcp__github__create_issue mcp__github__list_issues]
	// sent:     [Bash Read ToolSearch mcp__github__create_issue]
}
