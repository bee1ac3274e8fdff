package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentcore/agentcore/runtime/provider"
)

// The handler types besides "command", TypeHTTP and TypeCallback.
const (
	// TypeCommand runs Command with bash.
	TypeCommand = "command"
	// TypePrompt asks Runner.Model, in one request without tools,
	// whether the event may go on; the model answers {"ok": true} or
	// {"ok": false, "reason": "…"} (Claude Code's prompt hooks).
	TypePrompt = "prompt"
	// TypeAgent runs a read-only sub-agent (Runner.Agent) that may read
	// and search the project before it gives the same answer.
	TypeAgent = "agent"
	// TypeMCPTool calls a tool of a connected MCP server (Runner.MCPTool);
	// its text is read as a command's stdout.
	TypeMCPTool = "mcp_tool"
)

// The default timeouts of the model-backed hooks, Claude Code's.
const (
	DefaultPromptTimeout = 30 * time.Second
	DefaultAgentTimeout  = 60 * time.Second
)

// AgentMaxTurns caps a TypeAgent hook's sub-agent, as in Claude Code.
const AgentMaxTurns = 50

// PromptSystem is the system prompt of a TypePrompt hook's request,
// Claude Code's.
const PromptSystem = `You are evaluating a hook in Claude Code.

Your response must be a JSON object matching one of the following schemas:
1. If the condition is met, return: {"ok": true}
2. If the condition is not met, return: {"ok": false, "reason": "Reason for why it is not met"}`

// AgentSystem is the system prompt of a TypeAgent hook's sub-agent,
// Claude Code's; %s is the transcript's path and the tool it answers
// with.
const AgentSystem = `You are verifying a stop condition in Claude Code. Your task is to verify that the agent completed the given plan. The conversation transcript is available at: %s
You can read this file to analyze the conversation history if needed.

Use the available tools to inspect the codebase and verify the condition.
Use as few steps as possible - be efficient and direct.

When done, return your result using the %s tool with:
- ok: true if the condition is met
- ok: false with reason if the condition is not met`

// ResponseSchema is the JSON Schema of a prompt or agent hook's answer:
// the agent's StructuredOutput tool takes it as input schema.
const ResponseSchema = `{"type":"object","properties":{"ok":{"type":"boolean","description":"Whether the condition was met"},"reason":{"type":"string","description":"Reason, if the condition was not met"}},"required":["ok"]}`

// AgentFunc runs a TypeAgent hook: a read-only sub-agent given prompt
// (the hook's, with the input in it), which returns its structured
// answer, the JSON ResponseSchema describes. It must return when ctx
// ends (the hook's timeout).
type AgentFunc func(ctx context.Context, h Hook, prompt string) (json.RawMessage, error)

// verdict is a prompt or agent hook's answer.
type verdict struct {
	ok     bool
	reason string
}

// WithArguments is the hook's prompt with $ARGUMENTS replaced by the
// input JSON, or the input appended after "ARGUMENTS: " when the prompt
// has no $ARGUMENTS, as Claude Code does.
func WithArguments(prompt string, input []byte) string {
	if strings.Contains(prompt, "$ARGUMENTS") {
		return strings.ReplaceAll(prompt, "$ARGUMENTS", string(input))
	}
	return prompt + "\n\nARGUMENTS: " + string(input)
}

// parseVerdict reads a model's answer: one JSON object with a boolean
// "ok" and an optional string "reason" (a Markdown code fence around it
// is allowed).
func parseVerdict(text string) (verdict, error) {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "```") && strings.HasSuffix(t, "```") && len(t) >= 6 {
		t = strings.TrimSpace(t[3 : len(t)-3])
		t = strings.TrimSpace(strings.TrimPrefix(t, "json"))
	}
	var v struct {
		OK     *bool           `json:"ok"`
		Reason json.RawMessage `json:"reason"`
	}
	dec := json.NewDecoder(strings.NewReader(t))
	if err := dec.Decode(&v); err != nil || dec.More() {
		return verdict{}, fmt.Errorf("its answer is not JSON (%q); it must be {\"ok\": true} or {\"ok\": false, \"reason\": \"…\"}", clip(text, 200))
	}
	if v.OK == nil {
		return verdict{}, fmt.Errorf("its answer %s has no boolean \"ok\"", clip(t, 200))
	}
	out := verdict{ok: *v.OK}
	if len(v.Reason) > 0 && !bytes.Equal(v.Reason, []byte("null")) {
		if err := json.Unmarshal(v.Reason, &out.reason); err != nil {
			return verdict{}, fmt.Errorf("its answer %s has a \"reason\" that is not a string", clip(t, 200))
		}
	}
	return out, nil
}

