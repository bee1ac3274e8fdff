package permission

import (
	"bufio"
	"context"
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
	if req.Message != "" {
		fmt.Fprintf(p.out, "%s\n", req.Message)
	}
	fmt.Fprintf(p.out, "  1. Yes\n")
	choices := "1/2"
	if req.Suggestion != "" {
		fmt.Fprintf(p.out, "  2. Yes, and allow %s for this session\n  3. No\n", req.Suggestion)
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
		case req.Suggestion != "" && (a == "2" || a == "a" || a == "always"):
			return AnswerAllowSession, nil
		case a == "" || a == "n" || a == "no" || (req.Suggestion != "" && a == "3") || (req.Suggestion == "" && a == "2"):
			return AnswerDeny, nil
		}
		fmt.Fprintf(p.out, "Please answer %s.\n", choices)
	}
	return AnswerDeny, nil
}

// CanUseTool is the orchestrator's permission hook: it runs Check and
// resolves "ask" with the Asker — in dontAsk mode, or without an
// interactive Asker, "ask" becomes a deny whose message says how to allow
// the call. It never returns Ask or Passthrough.
func (e *Engine) CanUseTool(ctx context.Context, t runtime.Tool, input any, tc *runtime.ToolContext) runtime.PermissionDecision {
	d, c, coverable := e.check(ctx, t, input, tc)
	if d.Behavior != runtime.Ask {
		return d
	}
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
	if _, ok := asker.(NonInteractive); ok || asker == nil {
		return deny(d.Message + " This run is non-interactive, so the call was denied." + e.howToAllow(suggestion))
	}
	// One prompt at a time; an earlier "always" may have settled this call.
	e.askMu.Lock()
	defer e.askMu.Unlock()
	if d, c, coverable = e.check(ctx, t, input, tc); d.Behavior != runtime.Ask {
		return d
	}
	req := AskRequest{Tool: t.Name(), Use: safeRenderUse(t, input), Message: d.Message, Agent: AgentOf(ctx)}
	if coverable {
		req.Suggestion = c.suggestion()
	}
	ans, err := asker.Ask(ctx, req)
	if err != nil {
		return deny(fmt.Sprintf("%s The permission prompt failed (%v), so the call was denied.", d.Message, err))
	}
	switch ans {
	case AnswerAllowOnce:
		return runtime.PermissionDecision{Behavior: runtime.Allow}
	case AnswerAllowSession:
		if r, err := ParseRule(req.Suggestion, runtime.Allow); err == nil && req.Suggestion != "" {
			e.AddSessionRule(r)
		}
		return runtime.PermissionDecision{Behavior: runtime.Allow}
	}
	return deny(fmt.Sprintf("The user denied %s%s. Do not retry it as is; ask the user what to do instead.", t.Name(), c.describeTarget()))
}

func (e *Engine) howToAllow(suggestion string) string {
	if suggestion == "" {
		return ""
	}
	return " To allow it, " + e.advice.allowRule(suggestion) + "."
}

// safeRenderUse is RenderUse; a panic gives "".
func safeRenderUse(t runtime.Tool, input any) string {
	s, _ := runtime.Guard("RenderUse", func() string { return t.RenderUse(input) })
	return s
}

func hostOf(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}
