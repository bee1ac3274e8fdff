// Command agentcore is the reference agent built on the agentcore runtime:
// it lists, describes and runs the tools of its build variant, and drives a
// model through the agent loop.
package main

import (
	"fmt"
	"os"
)

func main() {
	root := newRootCmd()
	root.SetArgs(expandVariadic(os.Args[1:]))
	if err := root.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "agentcore:", err)
		os.Exit(1)
	}
}