// runPrompt asks r.Model, under the hook's timeout, and reads its answer.
func (r *Runner) runPrompt(ctx context.Context, h Hook, input []byte) answer {
	timeout := hookTimeout(h, DefaultPromptTimeout)
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	a := answer{timeout: timeout}
	if r.Model == nil {
		a.err = errors.New("the session has no model to ask; open it with a provider, or use a command hook")
		return a
	}
	// model switches when the provider can (provider.Forker; the replay
	// provider plays the turns scripted for "hook"); otherwise the
	// session's model answers, rather than no model at all.
	p := r.Model
	if h.Model != "" {
		if q, err := provider.ForSubagent(r.Model, "hook", h.Model); err == nil {
			p = q
		}
	}
	req := provider.Request{
		System:   PromptSystem,
		Messages: []provider.Message{{Role: provider.User, Content: []provider.Block{provider.Text(WithArguments(h.Prompt, input))}}},
	}
	var text strings.Builder
	var err error
	for ev, e := range p.Stream(hctx, req) {
		if e != nil {
			err = e
			break
		}
		if ev.Type == provider.EventText {
			text.WriteString(ev.Text)
		}
	}
	if a.settle(ctx, hctx, err) {
		return a
	}
	v, err := parseVerdict(text.String())
	if err != nil {
		a.err = err
		return a
	}
	a.verdict = &v
	return a
}

// runAgent runs r.Agent under the hook's timeout and reads its answer.
func (r *Runner) runAgent(ctx context.Context, h Hook, input []byte) answer {
	timeout := hookTimeout(h, DefaultAgentTimeout)
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	a := answer{timeout: timeout}
	if r.Agent == nil {
		a.err = errors.New("this session cannot start a sub-agent for it; use a prompt or command hook")
		return a
	}
	out, err := r.Agent(hctx, h, WithArguments(h.Prompt, input))
	if a.settle(ctx, hctx, err) {
		return a
	}
	v, err := parseVerdict(string(out))
	if err != nil {
		a.err = err
		return a
	}
	a.verdict = &v
	return a
}

// settle records how a hook that ran under hctx (ctx plus its timeout)
// ended when it did not answer: timed out, cancelled or failed. It
// reports whether it did.
func (a *answer) settle(ctx, hctx context.Context, err error) bool {
	switch {
	case hctx.Err() != nil && ctx.Err() == nil:
		a.timedOut, a.err = true, hctx.Err()
	case ctx.Err() != nil:
		a.err = ctx.Err()
	case err != nil:
		a.err = err
	default:
		return false
	}
	return true
}

// foldVerdict adds a prompt or agent hook's answer to res, as Claude
// Code maps ok:false per event: PreToolUse denies the call,
// Stop/SubagentStop make the model go on with the reason,
// UserPromptSubmit blocks the prompt, PostToolUse and
// PostToolUseFailure give the model the reason (a prompt hook on
// PostToolUse also ends the turn unless ContinueOnBlock), and
// PermissionRequest is not affected.
func foldVerdict(ev Event, h Hook, v verdict, res *Result, reasons map[Decision][]string) {
	if v.ok || ev == PermissionRequest {
		return
	}
	kind := strings.ToUpper(h.Type[:1]) + h.Type[1:] // "Prompt", "Agent"
	raise(res, Deny)
	reasons[Deny] = append(reasons[Deny], fmt.Sprintf("%s hook condition was not met: %s", kind, nonEmpty(v.reason, "(no reason given)")))
	if ev == PostToolUse && h.Type == TypePrompt && !h.ContinueOnBlock {
		res.Stop = true
		if res.StopReason == "" {
			res.StopReason = nonEmpty(v.reason, "a prompt hook's condition was not met")
		}
	}
}

// hookTimeout is h's timeout, or def when it sets none.
func hookTimeout(h Hook, def time.Duration) time.Duration {
	if h.Timeout > 0 {
		return time.Duration(h.Timeout * float64(time.Second))
	}
	return def
}

// clip shortens s to about n bytes for a message.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
