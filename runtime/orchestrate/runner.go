package orchestrate

import (
	"context"
	"iter"

	"github.com/agentcore/agentcore/runtime"
)

// Runner is the capability of running tool calls as the model would make
// them, through the session's whole pipeline (decoding, validation,
// permissions, scheduling): a tool that runs a script of calls (REPL)
// asks its ToolContext for it (runtime.Need). runtime/session provides it.
type Runner interface {
	// Tools returns every tool the calls may name, deferred ones
	// included.
	Tools() []runtime.Tool
	// Exec runs calls and yields one event per call and per progress
	// report, results in the calls' order.
	Exec(ctx context.Context, calls []ToolUse) iter.Seq[Event]
}
