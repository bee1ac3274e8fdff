// Package subagent is the engine of the Agent tool: which tools a kind
// of sub-agent gets (Allows; the kinds are runtime/agents'), running one
// as a session of its own (Open, Run), and the sub-agents that run in
// the background (Background, started with run_in_background and served
// by TaskOutput and TaskStop).
package subagent

import (
	"context"
	"errors"
	"fmt"
	goruntime "runtime"
	"slices"
	"strings"
	"time"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/agents"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/tooldefs/worktree"
)

// readOnlyDenied are the tools a read-only type never gets, whatever
// their flags say: they change files or the session's mode (Claude
// Code's Explore and Plan agents are denied the same).
var readOnlyDenied = []string{"Edit", "Write", "NotebookEdit", "EnterPlanMode", "ExitPlanMode"}

// Request is one Agent call, resolved.
type Request struct {
	// CallID is the Agent call's tool_use id.
	CallID string
	// Description (3–5 words) and Prompt are as the model gave them.
	Description, Prompt string
	// Type is the kind of sub-agent.
	Type agents.Type
	// Model, when set, replaces the type's model.
	Model string
	// Self is the name of the tool that starts sub-agents: a sub-agent
	// never has it.
	Self string
	// Worktree, when set, is the fresh git worktree the sub-agent works
	// in (isolation "worktree"); End removes it or reports it kept.
	Worktree *worktree.Worktree
}

// Label names the sub-agent in prompts and listings, e.g.
// "Explore agent (find the tests)".
func (r Request) Label() string {
	return fmt.Sprintf("%s agent (%s)", r.Type.Name, r.Description)
}

// Allows reports whether a sub-agent of type t may use tool, next to the
// tool named self that starts sub-agents (never allowed: sub-agents do not
// start sub-agents). A type with a Tools list gets those tools (by name
// or alias); a read-only type gets only tools that can be read-only.
func Allows(t agents.Type, tool runtime.Tool, self string) bool {
	name := tool.Name()
	if name == self || slices.Contains(tool.Aliases(), self) {
		return false
	}
	if len(t.Tools) > 0 && !slices.ContainsFunc(t.Tools, func(n string) bool {
		return n == name || slices.Contains(tool.Aliases(), n)
	}) {
		return false
	}
	if t.ReadOnly {
		ro := tool.Traits().ReadOnly
		return (ro.Value || ro.InputDependent) && !slices.Contains(readOnlyDenied, name)
	}
	return true
}

// Open starts the sub-agent for req from the session the Agent call runs
// in (subs is its capability, tc the call's ToolContext); in a sub-agent's
// session it fails with agent.ErrNestedSubagent. Close it (End).
func Open(subs agent.Subagents, tc *runtime.ToolContext, req Request) (agent.Subagent, error) {
	model := req.Model
	if model == "" && req.Type.Model != "inherit" {
		model = req.Type.Model
	}
	if model == "inherit" {
		model = ""
	}
	dir := ""
	if req.Worktree != nil {
		dir = req.Worktree.Path
	}
	return subs.StartSubagent(tc, agent.SubagentOptions{
		ID:       req.CallID,
		Type:     req.Type.Name,
		Label:    req.Label(),
		Tools:    func(t runtime.Tool) bool { return Allows(req.Type, t, req.Self) },
		System:   systemPrompt(req.Type, tc, req.Worktree),
		Model:    model,
		Dir:      dir,
		ReadOnly: req.Type.ReadOnly,
	})
}

// End closes the sub-agent and, when it worked in a worktree,
// removes the worktree if the sub-agent left nothing in it, and otherwise
// keeps it and records in res (when not nil) where it is.
func End(child agent.Subagent, req Request, res *Result) {
	child.Close()
	kept, err := req.Worktree.Release()
	if (kept || err != nil) && res != nil {
		res.WorktreePath, res.WorktreeBranch = req.Worktree.Path, req.Worktree.Branch
	}
}

