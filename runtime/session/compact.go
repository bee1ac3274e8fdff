package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/hooks"
	"github.com/agentcore/agentcore/runtime/provider"
)

// Compact summarises the conversation so far and puts the summary in
// place of its history, keeping the most recent messages (Claude Code's
// /compact [instructions]); instructions, if any, say what the summary
// should focus on. The PreCompact hooks (trigger "manual") may add to
// them or stop it; the PostCompact hooks get the summary. The file-state
// cache and the task list are untouched. It needs Options.Provider and no
// turn running.
func (s *Session) Compact(ctx context.Context, instructions string) (*agent.CompactInfo, error) {
	if s.opts.Provider == nil {
		return nil, ErrNoProvider
	}
	if !s.runMu.TryLock() {
		return nil, errors.New("a turn is running: wait for it to end (or press Esc), then compact")
	}
	defer s.runMu.Unlock()
	s.agentMu.Lock()
	ag := s.agentLocked()
	s.agentMu.Unlock()
	return ag.Compact(ctx, instructions)
}

// ContextTokens is the conversation's size in tokens as the loop tracks
// it (agent.Agent.ContextTokens); an estimate before the first response.
func (s *Session) ContextTokens() int64 {
	s.agentMu.Lock()
	defer s.agentMu.Unlock()
	if s.agent == nil {
		return agent.EstimateTokens(s.history)
	}
	return s.agent.ContextTokens()
}

// contextPolicy is the agent's ContextPolicy from the options: the
// model's window (the table's for the provider's name unless
// ContextWindow says), auto-compaction at Claude Code's threshold unless
// NoAutoCompact.
func (s *Session) contextPolicy() agent.ContextPolicy {
	w := s.opts.ContextWindow
	if w <= 0 {
		w = provider.ContextWindow(s.opts.Provider.Name())
	}
	p := agent.ContextPolicy{Window: w, KeepTokens: s.opts.CompactKeepTokens}
	if !s.opts.NoAutoCompact {
		p.Threshold = agent.AutoCompactThreshold(w, s.opts.AutoCompactPercent)
	}
	return p
}

// compactHooks runs the PreCompact and PostCompact hooks of a session
// (agent.CompactHooks), and its SessionStart hooks with source
// "compact" after a compaction, as Claude Code does.
type compactHooks struct{ s *Session }

// PreCompact runs the PreCompact hooks, matched on the trigger, with
// Claude Code's input (trigger, custom_instructions: null when none). A
// hook's exit code 2 (or continue:false) stops the compaction; their
// additionalContext joins the instructions.
func (h compactHooks) PreCompact(ctx context.Context, trigger agent.CompactTrigger, instructions string) (string, error) {
	s := h.s
	if !s.hooks.Has(hooks.PreCompact) {
		return instructions, nil
	}
	var custom any
	if instructions != "" {
		custom = instructions
	}
	r := s.hooks.Run(ctx, hooks.PreCompact, string(trigger), hooks.Input{"trigger": string(trigger), "custom_instructions": custom})
	s.hookMessages(r)
	if r.Decision == hooks.Deny {
		return "", fmt.Errorf("PreCompact hook blocked the compaction: %s", nonEmpty(r.Reason, "exit code 2"))
	}
	if r.Stop {
		return "", fmt.Errorf("PreCompact hook stopped the compaction: %s", nonEmpty(r.StopReason, "continue: false"))
	}
	if len(r.Context) > 0 {
		instructions = strings.TrimSpace(instructions + "\n\n" + strings.Join(r.Context, "\n"))
	}
	return instructions, nil
}

// PostCompact runs the PostCompact hooks (trigger, compact_summary),
// then the SessionStart hooks with source "compact", whose context
// reaches the model with the next request.
func (h compactHooks) PostCompact(ctx context.Context, trigger agent.CompactTrigger, summary string) {
	s := h.s
	if s.hooks.Has(hooks.PostCompact) {
		r := s.hooks.Run(ctx, hooks.PostCompact, string(trigger), hooks.Input{"trigger": string(trigger), "compact_summary": summary})
		s.hookMessages(r)
	}
	if s.hooks.Has(hooks.SessionStart) && s.parent == nil {
		r := s.hooks.Run(ctx, hooks.SessionStart, "compact", hooks.Input{"source": "compact"})
		s.hookMessages(r)
		for _, c := range r.Context {
			s.notify(c)
		}
	}
}

// toolResultsDirFor is where a session's large tool results go:
// Options.ToolResultsDir, else beside the transcript
// (<transcript without .jsonl>/tool-results, Claude Code's layout), else
// a directory of the session under the system's temporary directory,
// which Close removes (see tempResultsDir).
func toolResultsDirFor(o Options, transcriptPath string) string {
	switch {
	case o.NoResultFiles:
		return ""
	case o.ToolResultsDir != "":
		return o.ToolResultsDir
	case transcriptPath != "":
		return filepath.Join(strings.TrimSuffix(transcriptPath, ".jsonl"), "tool-results")
	}
	return filepath.Join(tempResultsDir(o.ID), "tool-results")
}

// tempResultsDir is the temporary directory of session id's large
// results when it has no transcript to keep them beside: nothing can
// resume such a session, so its Close removes the directory.
func tempResultsDir(id string) string {
	return filepath.Join(os.TempDir(), "agentcore-sessions", id)
}

// removeTempResults removes the temporary results directory of a top
// session without a transcript or a directory of its own, and the
// shared parent when no other session's is left in it.
func (s *Session) removeTempResults() {
	id := s.opts.ID
	if s.parent != nil || s.resultsDir == "" || id == "" || id == "." || id == ".." || filepath.Base(id) != id ||
		s.resultsDir != filepath.Join(tempResultsDir(id), "tool-results") {
		return
	}
	_ = os.RemoveAll(tempResultsDir(id))
	_ = os.Remove(filepath.Dir(tempResultsDir(id))) // fails while not empty
}

// ToolResultsDir is the directory large tool results are written to
// ("" when they are not): the top session's.
func (s *Session) ToolResultsDir() string {
	for s.parent != nil {
		s = s.parent
	}
	return s.resultsDir
}

// largeResults is the agent's LargeResults: nil when results are not
// written to files. Options.MaxResultSizeChars wins over a tool's own
// cap.
func (s *Session) largeResults() *agent.LargeResults {
	dir := s.ToolResultsDir()
	if dir == "" {
		return nil
	}
	return &agent.LargeResults{Dir: dir, Cap: s.resultCap}
}

// resultCap is the size cap of tool t's results:
// Options.MaxResultSizeChars' for its name, else its own.
func (s *Session) resultCap(name string, t runtime.Tool) int {
	if c, ok := s.opts.MaxResultSizeChars[name]; ok {
		return c
	}
	return agent.CapOf(t)
}
