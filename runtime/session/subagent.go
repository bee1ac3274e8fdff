package session

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/pool"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/structured"
)

// ID returns the session's ID; a sub-agent has its parent's.
func (s *Session) ID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opts.ID
}

// Home returns the user's home directory the session uses.
func (s *Session) Home() string { return s.opts.Home }

// Subagent returns a session for a sub-agent started from a call running
// in tc (the Agent call's ToolContext): its working directory, working
// directories, environment and services (the model, the summarizer) are
// tc's; its file-state cache, messages and loaded tools are its own; its
// tools are the parent's current pool, filtered by o.Tools, assembled
// with the parent's pool options (deferred tools stay deferred, behind
// the search tool if kept). Run it with Run or Exec, and Close it: Close
// ends what its tools started (background shells), not the parent's MCP
// servers.
func (s *Session) Subagent(tc *runtime.ToolContext, o agent.SubagentOptions) (*Session, error) {
	return s.subagent(tc, o, nil)
}

// subagent is Subagent; answer, when set, holds the sub-agent's runs to
// a structured answer (its StructuredOutput tool is added to the tools).
func (s *Session) subagent(tc *runtime.ToolContext, o agent.SubagentOptions, answer *structured.Output) (*Session, error) {
	if s.parent != nil {
		return nil, agent.ErrNestedSubagent
	}
	if s.opts.Provider == nil {
		return nil, ErrNoProvider
	}
	prov, err := provider.ForSubagent(s.opts.Provider, o.ID, o.Model)
	if err != nil {
		return nil, err
	}
	if tc == nil {
		tc = s.tc
	}
	dir := o.Dir
	if dir == "" {
		dir = tc.Cwd
	}
	if dir, err = workingDir(dir); err != nil {
		return nil, err
	}
	// The pool as it is, not reassembled: a running turn's calls read the
	// ToolContext that reassembly would write.
	s.mu.Lock()
	current, known := s.pool.Tools(), s.pool.Known()
	s.mu.Unlock()
	var tools []runtime.Tool
	for _, t := range current {
		if s.answer != nil && t == s.answer.Tool() {
			continue // the structured answer is the main conversation's
		}
		if o.Tools == nil || o.Tools(t) {
			tools = append(tools, t)
		}
	}
	if answer != nil {
		tools = append(tools, answer.Tool())
	}
	opts := s.opts
	opts.Dir, opts.Tools, opts.Provider, opts.System = dir, tools, prov, o.System
	opts.JSONSchema = nil
	opts.Pool.Simple = false // the tools are picked already
	opts.Pool.Known = known  // descriptions drop what the parent has and the child lacks
	if o.MaxTurns > 0 {
		opts.MaxTurns = o.MaxTurns
	}
	child := &Session{opts: opts, engine: s.engine, mcp: s.mcp, parent: s, sub: o, tc: runtime.NewToolContext(dir), hooks: s.hooks, answer: answer}
	child.tc.WorkingDirs = slices.Clone(tc.WorkingDirs)
	if o.Dir != "" && !slices.Contains(child.tc.WorkingDirs, dir) {
		child.tc.WorkingDirs = append([]string{dir}, child.tc.WorkingDirs...)
	}
	for k, v := range tc.Env {
		if child.tc.Env == nil {
			child.tc.Env = map[string]string{}
		}
		child.tc.Env[k] = v
	}
	for k, v := range tc.Services {
		if child.tc.Services == nil {
			child.tc.Services = map[any]any{}
		}
		child.tc.Services[k] = v
	}
	child.provide(child.tc)
	runtime.WithService(child.tc, pool.NewLoaded())
	runtime.WithService(child.tc, prov)
	child.assemble(nil)
	return child, nil
}

// canUseTool is the sub-agent's permission hook: the parent's engine,
// after the read-only check of a read-only sub-agent.
func (s *Session) canUseTool(ctx context.Context, inv *runtime.Invocation, tc *runtime.ToolContext) runtime.PermissionDecision {
	if s.sub.ReadOnly && !inv.ReadOnly {
		return runtime.PermissionDecision{Behavior: runtime.Deny, Message: fmt.Sprintf(
			"%s is read-only: this %s call would change things, so it was not run. Report what should change instead.", s.sub.Label, inv.ToolName)}
	}
	if s.hookAgent != nil {
		return s.hookAgent.canUseTool(ctx, s.engine, inv, tc)
	}
	return s.permissionDenied(ctx, inv, tc, s.engine.CanUseTool(ctx, inv, tc))
}

// observe is the agent's observer: a sub-agent's events are marked with
// the Agent call they belong to.
func (s *Session) observe(ev agent.Event) {
	if s.parent != nil && ev.ParentToolUseID == "" {
		ev.ParentToolUseID = s.sub.ID
	}
	if ev.Kind == agent.EventContext {
		s.syncRoots() // the working directory moved (EnterWorktree)
	}
	if ev.Kind == agent.EventRequest && s.awaitingRequest.Load() {
		// The answer may take seconds to begin: the held lines are
		// written once the request has had time to go out, so that a
		// process killed while it waits loses nothing.
		time.AfterFunc(requestOutDelay, s.requestOut)
	}
	if ev.Kind != agent.EventRequest {
		s.requestOut()
	}
	s.sink.observe(ev)
}

// requestOutDelay is how long after a run's first model request starts
// the transcript's and the checkpoint's first writes wait at most for the
// first event of its answer.
const requestOutDelay = 20 * time.Millisecond

// requestOut writes what the run held back while its first model request
// went out (the transcript's lines, the turn's checkpoint), once.
func (s *Session) requestOut() {
	if !s.awaitingRequest.CompareAndSwap(true, false) {
		return
	}
	if s.transcript != nil {
		s.transcript.Release()
	}
	if s.checkpoints != nil {
		s.checkpoints.Write()
	}
}

// emit hands ev to whoever ranges over the running Run, as if the loop
// had made it, and waits until it was handled; without a running Run it
// is dropped. A background sub-agent reports its events this way, after
// the call that started it has returned.
func (s *Session) emit(ev agent.Event) {
	if ev.At.IsZero() {
		ev.At = time.Now()
	}
	s.sink.observe(ev)
}

// notify queues text for the model: the next request of Run carries it
// as a text block of its last user message (agent.Config.Notices), as
// Claude Code tells the model that a background task finished.
func (s *Session) notify(text string) {
	s.noticeMu.Lock()
	defer s.noticeMu.Unlock()
	s.notices = append(s.notices, text)
}

// atRunEnd registers f to run when the running Run ends — when none is
// running, the next one — or at Close: what holds "for the rest of the
// turn" (a skill's allowed tools) is undone this way.
func (s *Session) atRunEnd(f func()) {
	s.noticeMu.Lock()
	defer s.noticeMu.Unlock()
	s.afterRun = append(s.afterRun, f)
}

// endRun runs the atRunEnd functions, last registered first.
func (s *Session) endRun() {
	s.noticeMu.Lock()
	fs := s.afterRun
	s.afterRun = nil
	s.noticeMu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}

func (s *Session) takeNotices() []string {
	s.noticeMu.Lock()
	defer s.noticeMu.Unlock()
	n := s.notices
	s.notices = nil
	return n
}

// NewID returns a random session ID: a UUID.
func NewID() string { return runtime.NewUUID() }
