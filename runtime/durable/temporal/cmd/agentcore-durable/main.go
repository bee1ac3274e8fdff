// Command agentcore-durable runs agentcore sessions on Temporal:
//
//	agentcore-durable worker --temporal HOST:PORT --task-queue Q [--workspace NAME] [--state DIR] [--model M]
//	agentcore-durable run    --temporal HOST:PORT --task-queue Q [--id ID] [--dir DIR] [--output-format text|stream-json] PROMPT
//
// worker serves sessions with the built-in tools and a model it builds
// from its own flags and environment (ANTHROPIC_API_KEY never leaves it).
// run starts a session (or, with --resume ID, sends a prompt to one kept
// open), prints it as it goes, asks on the terminal for the permissions
// it needs, and turns Ctrl-C into an interrupt. It lives in the durable
// module, not in cmd/agentcore, so that the agentcore binary and the main
// module carry nothing of Temporal.
package main

import (
	"fmt"
	"os"

	"github.com/agentcore/agentcore/runtime/durable/temporal/internal/cli"
)

func main() {
	if err := cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "agentcore-durable:", err)
		os.Exit(1)
	}
}
