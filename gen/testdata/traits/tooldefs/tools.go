// Package tooldefs is the traits scenario: the markers and the method that
// end up in a wrapper's Traits.
package tooldefs

import (
	"context"
	"strings"

	"github.com/agentcore/agentcore/runtime"
)

// Shell runs a command. Its errors cancel the sibling calls, its rules
// govern every command, and it decides per input whether an interrupt
// cancels it.
//
// +tool:name=Shell
// +tool:cancelsSiblingsOnError
// +tool:localOnly
// +tool:agentOnly
// +tool:permissionFamily=command
type Shell struct{}

// ShellInput is the input of Shell.
type ShellInput struct {
	// Command is the command line.
	Command string `json:"command"`
}

// Call does nothing.
func (Shell) Call(context.Context, *ShellInput, *runtime.Call) (string, error) { return "", nil }

// InterruptBehavior lets a test run finish and cancels the rest.
func (Shell) InterruptBehavior(in *ShellInput) runtime.InterruptBehavior {
	if strings.HasPrefix(in.Command, "go test") {
		return runtime.InterruptBlock
	}
	return runtime.InterruptCancel
}

// Fetch fetches a URL; an interrupt cancels every call, and its rules
// govern every URL fetch.
//
// +tool:name=Fetch
// +tool:interrupt=cancel
// +tool:permissionFamily=url
type Fetch struct{}

// FetchInput is the input of Fetch.
type FetchInput struct {
	// URL is the address.
	URL string `json:"url"`
}

// Call does nothing.
func (Fetch) Call(context.Context, *FetchInput, *runtime.Call) (string, error) { return "", nil }
