package tooldefs

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/agents"
	"github.com/agentcore/agentcore/runtime/pool"
	"github.com/agentcore/agentcore/tooldefs/subagent"
	"github.com/agentcore/agentcore/tooldefs/worktree"
)

// Agent launches a new agent to handle a complex, multi-step task
// autonomously: a sub-agent with its own conversation and context, its
// own type's tools and instructions, that works until it is done and
// answers with one final message.
//
// When to use it:
// - open-ended searches across a codebase that may take several rounds of
// searching and reading ("where are errors from the API handled?") — use
// an Explore agent, and keep your own context for the work itself;
// - designing an implementation plan before changing things — a Plan agent;
// - a self-contained task with a clear result — a general-purpose agent.
//
// When not to use it: to read one known file, to find a class or file by
// name, or for work inside two or three files you already know. Do those
// yourself.
//
// Usage notes:
// - Launch several agents at once whenever their tasks are independent: put
// several Agent calls in one message. Read-only agents (Explore, Plan) run in
// parallel.
// - The agent's final message is returned to you; the user does not see it.
// Tell the user what matters from it.
// - Each agent starts fresh: it knows nothing of this conversation. Give it a
// complete, self-contained prompt: what to do, what you already know, and
// exactly what to report back. Say whether it should change code or only
// research.
// - run_in_background returns an agent ID at once; you are told when the
// agent finishes. TaskOutput (with that ID) reads its progress and result.
// TaskStop stops it.
// - isolation "worktree" runs the agent in a new git worktree of the
// repository (its own checkout, on its own branch, from the last commit):
// removed when the agent changes nothing, otherwise kept, and the result
// names its path and branch.
// - A sub-agent cannot start other agents. Its calls go through the same
// permission rules as yours.
// - subagent_type picks the kind of agent: general-purpose (the default),
// Explore, Plan, or a custom type defined in .agentcore/agents/*.md or
// .claude/agents/*.md; the types available are listed below when known.
//
// +tool:name=Agent
// +tool:agentOnly
// +tool:alias=Task
// +tool:alwaysLoad
// +tool:interrupt=cancel
// +tool:searchHint="launch a sub-agent for a multi-step task or a broad search"
type Agent struct{}

// AgentInput is the input of Agent.
type AgentInput struct {
	// A short (3-5 word) description of the task.
	Description string `json:"description" jsonschema:"minLength=1,maxLength=200"`
	// The task for the agent to perform.
	Prompt string `json:"prompt" jsonschema:"minLength=1"`
	// The type of specialized agent to use for this task. Defaults to general-purpose.
	SubagentType string `json:"subagent_type,omitempty"`
	// Optional model for this agent. If not specified, it inherits the model of its type, or yours.
	Model string `json:"model,omitempty" jsonschema:"enum=sonnet,enum=opus,enum=haiku"`
	// Set to true to run this agent in the background. You are notified when it completes; use TaskOutput to read its output.
	RunInBackground bool `json:"run_in_background,omitempty"`
	// Isolation mode. "worktree" runs the agent in a temporary git worktree, an isolated copy of the repository.
	Isolation string `json:"isolation,omitempty" jsonschema:"enum=worktree"`
}

// AgentName is the Agent tool's name: sub-agents never get it.
const AgentName = "Agent"

// AgentOutput is what an Agent call returns.
type AgentOutput struct {
	// Status is "completed", or "async_launched" for a background agent.
	Status string `json:"status"`
	// AgentID names a background agent for TaskOutput and TaskStop.
	AgentID string `json:"agent_id,omitempty"`
	// OutputPath is the file a background agent's transcript goes to.
	OutputPath  string `json:"output_path,omitempty"`
	Type        string `json:"subagent_type"`
	Description string `json:"description"`
	// Result is a finished agent's answer, turns and usage.
	Result subagent.Result `json:"result"`
}

// IsConcurrencySafe is true when the agent can only read: several
// Explore or Plan agents run side by side; agents that may write run one
// at a time, as the seed's table has it for every Agent call.
func (Agent) IsConcurrencySafe(in *AgentInput) bool { return agents.IsReadOnlyType(in.SubagentType) }

