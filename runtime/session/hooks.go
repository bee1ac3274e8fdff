package session

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/hooks"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/settings"
)

// newHooks is the session's hook runner: the settings files' hooks and
// Options.Hooks; nil when there are none.
func (s *Session) newHooks() *hooks.Runner {
	cfg := hooks.Config{}.Merge(s.engine.Settings().Hooks).Merge(s.opts.Hooks)
	if len(cfg) == 0 {
		return nil
	}
	engine := s.engine
	return &hooks.Runner{
		Config:     cfg,
		Dir:        s.opts.Dir,
		ProjectDir: settings.ProjectRoot(s.opts.Dir, s.opts.Home),
		Current:    s.hookIdentity,
		Mode:       func() string { return string(engine.Mode()) },
		Env:        s.settingsEnvList(),
		Callback:   s.opts.HookCallback,
	}
}

// hookIdentity is the session ID and transcript path the hooks are
// given: the current ones, after a ResumeStored too.
func (s *Session) hookIdentity() (id, transcriptPath string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opts.ID, s.transcriptPath
}

// preHook and postHook are the executor's hooks, nil without hooks.
func (s *Session) preHook() orchestrate.PreToolUseFunc {
	if !s.hooks.Has(hooks.PreToolUse) {
		return nil
	}
	return s.preToolUse
}

func (s *Session) postHook() orchestrate.PostToolUseFunc {
	if !s.hooks.Has(hooks.PostToolUse) {
		return nil
	}
	return s.postToolUse
}

// preToolUse runs the PreToolUse hooks of a call (orchestrate's
// PreToolUseFunc): a block or deny rejects the call with the hooks'
// reason, allow and ask go on to the permission check.
func (s *Session) preToolUse(ctx context.Context, t runtime.Tool, use orchestrate.ToolUse, _ any, tc *runtime.ToolContext) orchestrate.PreToolUseResult {
	if !s.hooks.Has(hooks.PreToolUse) {
		return orchestrate.PreToolUseResult{}
	}
	name := t.Name()
	r := s.hooks.Run(ctx, hooks.PreToolUse, name, s.toolInput(name, use, tc))
	s.hookMessages(r)
	out := orchestrate.PreToolUseResult{UpdatedInput: r.UpdatedInput, Context: r.Context}
	if r.Stop {
		// continue:false stops the session, as in Claude Code: the call
		// does not run and the turn is interrupted.
		s.Emit(agent.Event{Kind: agent.EventHook, Text: "PreToolUse hook stopped the session: " + nonEmpty(r.StopReason, "continue: false")})
		s.Interrupt()
		return orchestrate.PreToolUseResult{Behavior: runtime.Deny, Message: fmt.Sprintf("PreToolUse:%s hook stopped the session: %s", name, nonEmpty(r.StopReason, "continue: false"))}
	}
	switch r.Decision {
	case hooks.Deny:
		out.Behavior = runtime.Deny
		out.Message = fmt.Sprintf("PreToolUse:%s hook blocked this call: %s", name, r.Reason)
	case hooks.Ask:
		out.Behavior, out.Message = runtime.Ask, r.Reason
	case hooks.Allow:
		out.Behavior = runtime.Allow
	}
	return out
}

// postToolUse runs the PostToolUse hooks of a call that returned a
// result: their additionalContext and blocking feedback reach the model
// with the result.
func (s *Session) postToolUse(ctx context.Context, t runtime.Tool, use orchestrate.ToolUse, _ any, res runtime.Result, tc *runtime.ToolContext) orchestrate.PostToolUseResult {
	if !s.hooks.Has(hooks.PostToolUse) {
		return orchestrate.PostToolUseResult{}
	}
	name := t.Name()
	in := s.toolInput(name, use, tc)
	var response any = res.Text()
	if res.Data != nil {
		if b, err := json.Marshal(res.Data); err == nil {
			response = json.RawMessage(b)
		}
	}
	in["tool_response"] = response
	r := s.hooks.Run(ctx, hooks.PostToolUse, name, in)
	s.hookMessages(r)
	var out orchestrate.PostToolUseResult
	if r.Decision == hooks.Deny {
		out.Context = append(out.Context, fmt.Sprintf("PostToolUse:%s hook feedback: %s", name, r.Reason))
	}
	out.Context = append(out.Context, r.Context...)
	return out
}

