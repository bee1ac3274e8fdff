package session

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/hooks"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/provider"
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
	r := &hooks.Runner{
		Config:     cfg,
		Dir:        s.opts.Dir,
		ProjectDir: settings.ProjectRoot(s.opts.Dir, s.opts.Home),
		Current:    s.hookIdentity,
		Mode:       func() string { return string(engine.Mode()) },
		Env:        s.settingsEnvList(),
		Callback:   s.opts.HookCallback,
	}
	s.hookHandlers(r)
	return r
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
func (s *Session) preToolUse(ctx context.Context, inv *runtime.Invocation, tc *runtime.ToolContext) orchestrate.PreToolUseResult {
	if !s.hooks.Has(hooks.PreToolUse) {
		return orchestrate.PreToolUseResult{}
	}
	name := inv.ToolName
	r := s.hooks.Run(ctx, hooks.PreToolUse, name, s.toolInput(inv, tc))
	s.hookMessages(r)
	out := orchestrate.PreToolUseResult{UpdatedInput: r.UpdatedInput, Context: r.Context}
	if r.Stop {
		// continue:false stops the session, as in Claude Code: the call
		// does not run and the turn is interrupted.
		s.emit(agent.Event{Kind: agent.EventHook, Text: "PreToolUse hook stopped the session: " + nonEmpty(r.StopReason, "continue: false")})
		s.Interrupt()
		return orchestrate.PreToolUseResult{Behavior: runtime.Deny, Message: fmt.Sprintf("PreToolUse:%s hook stopped the session: %s", name, nonEmpty(r.StopReason, "continue: false"))}
	}
	switch r.Decision {
	case hooks.Deny:
		out.Behavior = runtime.Deny
		out.Message = fmt.Sprintf("PreToolUse:%s hook blocked this call: %s", name, r.Reason)
	case hooks.Defer:
		switch {
		case s.parent != nil:
			// A sub-agent's turn cannot be left open for a resume of
			// the parent's run (Claude Code refuses a served call's
			// defer alike).
			out.Behavior = runtime.Deny
			out.Message = fmt.Sprintf("PreToolUse:%s hook deferred this call (%s), but a sub-agent's call cannot be deferred, so it was not run.", name, nonEmpty(r.Reason, "no reason given"))
		case s.opts.Print:
			// Claude Code's -p: the run ends here and a resumed run asks
			// the hooks again.
			// The run's result names the call; nothing else is said, as
			// in Claude Code's stream.
			out.Defer, out.Message = true, r.Reason
		default:
			// Interactive: ignored with a warning, the call goes through
			// the permission check, as in Claude Code.
			s.emit(agent.Event{Kind: agent.EventHook, Text: fmt.Sprintf("PreToolUse:%s hook returned permissionDecision=defer in an interactive session; ignored (defer is print-mode only)", name)})
		}
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
func (s *Session) postToolUse(ctx context.Context, inv *runtime.Invocation, res runtime.Result, tc *runtime.ToolContext) orchestrate.PostToolUseResult {
	if !s.hooks.Has(hooks.PostToolUse) {
		return orchestrate.PostToolUseResult{}
	}
	name := inv.ToolName
	in := s.toolInput(inv, tc)
	var response any = res.Text()
	if res.Data != nil {
		if b, err := json.Marshal(res.Data); err == nil {
			response = json.RawMessage(b)
		}
	}
	in["tool_response"] = response
	if d, ok := orchestrate.Ran(ctx); ok {
		in["duration_ms"] = d.Milliseconds()
	}
	r := s.hooks.Run(ctx, hooks.PostToolUse, name, in)
	s.hookMessages(r)
	if r.Stop {
		// continue:false (or a prompt hook's ok:false) ends the turn
		// after this call, as in Claude Code.
		s.emit(agent.Event{Kind: agent.EventHook, Text: "PostToolUse hook stopped the turn: " + nonEmpty(r.StopReason, "continue: false")})
		s.Interrupt()
	}
	var out orchestrate.PostToolUseResult
	if len(r.UpdatedToolOutput) > 0 {
		out.Content = toolOutput(r.UpdatedToolOutput)
	}
	if r.Decision == hooks.Deny {
		out.Context = append(out.Context, fmt.Sprintf("PostToolUse:%s hook feedback: %s", name, r.Reason))
	}
	out.Context = append(out.Context, r.Context...)
	return out
}

// toolOutput is the content a PostToolUse hook's updatedToolOutput
// gives the model: a string is the text; content blocks (an MCP tool's
// shape) are their texts; an object with stdout (Bash's shape) is its
// stdout and stderr; anything else is its JSON.
func toolOutput(raw json.RawMessage) []runtime.Block {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return []runtime.Block{runtime.TextBlock(text)}
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) == nil {
		var out []runtime.Block
		for _, b := range blocks {
			if b.Type == "text" {
				out = append(out, runtime.TextBlock(b.Text))
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	var shell struct {
		Stdout *string `json:"stdout"`
		Stderr string  `json:"stderr"`
	}
	if json.Unmarshal(raw, &shell) == nil && shell.Stdout != nil {
		return []runtime.Block{runtime.TextBlock(strings.TrimRight(strings.Join(nonBlank(*shell.Stdout, shell.Stderr), "\n"), "\n"))}
	}
	return []runtime.Block{runtime.TextBlock(string(raw))}
}

func nonBlank(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

// failureHook is the executor's PostToolUseFailure hook, nil without
// such hooks.
func (s *Session) failureHook() orchestrate.PostToolUseFailureFunc {
	if !s.hooks.Has(hooks.PostToolUseFailure) {
		return nil
	}
	return s.postToolUseFailure
}

// postToolUseFailure runs the PostToolUseFailure hooks of a call that
// ran and failed; their context (and a blocking hook's reason) reaches
// the model with the error.
func (s *Session) postToolUseFailure(ctx context.Context, inv *runtime.Invocation, f orchestrate.Failure, tc *runtime.ToolContext) orchestrate.PostToolUseResult {
	name := inv.ToolName
	in := s.toolInput(inv, tc)
	msg := ""
	if f.Err != nil {
		msg = f.Err.Error()
	}
	in["error"] = msg
	in["is_interrupt"] = f.Interrupted
	in["duration_ms"] = f.Duration.Milliseconds()
	r := s.hooks.Run(ctx, hooks.PostToolUseFailure, name, in)
	s.hookMessages(r)
	var out orchestrate.PostToolUseResult
	if r.Decision == hooks.Deny {
		out.Context = append(out.Context, fmt.Sprintf("PostToolUseFailure:%s hook feedback: %s", name, r.Reason))
	}
	out.Context = append(out.Context, r.Context...)
	return out
}

// permissionRequest runs the PermissionRequest hooks of a call that
// needs approval (the permission engine's PermissionRequestHook): a
// hook's decision allow or deny answers for the user; exit 2 denies.
func (s *Session) permissionRequest(ctx context.Context, req ask.AskRequest) (runtime.PermissionDecision, bool) {
	if !s.hooks.Has(hooks.PermissionRequest) {
		return runtime.PermissionDecision{}, false
	}
	in := hooks.Input{"tool_name": req.Tool, "tool_input": req.Input}
	if len(req.Input) == 0 {
		in["tool_input"] = json.RawMessage("{}")
	}
	in["permission_suggestions"] = suggestions(req.Suggestion)
	s.agentFields(in)
	r := s.hooks.Run(ctx, hooks.PermissionRequest, req.Tool, in)
	s.hookMessages(r)
	v := r.Permission
	switch {
	case r.Decision == hooks.Deny:
		return runtime.PermissionDecision{Behavior: runtime.Deny, Message: fmt.Sprintf("PermissionRequest:%s hook denied this call: %s", req.Tool, r.Reason)}, true
	case v == nil:
		return runtime.PermissionDecision{}, false
	case v.Behavior == "deny":
		if v.Interrupt {
			s.Interrupt()
		}
		return runtime.PermissionDecision{Behavior: runtime.Deny, Message: nonEmpty(v.Message, fmt.Sprintf("Permission to use %s was denied by a PermissionRequest hook.", req.Tool))}, true
	}
	d := runtime.PermissionDecision{Behavior: runtime.Allow}
	if len(v.UpdatedInput) > 0 && string(v.UpdatedInput) != "null" {
		d.UpdatedInput = v.UpdatedInput
	}
	return d, true
}

// suggestions is Claude Code's permission_suggestions for the allow rule
// rule ("Bash(npm test)"): the rule the user's "always" would add to
// the local settings; empty without one.
func suggestions(rule string) []map[string]any {
	if rule == "" {
		return []map[string]any{}
	}
	r := map[string]any{"toolName": rule}
	if name, content, ok := strings.Cut(rule, "("); ok && strings.HasSuffix(content, ")") {
		r = map[string]any{"toolName": name, "ruleContent": strings.TrimSuffix(content, ")")}
	}
	return []map[string]any{{"type": "addRules", "rules": []any{r}, "behavior": "allow", "destination": "localSettings"}}
}

// permissionDenied runs the PermissionDenied hooks of a call the
// permission check denied (d); a hook's retry: true tells the model it
// may try the call again.
func (s *Session) permissionDenied(ctx context.Context, inv *runtime.Invocation, tc *runtime.ToolContext, d runtime.PermissionDecision) runtime.PermissionDecision {
	if d.Behavior != runtime.Deny || !s.hooks.Has(hooks.PermissionDenied) {
		return d
	}
	in := s.toolInput(inv, tc)
	in["reason"] = d.Message
	r := s.hooks.Run(ctx, hooks.PermissionDenied, inv.ToolName, in)
	s.hookMessages(r)
	if r.Retry {
		d.Message += " A PermissionDenied hook says you may retry this call."
	}
	return d
}

// subagentStart runs the SubagentStart hooks when a sub-agent's first
// turn begins; their context goes to the sub-agent with its first
// request.
func (s *Session) subagentStart(ctx context.Context) {
	if !s.hooks.Has(hooks.SubagentStart) {
		return
	}
	r := s.hooks.Run(ctx, hooks.SubagentStart, s.sub.Type, hooks.Input{"agent_id": s.sub.ID, "agent_type": s.sub.Type})
	s.hookMessages(r)
	for _, c := range r.Context {
		s.notify(c)
	}
}

// sessionEnd runs the SessionEnd hooks with reason (Claude Code's
// ExitReason: "other" for a run that ended, "prompt_input_exit" when the
// user left the terminal, "clear", "resume", "logout"). They cannot stop
// anything; they are bounded by their timeouts.
func (s *Session) sessionEnd(reason string) {
	if s.parent != nil || !s.hooks.Has(hooks.SessionEnd) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.sessionEndBudget())
	defer cancel()
	r := s.hooks.Run(ctx, hooks.SessionEnd, reason, hooks.Input{"reason": reason})
	s.hookMessages(r)
}

// The SessionEnd hooks' time budget, as Claude Code bounds them so that
// leaving is quick: the largest timeout a SessionEnd hook sets, at least
// 1.5 s and at most a minute (a hook without a timeout gets 1.5 s), or
// Options.SessionEndTimeout when longer
// (CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS), up to an hour.
const (
	minSessionEndBudget = 1500 * time.Millisecond
	maxSessionEndBudget = time.Minute
	maxSessionEndEnv    = time.Hour
)

func (s *Session) sessionEndBudget() time.Duration {
	longest := time.Duration(0)
	for _, m := range s.hooks.Config[hooks.SessionEnd] {
		for _, h := range m.Hooks {
			longest = max(longest, time.Duration(h.Timeout*float64(time.Second)))
		}
	}
	budget := max(minSessionEndBudget, min(longest, maxSessionEndBudget))
	if t := s.opts.SessionEndTimeout; t > 0 {
		budget = max(budget, min(t, maxSessionEndEnv))
	}
	return budget
}

// agentFields adds a sub-agent's agent_id and agent_type to a hook's
// input, as Claude Code does for hooks that fire inside one.
func (s *Session) agentFields(in hooks.Input) {
	if s.parent != nil {
		in["agent_id"], in["agent_type"] = s.sub.ID, s.sub.Type
	}
}

// toolInput is a tool hook's input for the call inv: its raw input, as
// the model sent it (or a hook or an approver replaced it).
func (s *Session) toolInput(inv *runtime.Invocation, tc *runtime.ToolContext) hooks.Input {
	raw := inv.Raw
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	in := hooks.Input{"tool_name": inv.ToolName, "tool_input": raw, "tool_use_id": inv.ID}
	if tc != nil && tc.Cwd != "" {
		in["cwd"] = tc.Cwd
	}
	s.agentFields(in)
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
		s.notify(c)
	}
}

// hookMessages shows the user what the hooks said for them.
func (s *Session) hookMessages(r hooks.Result) {
	for _, m := range r.Messages {
		s.emit(agent.Event{Kind: agent.EventHook, Text: m})
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
		in := hooks.Input{"stop_hook_active": active, "last_assistant_message": s.lastAssistantText(),
			// agentcore has no scheduled (cron) tasks.
			"session_crons": []any{}}
		s.agentFields(in)
		r := s.hooks.Run(ctx, ev, "", in)
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

// lastAssistantText is the text of the conversation's last assistant
// message (Claude Code's last_assistant_message).
func (s *Session) lastAssistantText() string {
	msgs := s.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != provider.Assistant {
			continue
		}
		var b strings.Builder
		for _, c := range msgs[i].Content {
			if c.Type == provider.TextBlock {
				b.WriteString(c.Text)
			}
		}
		return b.String()
	}
	return ""
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

// SetExitReason sets the reason Close gives the SessionEnd hooks, Claude
// Code's ExitReason: "prompt_input_exit" when the user left the terminal,
// "clear", "logout"; Close gives "other" when none was set, as a -p run's
// end does.
func (s *Session) SetExitReason(reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.exitReason = reason
}

func (s *Session) endReason() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return nonEmpty(s.exitReason, "other")
}