// IsReadOnly is true for the same agents: every call they make is
// read-only.
func (Agent) IsReadOnly(in *AgentInput) bool { return agents.IsReadOnlyType(in.SubagentType) }

// CheckPermissions allows the call itself: starting an agent changes
// nothing, and each call the agent makes is checked on its own, against
// the same rules. Deny rules for Agent still apply (they come first).
func (Agent) CheckPermissions(context.Context, *AgentInput, *runtime.ToolContext) runtime.PermissionDecision {
	return runtime.PermissionDecision{Behavior: runtime.Allow}
}

// ValidateInput refuses what cannot run: no session, a sub-agent asking
// for another, an unknown type, worktree isolation outside a git
// repository.
func (Agent) ValidateInput(ctx context.Context, in *AgentInput, tc *runtime.ToolContext) error {
	_, _, err := agentRequest(ctx, in, tc, "")
	return err
}

// agentSession is what an Agent call needs of its session.
type agentSession struct {
	info    runtime.SessionInfo
	subs    agent.Subagents
	notices runtime.Conversation
}

// agentRequest resolves the call against tc's session.
func agentRequest(ctx context.Context, in *AgentInput, tc *runtime.ToolContext, id string) (agentSession, subagent.Request, error) {
	var sess agentSession
	var err error
	if sess.info, err = runtime.Need[runtime.SessionInfo](tc, AgentName); err != nil {
		return sess, subagent.Request{}, err
	}
	if sess.subs, err = runtime.Need[agent.Subagents](tc, AgentName); err != nil {
		return sess, subagent.Request{}, err
	}
	if sess.notices, err = runtime.Need[runtime.Conversation](tc, AgentName); err != nil {
		return sess, subagent.Request{}, err
	}
	if sess.info.IsSubagent() {
		return sess, subagent.Request{}, agent.ErrNestedSubagent
	}
	if in.Isolation == "worktree" {
		if _, err := worktree.FindRepo(ctx, tc.Cwd); err != nil {
			return sess, subagent.Request{}, fmt.Errorf(`isolation "worktree": %w`, err)
		}
	}
	types, _ := agents.LoadTypes(sess.info.Dir(), sess.info.Home())
	types = agents.WithHostTypes(types, tc)
	var tools []runtime.Tool
	if cat, ok := pool.CatalogFrom(tc); ok {
		tools = cat.Tools() // the pool as the turn sees it, not reassembled mid-turn
	}
	agents.Remember(types, tools, AgentName)
	t, err := agents.FindType(types, in.SubagentType)
	if err != nil {
		return sess, subagent.Request{}, err
	}
	return sess, subagent.Request{CallID: id, Description: in.Description, Prompt: in.Prompt, Type: t, Model: in.Model, Self: AgentName}, nil
}

// Call runs the sub-agent to its end, its events reported as progress
// (they show nested under this call), or starts it in the background;
// with isolation "worktree", in a new worktree, removed when the agent
// ends if it left nothing there.
func (Agent) Call(ctx context.Context, in *AgentInput, c *runtime.Call) (AgentOutput, error) {
	sess, req, err := agentRequest(ctx, in, c.Context, c.ID)
	if err != nil {
		return AgentOutput{}, err
	}
	if in.Isolation == "worktree" {
		if req.Worktree, err = worktree.ForAgent(ctx, c.Context.Cwd, c.ID); err != nil {
			return AgentOutput{}, err
		}
	}
	child, err := subagent.Open(sess.subs, c.Context, req)
	if err != nil {
		_, _ = req.Worktree.Release()
		return AgentOutput{}, err
	}
	out := AgentOutput{Type: req.Type.Name, Description: in.Description}
	if in.RunInBackground {
		reg, err := subagent.Agents(c.Context)
		if err != nil {
			subagent.End(child, req, nil)
			return AgentOutput{}, err
		}
		b, err := reg.Start(sess.subs, sess.notices, child, req)
		if err != nil {
			subagent.End(child, req, nil)
			return AgentOutput{}, err
		}
		out.Status, out.AgentID, out.OutputPath = "async_launched", b.ID, b.OutputPath
		return out, nil
	}
	res, err := subagent.Run(ctx, child, in.Prompt, func(ev agent.Event) { c.Progress(ev) })
	subagent.End(child, req, &res)
	if err != nil {
		if res.WorktreePath != "" {
			err = fmt.Errorf("%w\nIts changes are kept in the worktree %s on branch %s.", err, res.WorktreePath, res.WorktreeBranch)
		}
		return AgentOutput{}, err
	}
	out.Status, out.Result = "completed", res
	return out, nil
}

