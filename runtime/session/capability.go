package session

import (
	"context"
	"iter"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/provider"
)

// provide registers on tc the capabilities the session gives the tools
// that run in it (runtime.Need), replacing those tc inherited from a
// parent: tools see these small interfaces, never the *Session.
func (s *Session) provide(tc *runtime.ToolContext) {
	c := capabilities{s}
	runtime.WithService[runtime.SessionInfo](tc, c)
	runtime.WithService[runtime.Conversation](tc, c)
	runtime.WithService[agent.Subagents](tc, c)
	runtime.WithService[agent.History](tc, c)
	runtime.WithService[orchestrate.Runner](tc, c)
	runtime.WithService[permission.PlanMode](tc, s.engine)
	runtime.WithService[permission.Questions](tc, s.engine)
	runtime.WithService[permission.TemporaryRules](tc, s.engine)
	if s.fileHistory() != nil {
		runtime.WithService[runtime.FileHistory](tc, c)
	}
}

// capabilities is the session as its tools see it.
type capabilities struct{ s *Session }

var (
	_ runtime.SessionInfo  = capabilities{}
	_ runtime.Conversation = capabilities{}
	_ agent.Subagents      = capabilities{}
	_ agent.History        = capabilities{}
	_ orchestrate.Runner   = capabilities{}
)

func (c capabilities) ID() string          { return c.s.ID() }
func (c capabilities) Home() string        { return c.s.opts.Home }
func (c capabilities) Dir() string         { return c.s.opts.Dir }
func (c capabilities) IsSubagent() bool    { return c.s.parent != nil }
func (c capabilities) Notify(text string)  { c.s.notify(text) }
func (c capabilities) AfterRun(f func())   { c.s.atRunEnd(f) }
func (c capabilities) Emit(ev agent.Event) { c.s.emit(ev) }
func (c capabilities) BaseSystem() string  { return c.s.opts.System }

func (c capabilities) Messages() []provider.Message { return c.s.Messages() }
func (c capabilities) Tools() []runtime.Tool        { return c.s.Tools() }

func (c capabilities) Exec(ctx context.Context, calls []orchestrate.ToolUse) iter.Seq[orchestrate.Event] {
	return c.s.Exec(ctx, calls)
}

func (c capabilities) StartSubagent(tc *runtime.ToolContext, o agent.SubagentOptions) (agent.Subagent, error) {
	child, err := c.s.Subagent(tc, o)
	if err != nil {
		return nil, err // not a nil *Session in an interface
	}
	return child, nil
}
