package permission

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentcore/agentcore/runtime"
	userask "github.com/agentcore/agentcore/runtime/ask"
)

// CanUseTool is the orchestrator's permission hook: it runs
// CheckInvocation and resolves "ask" with the Asker — in dontAsk mode, or
// without an interactive Asker, "ask" becomes a deny whose message says
// how to allow the call. It never returns Ask or Passthrough. The prompt
// shows inv's render line and raw input; nothing is decoded or encoded
// again.
func (e *Engine) CanUseTool(ctx context.Context, inv *runtime.Invocation, tc *runtime.ToolContext) runtime.PermissionDecision {
	d, c, coverable := e.check(ctx, inv, tc)
	if d.Behavior != runtime.Ask {
		return d
	}
	t, input := inv.Tool, inv.Input
	e.mu.RLock()
	asker, mode := e.asker, e.mode
	e.mu.RUnlock()
	suggestion := ""
	if coverable {
		suggestion = c.suggestion()
	}
	if mode == ModeDontAsk {
		return deny(d.Message + " Denied: dontAsk mode denies whatever no rule allows." + e.howToAllow(suggestion))
	}
	e.mu.RLock()
	hook := e.requestHook
	e.mu.RUnlock()
	if hook != nil {
		req := userask.AskRequest{Tool: inv.ToolName, Use: inv.Use, Message: d.Message, Agent: userask.AgentOf(ctx),
			ToolUseID: runtime.ToolUseID(ctx), Input: inv.Raw, Suggestion: suggestion}
		if req.Input == nil {
			if b, err := json.Marshal(input); err == nil {
				req.Input = b
			}
		}
		if hd, ok := hook(ctx, req); ok {
			return hd
		}
	}
	if !userask.CanAsk(ctx, asker) {
		return deny(d.Message + " This run is non-interactive, so the call was denied." + e.howToAllow(suggestion))
	}
	// One prompt at a time; an earlier "always" may have settled this
	// call: the rules are read again, the call's analysis is kept.
	e.askMu.Lock()
	defer e.askMu.Unlock()
	if d, coverable = e.pipeline(ctx, c, tc); d.Behavior != runtime.Ask {
		return d
	}
	req := userask.AskRequest{Tool: inv.ToolName, Use: inv.Use, Message: d.Message, Agent: userask.AgentOf(ctx),
		ToolUseID: runtime.ToolUseID(ctx), Detail: safePreview(t, input, tc), Input: inv.Raw}
	if req.Input == nil {
		if b, err := json.Marshal(input); err == nil {
			req.Input = b // a call bound without its raw input (NewInvocation)
		}
	}
	if coverable {
		req.Suggestion = c.suggestion()
	}
	var reply userask.HostReply
	var err error
	e.notifyAsk(ctx, req)
	if ha, ok := asker.(userask.HostAsker); ok {
		reply, err = ha.AskHost(ctx, req)
	} else {
		reply.Answer, err = asker.Ask(ctx, req)
	}
	ans, updated := reply.Answer, reply.UpdatedInput
	if err != nil {
		return deny(fmt.Sprintf("%s The permission prompt failed (%v), so the call was denied.", d.Message, err))
	}
	switch ans {
	case userask.AnswerAllowOnce:
		return runtime.PermissionDecision{Behavior: runtime.Allow, UpdatedInput: updated}
	case userask.AnswerAllowSession:
		if r, err := ParseRule(req.Suggestion, runtime.Allow); err == nil && req.Suggestion != "" {
			e.AddSessionRule(r)
		}
		return runtime.PermissionDecision{Behavior: runtime.Allow, UpdatedInput: updated}
	}
	if reply.Message != "" {
		return deny(reply.Message)
	}
	return deny(fmt.Sprintf("The user denied %s%s. Do not retry it as is; ask the user what to do instead.", t.Name(), c.describeTarget()))
}

