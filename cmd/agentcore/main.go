// Command agentcore is the reference agent built on the agentcore runtime:
// it lists, describes and runs the tools of its build variant, and drives a
// model through the agent loop.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// main exits in one place, once the command has returned: its deferred
// work (the session's Close, which stops the MCP servers and syncs the
// transcript) has run by then.
func main() {
	os.Exit(runMain(os.Args[1:], os.Stderr))
}

// runMain runs the command line args and returns the exit code: 0, the
// code a mode returned (an exitCode), or 1 with the error on stderr.
func runMain(args []string, stderr io.Writer) int {
	root := newRootCmd()
	root.SetArgs(expandVariadic(args))
	err := root.Execute()
	var code exitCode
	switch {
	case err == nil:
		return 0
	case errors.As(err, &code):
		return int(code)
	}
	fmt.Fprintln(stderr, "agentcore:", err)
	return 1
}

// exitCode is an error that ends agentcore with that code and no message:
// the mode that returns it has said what happened.
type exitCode int

func (c exitCode) Error() string { return fmt.Sprintf("exit status %d", int(c)) }
