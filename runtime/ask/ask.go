// Package ask puts things to the user: permission prompts (Asker,
// AskRequest, Answer), an MCP server's elicitations (ElicitRequest) and
// multiple-choice questions (Question). Prompt asks on a terminal; a front
// end or an Agent SDK host supplies its own Asker. The permission engine
// decides when to ask; this package only asks.
package ask

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
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

// CanAsk reports whether asker can ask for the call of ctx.
func CanAsk(ctx context.Context, asker Asker) bool {
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
