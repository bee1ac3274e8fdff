package agent

import (
	"context"
	"errors"
	"iter"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/provider"
)

// Subagents is the capability of starting sub-agents (the Agent tool's):
// runtime/session provides it on every session's ToolContext, a
// sub-agent's included, whose StartSubagent fails with ErrNestedSubagent.
type Subagents interface {
	// StartSubagent starts a sub-agent from a call running in tc (the
	// Agent call's ToolContext; nil: the session's own). Run it, and
	// Close it.
	StartSubagent(tc *runtime.ToolContext, o SubagentOptions) (Subagent, error)
	// Emit hands ev to whoever follows the session's running turn, as if
	// its loop had made it, and waits until it was handled; without a
	// running turn it is dropped. A background sub-agent reports its
	// events this way, after the call that started it has returned.
	Emit(ev Event)
}

// Subagent is a started sub-agent: a conversation of its own.
type Subagent interface {
	// Run sends prompt and runs the sub-agent's loop until it ends,
	// yielding its events (ParentToolUseID set); the last is EventDone.
	Run(ctx context.Context, prompt string) iter.Seq[Event]
	// Close ends what its tools started.
	Close() error
}

// ErrNestedSubagent is StartSubagent's error in a sub-agent's session:
// sub-agents do not start sub-agents.
var ErrNestedSubagent = errors.New("a sub-agent cannot start another sub-agent; do the work yourself with your own tools")

// SubagentOptions describe a sub-agent: a conversation of its own, with
// its own messages and ToolContext, that shares its parent's permission
// engine (rules, mode, working directories, the asker), MCP servers and
// model.
type SubagentOptions struct {
	// ID is the tool_use id of the Agent call that starts the sub-agent.
	// Its events carry it as ParentToolUseID, and a replay provider plays
	// the turns scripted for it.
	ID string
	// Type is the sub-agent's type ("general-purpose", "Explore"): the
	// agent_type its hooks get.
	Type string
	// Label names the sub-agent in permission prompts, e.g.
	// "Explore agent (find the tests)".
	Label string
	// Tools keeps the parent's tools the sub-agent may use; nil keeps
	// them all. The tool that starts sub-agents should leave itself out:
	// sub-agents do not start sub-agents.
	Tools func(runtime.Tool) bool
	// System is the sub-agent's system prompt.
	System string
	// Model, when set, is the model the sub-agent asks its parent's
	// provider for (provider.ForSubagent).
	Model string
	// Dir is the sub-agent's working directory (a worktree); empty means
	// the directory of the ToolContext it starts from.
	Dir string
	// MaxTurns caps the sub-agent's model requests; 0: the parent's cap.
	MaxTurns int
	// ReadOnly makes every call that is not read-only (IsReadOnly false
	// for its input: a Bash command that writes) a denied call, whatever
	// the rules and the mode say. Explore and Plan agents are read-only,
	// which is what lets several of them run in parallel.
	ReadOnly bool
}

// History is the capability of reading what the model is sent (a tool
// inspecting its own context).
type History interface {
	// Messages returns a copy of the conversation so far, safe to read
	// during the run.
	Messages() []provider.Message
	// BaseSystem is the configured system prompt, without the deferred
	// tools' names appended to it.
	BaseSystem() string
}
