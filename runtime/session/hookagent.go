package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/hooks"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/structured"
)

// hookHandlers gives r what the prompt, agent and mcp_tool hooks, the
// "if" rules and the async hooks need from the session.
func (s *Session) hookHandlers(r *hooks.Runner) {
	r.Model = s.opts.Provider
	r.Agent = s.runHookAgent
	r.Notify = s.notify
	r.MCPTool = s.mcp.CallTool
	r.If = s.hookIf
}

// hookIf decides a hook's "if" rule for the call of toolName with
// toolInput (hooks.IfFunc): the permission engine matches it as it
// would a deny rule. A tool it does not know, or an input its tool
// cannot decode, is an error, which runs the hook.
func (s *Session) hookIf(rule, toolName string, toolInput json.RawMessage) (bool, error) {
	t := runtime.Lookup(s.Tools(), toolName)
	if t == nil {
		return false, fmt.Errorf("no tool %q", toolName)
	}
	in, err := t.Decode(toolInput)
	if err != nil {
		return false, err
	}
	inv := runtime.NewInvocation(t, in)
	inv.Raw = toolInput
	return s.engine.RuleMatches(rule, inv, s.tc)
}

// hookAgentRun is what the sub-agent of an agent hook knows of its
// hook: the transcript it may read.
type hookAgentRun struct {
	transcript string
}

// runHookAgent runs an agent hook (hooks.AgentFunc): a read-only
// sub-agent of the main session, with the tools that are read-only for
// every input (Read, Grep, Glob…) and a StructuredOutput tool taking
// hooks.ResponseSchema, for up to hooks.AgentMaxTurns requests. It runs
// no hooks itself and asks nobody: what no rule allows is denied, as in
// Claude Code's dontAsk mode, except reading the transcript. Its answer
// is its StructuredOutput input.
func (s *Session) runHookAgent(ctx context.Context, h hooks.Hook, prompt string) (json.RawMessage, error) {
	root := s
	for root.parent != nil {
		root = root.parent
	}
	if root.opts.Provider == nil {
		return nil, ErrNoProvider
	}
	answer, err := structured.New(json.RawMessage(hooks.ResponseSchema), 0)
	if err != nil {
		return nil, err
	}
	model := h.Model
	if _, ok := root.opts.Provider.(provider.Forker); !ok {
		model = "" // a provider that cannot switch answers with its own model
	}
	_, transcript := root.hookIdentity()
	id := fmt.Sprintf("hook-agent-%d", root.hookAgents.Add(1))
	child, err := root.subagent(nil, agent.SubagentOptions{
		ID:       id,
		Type:     "hook",
		Label:    "agent hook",
		Tools:    func(t runtime.Tool) bool { return t.Traits().ReadOnly.Value },
		System:   fmt.Sprintf(hooks.AgentSystem, transcript, structured.ToolName),
		Model:    model,
		MaxTurns: hooks.AgentMaxTurns,
		ReadOnly: true,
	}, answer)
	if err != nil {
		return nil, err
	}
	defer child.Close()
	child.hooks = nil // its calls and its end are not the session's events
	child.hookAgent = &hookAgentRun{transcript: transcript}
	var out *agent.Outcome
	for ev := range child.Run(ctx, prompt) {
		if ev.Kind == agent.EventDone {
			out = ev.Outcome
		}
	}
	switch {
	case out == nil:
		return nil, errors.New("the sub-agent ended without an outcome")
	case len(out.StructuredOutput) > 0:
		return out.StructuredOutput, nil
	case out.Err != nil:
		return nil, fmt.Errorf("the sub-agent failed: %w", out.Err)
	}
	return nil, fmt.Errorf("the sub-agent ended (%s) without calling %s", out.Stop, structured.ToolName)
}

// canUseTool is the permission check of an agent hook's sub-agent: the
// engine's answer without asking anybody (an ask is a deny), and reading
// the transcript is allowed.
func (h *hookAgentRun) canUseTool(ctx context.Context, e *permission.Engine, inv *runtime.Invocation, tc *runtime.ToolContext) runtime.PermissionDecision {
	if h.transcript != "" && inv.ReadOnly && inv.Target.Kind == runtime.TargetPath && !inv.Target.Writes &&
		filepath.Clean(inv.Target.Value) == filepath.Clean(h.transcript) {
		return runtime.PermissionDecision{Behavior: runtime.Allow}
	}
	d := e.CheckInvocation(ctx, inv, tc)
	if d.Behavior == runtime.Ask {
		return runtime.PermissionDecision{Behavior: runtime.Deny, Message: fmt.Sprintf(
			"An agent hook does not ask for permission, and no rule allows this %s call: %s", inv.ToolName, d.Message)}
	}
	return d
}
