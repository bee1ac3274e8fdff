package permission

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"

	"github.com/agentcore/agentcore/runtime"
)

// Answer is the user's answer to a permission prompt.
type Answer int

const (
	// AnswerDeny refuses the call.
	AnswerDeny Answer = iota
	// AnswerAllowOnce allows this call only.
	AnswerAllowOnce
	// AnswerAllowSession allows this call and adds Suggestion as an allow
	// rule for the rest of the session.
	AnswerAllowSession
)

// AskRequest is what a prompt shows.
type AskRequest struct {
	// Tool is the tool's name; Use its rendering of the call
	// (e.g. the command or the path).
	Tool, Use string
	// Message says why approval is needed.
	Message string
	// Suggestion is the allow rule "always" would add; empty when the
	// call cannot be covered by a rule, and "always" is not offered.
	Suggestion string
	// Agent names the sub-agent that makes the call (WithAgent), e.g.
	// "Explore agent (find the tests)"; empty for the main agent.
	Agent string
	// Detail is longer text the prompt shows in full before the choices,
	// e.g. the plan ExitPlanMode asks the user to approve, or what the
	// call will do (runtime.Previewer: an edit's diff, a command in full).
	Detail string
	// AlwaysLabel, when set, words the second yes (AnswerAllowSession)
	// instead of "Yes, and allow <Suggestion> for this session", and
	// offers it without a Suggestion: for an Approve whose caller gives
	// that answer its own meaning (ExitPlanMode: "Yes, and accept edits").
	AlwaysLabel string
	// ToolUseID is the call's tool_use id, and Input its input as JSON:
	// what an Agent SDK host's canUseTool is shown.
	ToolUseID string
	Input     json.RawMessage
}

type agentKey struct{}

// WithAgent marks ctx as a sub-agent's: the permission prompts of calls
// made under it name label as the one asking. A sub-agent's calls go
// through the same engine as its parent's (the same rules, mode and
// working directories, the same Asker), so its prompts reach the user who
// started it.
func WithAgent(ctx context.Context, label string) context.Context {
	return context.WithValue(ctx, agentKey{}, label)
}

// AgentOf returns the label WithAgent put on ctx, or "".
func AgentOf(ctx context.Context) string {
	s, _ := ctx.Value(agentKey{}).(string)
	return s
}

// Asker answers "ask" decisions. CanUseTool calls it one request at a
// time.
type Asker interface {
	Ask(ctx context.Context, req AskRequest) (Answer, error)
}

// HostAsker is an Asker whose answers carry more than yes or no: an
// Agent SDK host's canUseTool allows with an updatedInput (the call runs
// with it, decoded and validated again) or denies with a message for the
// model.
type HostAsker interface {
	Asker
	AskHost(ctx context.Context, req AskRequest) (HostReply, error)
}

// HostReply is a HostAsker's answer.
type HostReply struct {
	Answer Answer
	// UpdatedInput, with an allow, replaces the call's input.
	UpdatedInput json.RawMessage
	// Message, with a deny, is what the model is told.
	Message string
}

// ConditionalAsker is an Asker that can ask only sometimes: an MCP
// server's, which asks the client of the call through elicitation when
// that client supports it. When CanAsk is false the engine treats the
// call as non-interactive (NonInteractive): it is denied, with a message
// saying how to allow it.
type ConditionalAsker interface {
	Asker
	CanAsk(ctx context.Context) bool
}

// canAsk reports whether asker can ask for the call of ctx.
func canAsk(ctx context.Context, asker Asker) bool {
	switch a := asker.(type) {
	case nil, NonInteractive:
		return false
	case ConditionalAsker:
		return a.CanAsk(ctx)
	}
	return true
}

// NonInteractive is the Asker of runs without a terminal: it denies, and
// CanUseTool's message says how to allow the call.
type NonInteractive struct{}

// Ask always denies.
func (NonInteractive) Ask(context.Context, AskRequest) (Answer, error) { return AnswerDeny, nil }

// Prompt asks on a terminal (or any reader/writer pair, which makes it
// testable with pipes and tmux):
//
//	Bash: git push origin main
//	Bash with command "git push origin main" needs approval.
//	  1. Yes
//	  2. Yes, and allow Bash(git push origin main) for this session
//	  3. No
//	Allow? [1/2/3]:
//
// A request's Detail is printed between the first line and the message,
// each line behind "  │ ", and its AlwaysLabel replaces the wording of
// choice 2.
//
// Answers: 1, y or yes; 2, a or always; 3, n, no or an empty line; end of
// input denies. An unknown answer asks again (three times at most).
type Prompt struct {
	in  *bufio.Reader
	out io.Writer
	mu  sync.Mutex
}

// NewPrompt returns a prompt reading answers from in and writing to out.
func NewPrompt(in io.Reader, out io.Writer) *Prompt {
	return &Prompt{in: bufio.NewReader(in), out: out}
}