func (s *Session) toolInput(name string, use orchestrate.ToolUse, tc *runtime.ToolContext) hooks.Input {
	raw := use.Input
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	in := hooks.Input{"tool_name": name, "tool_input": raw, "tool_use_id": use.ID}
	if tc != nil && tc.Cwd != "" {
		in["cwd"] = tc.Cwd
	}
	return in
}

// userPromptSubmit runs the UserPromptSubmit hooks: blocked is the
// reason when a hook blocked the prompt; otherwise prompt comes back with
// the hooks' context appended.
func (s *Session) userPromptSubmit(ctx context.Context, prompt string) (string, error) {
	if prompt == "" || !s.hooks.Has(hooks.UserPromptSubmit) {
		return prompt, nil
	}
	r := s.hooks.Run(ctx, hooks.UserPromptSubmit, "", hooks.Input{"prompt": prompt})
	s.hookMessages(r)
	if r.Decision == hooks.Deny {
		return "", fmt.Errorf("UserPromptSubmit hook blocked the prompt: %s", r.Reason)
	}
	if r.Stop {
		return "", fmt.Errorf("UserPromptSubmit hook stopped the session: %s", r.StopReason)
	}
	if len(r.Context) > 0 {
		prompt += "\n\n" + strings.Join(r.Context, "\n")
	}
	return prompt, nil
}

// sessionStart runs the SessionStart hooks (source "startup"); their
// context goes to the model with the first request.
func (s *Session) sessionStart(ctx context.Context) {
	if !s.hooks.Has(hooks.SessionStart) {
		return
	}
	r := s.hooks.Run(ctx, hooks.SessionStart, "startup", hooks.Input{"source": "startup"})
	s.hookMessages(r)
	for _, c := range r.Context {
		s.Notify(c)
	}
}

// hookMessages shows the user what the hooks said for them.
func (s *Session) hookMessages(r hooks.Result) {
	for _, m := range r.Messages {
		s.Emit(agent.Event{Kind: agent.EventHook, Text: m})
	}
}

// stopHook is agent.Config.OnStop when the session has Stop (or, for a
// sub-agent, SubagentStop) hooks: a hook's decision "block" makes the
// model go on with the reason as a user message; stop_hook_active tells
// the hook it already did once, so it can let the turn end, as in Claude
// Code. continue:false ends the run with the hook's stopReason.
func (s *Session) stopHook() func(context.Context, bool) (string, error) {
	ev := hooks.Stop
	if s.parent != nil {
		ev = hooks.SubagentStop
	}
	if !s.hooks.Has(ev) {
		return nil
	}
	return func(ctx context.Context, active bool) (string, error) {
		r := s.hooks.Run(ctx, ev, "", hooks.Input{"stop_hook_active": active})
		s.hookMessages(r)
		if r.Stop {
			return "", fmt.Errorf("%s hook stopped the session: %s", ev, nonEmpty(r.StopReason, "continue: false"))
		}
		if r.Decision == hooks.Deny {
			return fmt.Sprintf("%s hook feedback: %s", ev, r.Reason), nil
		}
		return "", nil
	}
}

func nonEmpty(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

// notification runs the Notification hooks when a permission prompt is
// about to be shown (Claude Code's notification_type
// "permission_prompt"; the matcher selects on that type). The prompt
// waits for them: they are bounded by their timeouts.
func (s *Session) notification(ctx context.Context, req ask.AskRequest) {
	if !s.hooks.Has(hooks.Notification) {
		return
	}
	r := s.hooks.Run(ctx, hooks.Notification, "permission_prompt", hooks.Input{
		"message":           "Claude needs your permission to use " + req.Tool,
		"notification_type": "permission_prompt",
	})
	s.hookMessages(r)
}