// Approve asks the user to approve what a running call is about to do,
// for a tool whose approval is part of its work rather than a gate in
// front of it: ExitPlanMode shows its plan and leaves plan mode the way
// the user picks. t, input and tc are the call's, as CanUseTool takes
// them; req is what the prompt shows (Tool, Use and Agent are filled in
// when empty).
//
// It follows the rules for the call, not the mode or the tool's own
// check: a deny rule refuses; an allow rule approves without asking
// (AnswerAllowOnce), unless an ask rule matches too; otherwise the Asker
// is asked, one prompt at a time. A run that cannot ask (no interactive
// Asker, dontAsk mode) refuses. A refusal that is not the user's comes
// with an error that says how to allow the call; the user's No is
// AnswerDeny without an error. The answer is the caller's to interpret:
// AnswerAllowSession adds no rule.
func (e *Engine) Approve(ctx context.Context, t runtime.Tool, input any, tc *runtime.ToolContext, req userask.AskRequest) (userask.Answer, error) {
	if t == nil {
		return userask.AnswerDeny, errors.New("no tool given to the approval")
	}
	inv := runtime.NewInvocation(t, input)
	c, err := e.newCall(inv, tc)
	if err != nil {
		return userask.AnswerDeny, err
	}
	rules := e.Rules()
	forced := false
	for _, r := range rules {
		switch {
		case r.Behavior == runtime.Deny && e.matches(r, c):
			return userask.AnswerDeny, fmt.Errorf("%s%s has been denied by the rule %s.", t.Name(), c.describeTarget(), r.describe())
		case r.Behavior == runtime.Ask && e.matches(r, c):
			forced = true
		}
	}
	if !forced && e.allowed(rules, c) {
		return userask.AnswerAllowOnce, nil
	}
	e.mu.RLock()
	asker, mode := e.asker, e.mode
	e.mu.RUnlock()
	need := fmt.Sprintf("%s%s needs the user's approval", t.Name(), c.describeTarget())
	how := ""
	if !forced {
		how = e.howToAllow(c.suggestion())
	}
	if mode == ModeDontAsk {
		return userask.AnswerDeny, fmt.Errorf("%s, and dontAsk mode denies whatever no rule allows.%s", need, how)
	}
	if !userask.CanAsk(ctx, asker) {
		return userask.AnswerDeny, fmt.Errorf("%s, and this run is non-interactive, so nobody could give it.%s", need, how)
	}
	e.askMu.Lock()
	defer e.askMu.Unlock()
	if req.Tool == "" {
		req.Tool = t.Name()
	}
	if req.Use == "" {
		req.Use = inv.Use
	}
	if req.Agent == "" {
		req.Agent = userask.AgentOf(ctx)
	}
	e.notifyAsk(ctx, req)
	ans, err := asker.Ask(ctx, req)
	if err != nil {
		return userask.AnswerDeny, fmt.Errorf("%s, and the prompt failed: %w", need, err)
	}
	return ans, nil
}

func (e *Engine) howToAllow(suggestion string) string {
	if suggestion == "" {
		return ""
	}
	return " To allow it, " + e.advice.allowRule(suggestion) + "."
}

// safePreview is the tool's RenderPreview (runtime.Previewer), "" for a
// tool without one; a panic gives "".
func safePreview(t runtime.Tool, input any, tc *runtime.ToolContext) string {
	p, ok := t.(runtime.Previewer)
	if !ok {
		return ""
	}
	s, _ := runtime.Guard("RenderPreview", func() string { return p.RenderPreview(input, tc) })
	return s
}

func hostOf(raw string) string {
	return urlHost(raw)
}

// Elicit puts req to the user through the engine's Asker, one prompt at
// a time like permission prompts. A run nobody can answer (no Asker that
// can elicit: a non-interactive run) declines, with a Reason that says
// so. Like questions, elicitations are never settled by rules or modes.
func (e *Engine) Elicit(ctx context.Context, req userask.ElicitRequest) (userask.ElicitAnswer, error) {
	e.mu.RLock()
	asker := e.asker
	e.mu.RUnlock()
	ea, ok := asker.(userask.ElicitAsker)
	if !ok || !userask.CanAsk(ctx, asker) {
		who := "an MCP server"
		if req.Server != "" {
			who = fmt.Sprintf("MCP server %q", req.Server)
		}
		return userask.ElicitAnswer{Action: userask.ElicitDecline, Reason: fmt.Sprintf(
			"agentcore declined %s's request for input (%s mode) without asking: nobody can answer it in this run (it is non-interactive); run agentcore on a terminal to answer such requests",
			who, req.EffectiveMode())}, nil
	}
	if req.Agent == "" {
		req.Agent = userask.AgentOf(ctx)
	}
	e.askMu.Lock()
	defer e.askMu.Unlock()
	return ea.Elicit(ctx, req)
}

// AskQuestions puts qs to the user through the engine's Asker, one prompt
// at a time like permission prompts, and returns the answers. Without an
// Asker that can ask (QuestionAsker) it returns ErrNoUser. Questions are
// never settled by rules or modes: only a person answers them.
func (e *Engine) AskQuestions(ctx context.Context, qs []userask.Question) ([]userask.QuestionAnswer, error) {
	e.mu.RLock()
	asker := e.asker
	e.mu.RUnlock()
	qa, ok := asker.(userask.QuestionAsker)
	if !ok || !userask.CanAsk(ctx, asker) {
		return nil, userask.ErrNoUser
	}
	e.askMu.Lock()
	defer e.askMu.Unlock()
	answers, err := qa.AskQuestions(ctx, userask.AgentOf(ctx), qs)
	if err != nil {
		return nil, err
	}
	if len(answers) != len(qs) {
		return nil, fmt.Errorf("the asker returned %d answers to %d questions", len(answers), len(qs))
	}
	return answers, nil
}