// Ask shows the request and reads one answer.
func (p *Prompt) Ask(ctx context.Context, req AskRequest) (Answer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return AnswerDeny, err
	}
	head := req.Tool
	if req.Use != "" {
		head += ": " + req.Use
	}
	if req.Agent != "" {
		head = req.Agent + " asks: " + head
	}
	fmt.Fprintf(p.out, "\n%s\n", head)
	if detail := strings.TrimRight(req.Detail, "\n"); detail != "" {
		for _, line := range strings.Split(detail, "\n") {
			fmt.Fprintf(p.out, "  │ %s\n", line)
		}
	}
	if req.Message != "" {
		fmt.Fprintf(p.out, "%s\n", req.Message)
	}
	fmt.Fprintf(p.out, "  1. Yes\n")
	always := req.AlwaysLabel
	if always == "" && req.Suggestion != "" {
		always = fmt.Sprintf("Yes, and allow %s for this session", req.Suggestion)
	}
	choices := "1/2"
	if always != "" {
		fmt.Fprintf(p.out, "  2. %s\n  3. No\n", always)
		choices = "1/2/3"
	} else {
		fmt.Fprintf(p.out, "  2. No\n")
	}
	for attempt := 0; attempt < 3; attempt++ {
		fmt.Fprintf(p.out, "Allow? [%s]: ", choices)
		line, err := p.in.ReadString('\n')
		if err != nil && line == "" {
			fmt.Fprintln(p.out)
			if err == io.EOF {
				return AnswerDeny, nil
			}
			return AnswerDeny, fmt.Errorf("read permission answer: %w", err)
		}
		a := strings.ToLower(strings.TrimSpace(line))
		switch {
		case a == "1" || a == "y" || a == "yes":
			return AnswerAllowOnce, nil
		case always != "" && (a == "2" || a == "a" || a == "always"):
			return AnswerAllowSession, nil
		case a == "" || a == "n" || a == "no" || (always != "" && a == "3") || (always == "" && a == "2"):
			return AnswerDeny, nil
		}
		fmt.Fprintf(p.out, "Please answer %s.\n", choices)
	}
	return AnswerDeny, nil
}

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
	if !canAsk(ctx, asker) {
		return deny(d.Message + " This run is non-interactive, so the call was denied." + e.howToAllow(suggestion))
	}
	// One prompt at a time; an earlier "always" may have settled this
	// call: the rules are read again, the call's analysis is kept.
	e.askMu.Lock()
	defer e.askMu.Unlock()
	if d, coverable = e.pipeline(ctx, c, tc); d.Behavior != runtime.Ask {
		return d
	}
	req := AskRequest{Tool: inv.ToolName, Use: inv.Use, Message: d.Message, Agent: AgentOf(ctx),
		ToolUseID: runtime.ToolUseID(ctx), Detail: safePreview(t, input, tc), Input: inv.Raw}
	if req.Input == nil {
		if b, err := json.Marshal(input); err == nil {
			req.Input = b // a call bound without its raw input (NewInvocation)
		}
	}
	if coverable {
		req.Suggestion = c.suggestion()
	}
	var reply HostReply
	var err error
	e.notifyAsk(ctx, req)
	if ha, ok := asker.(HostAsker); ok {
		reply, err = ha.AskHost(ctx, req)
	} else {
		reply.Answer, err = asker.Ask(ctx, req)
	}
	ans, updated := reply.Answer, reply.UpdatedInput
	if err != nil {
		return deny(fmt.Sprintf("%s The permission prompt failed (%v), so the call was denied.", d.Message, err))
	}
	switch ans {
	case AnswerAllowOnce:
		return runtime.PermissionDecision{Behavior: runtime.Allow, UpdatedInput: updated}
	case AnswerAllowSession:
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
func (e *Engine) Approve(ctx context.Context, t runtime.Tool, input any, tc *runtime.ToolContext, req AskRequest) (Answer, error) {
	if t == nil {
		return AnswerDeny, errors.New("no tool given to the approval")
	}
	inv := runtime.NewInvocation(t, input)
	c, err := e.newCall(inv, tc)
	if err != nil {
		return AnswerDeny, err
	}
	rules := e.Rules()
	forced := false
	for _, r := range rules {
		switch {
		case r.Behavior == runtime.Deny && e.matches(r, c):
			return AnswerDeny, fmt.Errorf("%s%s has been denied by the rule %s.", t.Name(), c.describeTarget(), r.describe())
		case r.Behavior == runtime.Ask && e.matches(r, c):
			forced = true
		}
	}
	if !forced && e.allowed(rules, c) {
		return AnswerAllowOnce, nil
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
		return AnswerDeny, fmt.Errorf("%s, and dontAsk mode denies whatever no rule allows.%s", need, how)
	}
	if !canAsk(ctx, asker) {
		return AnswerDeny, fmt.Errorf("%s, and this run is non-interactive, so nobody could give it.%s", need, how)
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
		req.Agent = AgentOf(ctx)
	}
	e.notifyAsk(ctx, req)
	ans, err := asker.Ask(ctx, req)
	if err != nil {
		return AnswerDeny, fmt.Errorf("%s, and the prompt failed: %w", need, err)
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
// tool without one; a panic gives "". It looks through the wrappers the
// agent loop and the pool put around a tool (an Unwrap method), which
// do not forward RenderPreview themselves.
func safePreview(t runtime.Tool, input any, tc *runtime.ToolContext) string {
	p, ok := t.(runtime.Previewer)
	for !ok {
		w, isWrapper := t.(interface{ Unwrap() runtime.Tool })
		if !isWrapper {
			return ""
		}
		t = w.Unwrap()
		p, ok = t.(runtime.Previewer)
	}
	s, _ := runtime.Guard("RenderPreview", func() string { return p.RenderPreview(input, tc) })
	return s
}

func hostOf(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}
