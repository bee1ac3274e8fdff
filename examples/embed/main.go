// Command embed is an agent built on agentcore: the built-in tools plus
// two of its own (package tools), a session, and a replay model.
package main

//go:generate go tool toolgen -dir tools -out gen

import (
	"context"
	_ "embed"
	"fmt"
	"log"
	"os"

	"github.com/agentcore/agentcore/examples/embed/gen"
	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/session"
)

//go:embed scenario.jsonl
var scenario []byte

func main() {
	ctx := context.Background()
	sc, err := replay.Parse(scenario)
	check(err)
	cwd, _ := os.Getwd()
	s, err := session.Open(ctx, session.Options{
		Tools:    append(generated.AllBaseTools(), gen.AllBaseTools()...),
		Provider: replay.New(sc, replay.Options{Cwd: cwd}),
	})
	check(err)
	defer s.Close()
	for ev := range s.Run(ctx, sc.Prompt) {
		switch ev.Kind {
		case agent.EventToolResult:
			fmt.Printf("%s(%s) → %s\n", ev.Name, ev.Tool.RenderUse(ev.Input), ev.Call.Result.Text())
		case agent.EventDone:
			fmt.Printf("%s\n(%d turns, %d tool calls)\n", ev.Outcome.Text, ev.Outcome.Turns, ev.Outcome.ToolCalls)
		}
	}
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
