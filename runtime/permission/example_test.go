package permission_test

import (
	"context"
	"fmt"
	"os"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/permission"
)

// The CLI loads the engine once per session from the settings files and
// the rules of its flags, gives it a prompt when stdin is a terminal, and hands
// CanUseTool to the orchestrator.
func ExampleLoad() {
	project, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(project)
	home, _ := os.MkdirTemp("", "home")
	defer os.RemoveAll(home)

	// The CLI's --allowedTools "Bash(git status:*) Bash(go test:*)" and
	// --disallowedTools "Bash(rm:*)", parsed into rules.
	allow, _ := permission.ParseRules(permission.SplitRuleList("Bash(git status:*) Bash(go test:*)"), runtime.Allow, permission.SourceFlag, "--allowedTools")
	deny, _ := permission.ParseRules([]string{"Bash(rm:*)"}, runtime.Deny, permission.SourceFlag, "--disallowedTools")
	engine, err := permission.Load(project, home, permission.Sources{
		SettingsFiles: true,
		Rules:         append(allow, deny...),
		Mode:          permission.ModeDefault,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Non-interactive: every "ask" becomes a deny that says how to allow it.
	engine.SetAsker(ask.NonInteractive{})

	bash := &fakeTool{name: "Bash", kind: runtime.TargetCommand}
	tc := runtime.NewToolContext(project)
	for _, cmd := range []string{"git status && go test ./...", "git status; rm -rf /", "git status; make"} {
		d := engine.CanUseTool(context.Background(), bash, cmd, tc)
		fmt.Printf("%-28s %s\n", cmd, d.Behavior)
	}
	// Output:
	// git status && go test ./...  allow
	// git status; rm -rf /         deny
	// git status; make             deny
}