// systemPrompt is the type's prompt and the sub-agent's environment.
func systemPrompt(t agents.Type, tc *runtime.ToolContext, wt *worktree.Worktree) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(t.System))
	b.WriteString("\n\nNotes:\n- You are a sub-agent: the agent that started you sees only your final message, so end with a complete, concise report of what you found or did (file paths and line numbers where they help).\n- You cannot start other agents, and nobody can answer questions: work with what the task gives you.\n")
	if t.ReadOnly {
		b.WriteString("- You are read-only: calls that would change files or state are refused. Report what should change instead.\n")
	}
	cwd := tc.Cwd
	if wt != nil {
		cwd = wt.Path
		fmt.Fprintf(&b, "- You work in an isolated git worktree, %s on branch %s: a separate checkout of the repository at its last commit (uncommitted changes of %s are not in it). Paths the task gives under %s mean the same paths under the worktree: read and change files there. What you leave in the worktree is kept for the agent that started you; commit nothing unless the task says so.\n", wt.Path, wt.Branch, tc.Cwd, wt.Repo.Top)
	}
	fmt.Fprintf(&b, "\nEnvironment:\n- working directory: %s\n- platform: %s/%s\n- date: %s", cwd, goruntime.GOOS, goruntime.GOARCH, time.Now().Format("2006-01-02"))
	return b.String()
}

// Result is what a finished sub-agent returns.
type Result struct {
	// Text is the sub-agent's final answer.
	Text string `json:"result"`
	// Turns, ToolCalls and ToolErrors count its model requests and calls.
	Turns      int `json:"num_turns"`
	ToolCalls  int `json:"tool_calls"`
	ToolErrors int `json:"tool_errors"`
	// Usage sums its tokens.
	Usage provider.Usage `json:"usage"`
	// DurationMS is its wall time.
	DurationMS int64 `json:"duration_ms"`
	// WorktreePath and WorktreeBranch name the worktree of an isolated
	// sub-agent that left changes in it, kept for the parent; empty when
	// there was none or it was removed.
	WorktreePath   string `json:"worktree_path,omitempty"`
	WorktreeBranch string `json:"worktree_branch,omitempty"`
}

func resultOf(o *agent.Outcome) Result {
	return Result{Text: o.Text, Turns: o.Turns, ToolCalls: o.ToolCalls, ToolErrors: o.ToolErrors,
		Usage: o.Usage, DurationMS: o.Duration.Milliseconds()}
}

// Run runs the sub-agent on prompt until it ends, handing each of its
// events (ParentToolUseID set) to report. A sub-agent that ended by an
// error, an interrupt or ctx is an error saying so, with what it did.
func Run(ctx context.Context, child agent.Subagent, prompt string, report func(agent.Event)) (Result, error) {
	var out *agent.Outcome
	for ev := range child.Run(ctx, prompt) {
		if report != nil {
			report(ev)
		}
		if ev.Kind == agent.EventDone {
			out = ev.Outcome
		}
	}
	if out == nil {
		return Result{}, errors.New("the sub-agent ended without an outcome")
	}
	res := resultOf(out)
	switch out.Stop {
	case agent.StopEndTurn:
		return res, nil
	case agent.StopInterrupted:
		why := "it was interrupted"
		if err := context.Cause(ctx); err != nil && !errors.Is(err, context.Canceled) {
			why = "it was stopped: " + err.Error()
		}
		return res, fmt.Errorf("the sub-agent did not finish: %s after %d turns and %d tool calls", why, res.Turns, res.ToolCalls)
	case agent.StopMaxTurns:
		return res, fmt.Errorf("the sub-agent did not finish: it reached its turn limit (%d turns, %d tool calls); its last text was: %s", res.Turns, res.ToolCalls, oneLine(res.Text, 300))
	}
	return res, fmt.Errorf("the sub-agent failed after %d turns: %w", res.Turns, out.Err)
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	if s == "" {
		return "(none)"
	}
	return s
}