// ResultBlocks is the agent's answer and what it took, or, for a
// background agent, how to follow it.
func (Agent) ResultBlocks(out AgentOutput) []runtime.Block {
	if out.Status == "async_launched" {
		return []runtime.Block{runtime.TextBlock(fmt.Sprintf(
			"Async agent launched successfully.\nagentId: %s\nThe agent is working in the background. You will be notified when it completes; do not wait for it unless its result is what you need next. Read its progress and result with TaskOutput (task_id %q), stop it with TaskStop.\noutput_file: %s",
			out.AgentID, out.AgentID, out.OutputPath))}
	}
	r := out.Result
	text := strings.TrimSpace(r.Text)
	if text == "" {
		text = "(the agent ended without a final message)"
	}
	if r.WorktreePath != "" {
		text += fmt.Sprintf("\n\nThe agent's changes are kept in the worktree %s on branch %s: review them there, then merge the branch or remove the worktree (git worktree remove).", r.WorktreePath, r.WorktreeBranch)
	}
	return []runtime.Block{runtime.TextBlock(fmt.Sprintf("%s\n\n<usage>turns: %d\ntool_uses: %d\ninput_tokens: %d\noutput_tokens: %d\nduration_ms: %d</usage>",
		text, r.Turns, r.ToolCalls, r.Usage.InputTokens, r.Usage.OutputTokens, r.DurationMS))}
}

// UserFacingName is the agent's type, as Claude Code shows "Explore(…)".
func (Agent) UserFacingName(in *AgentInput) string {
	if in.SubagentType == "" {
		return AgentName
	}
	return in.SubagentType
}

// RenderUse shows the task's description.
func (Agent) RenderUse(in *AgentInput) string {
	if in.RunInBackground {
		return in.Description + " (background)"
	}
	return in.Description
}

// RenderProgress shows the sub-agent's calls as they start (in exec; the
// agent loop shows its events nested instead).
func (Agent) RenderProgress(_ *AgentInput, ev agent.Event) string {
	if ev.Kind != agent.EventToolStart || ev.Tool == nil {
		return ""
	}
	use, _ := runtime.Guard("RenderUse", func() string { return ev.Tool.RenderUse(ev.Input) })
	return "↳ " + ev.Name + "(" + use + ")"
}

// RenderResult sums up what the agent did.
func (Agent) RenderResult(_ *AgentInput, out AgentOutput) string {
	if out.Status == "async_launched" {
		return "Running in the background as " + out.AgentID
	}
	r := out.Result
	s := fmt.Sprintf("Done (%d tool uses · %s tokens · %s)", r.ToolCalls,
		compactCount(r.Usage.InputTokens+r.Usage.OutputTokens), (time.Duration(r.DurationMS) * time.Millisecond).Round(100*time.Millisecond))
	if r.WorktreePath != "" {
		s += " · changes kept in worktree " + r.WorktreePath
	}
	return s
}

func compactCount(n int64) string {
	if n >= 1000 {
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprint(n)
}

// RenderGrouped names the agents started side by side.
func (Agent) RenderGrouped(ins []*AgentInput) string {
	descs := make([]string, len(ins))
	for i, in := range ins {
		descs[i] = in.Description
	}
	return fmt.Sprintf("%d agents: %s", len(ins), strings.Join(descs, ", "))
}
