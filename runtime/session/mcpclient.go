package session

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/mcp"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/provider"
)

// What the session offers its MCP servers as a client: its working
// directories as roots, its user (through the engine's Asker) for
// elicitation, and its model for sampling.

// clientCapabilities fills in the MCP client's roots and handlers; a
// caller's own Elicit or Sample in MCPOptions wins.
func (s *Session) clientCapabilities(o *mcp.Options) {
	if o.Roots == nil {
		o.Roots = s.tc.WorkingDirs
	}
	if o.Elicit == nil {
		o.Elicit = s.elicit
	}
	if o.Sample == nil {
		o.Sample = s.sample
	}
}

// syncRoots offers the servers the working directories as they are now;
// the manager tells the servers when they changed. Call it when no tool
// call runs (between turns, after Exec): the ToolContext is not locked.
func (s *Session) syncRoots() {
	if s.parent != nil || s.mcp == nil {
		return // a sub-agent's moves are its own; the servers are the parent's
	}
	s.mcp.SetRoots(s.tc.WorkingDirs)
}

// elicit puts a server's request for input to the user; a run without one
// declines it, and the model is told why with its next request.
func (s *Session) elicit(ctx context.Context, req ask.ElicitRequest) (ask.ElicitAnswer, error) {
	ans, err := s.engine.Elicit(ctx, req)
	if err == nil && ans.Reason != "" {
		s.Notify("<system-reminder>\n" + ans.Reason + ".\n</system-reminder>")
	}
	return ans, err
}

// ErrSamplingNoModel is the error of a sampling request to a session
// without a Provider.
var ErrSamplingNoModel = errors.New("this agentcore session has no model to answer sampling requests")

// sample answers a server's sampling request with the session's model,
// once the user approved it or a rule (McpSampling, McpSampling(server))
// allows it. A run that cannot ask refuses with an error saying which
// rule would allow it.
func (s *Session) sample(ctx context.Context, req mcp.SamplingRequest) (mcp.SamplingResult, error) {
	model := s.opts.Provider
	if model == nil {
		return mcp.SamplingResult{}, ErrSamplingNoModel
	}
	rule := mcp.SamplingRule + "(" + req.Server + ")"
	areq := ask.AskRequest{
		Tool: mcp.SamplingRule,
		Use:  fmt.Sprintf("MCP server %q asks the model %s", req.Server, model.Name()),
		Message: fmt.Sprintf("The server wants the session's model to answer the prompt below (sampling, up to %d tokens); nothing else of the conversation is sent. Allow it?",
			req.Request.MaxTokens),
		Detail:     samplingDetail(req.Request),
		Suggestion: rule,
	}
	ans, err := s.engine.Approve(ctx, mcp.SamplingGate, req.Server, s.tc, areq)
	if err != nil {
		return mcp.SamplingResult{}, fmt.Errorf("agentcore refused the sampling request: %w", err)
	}
	switch ans {
	case ask.AnswerDeny:
		return mcp.SamplingResult{}, fmt.Errorf("the user declined MCP server %q's sampling request", req.Server)
	case ask.AnswerAllowSession:
		if r, err := permission.ParseRule(rule, runtime.Allow); err == nil {
			s.engine.AddSessionRule(r)
		}
	}
	var text strings.Builder
	var stop provider.StopReason
	for ev, err := range model.Stream(ctx, req.Request) {
		if err != nil {
			return mcp.SamplingResult{}, fmt.Errorf("the model failed to answer the sampling request: %w", err)
		}
		if ev.Type == provider.EventMessage {
			stop = ev.StopReason
			for _, b := range ev.Message.Content {
				if b.Type == provider.TextBlock {
					text.WriteString(b.Text)
				}
			}
		}
	}
	return mcp.SamplingResult{Text: text.String(), Model: model.Name(), Stop: stop}, nil
}

// samplingDetail shows the server's system prompt and messages, each cut
// to a few lines.
func samplingDetail(r provider.Request) string {
	var b strings.Builder
	if r.System != "" {
		fmt.Fprintf(&b, "system: %s\n", cut(r.System))
	}
	for _, m := range r.Messages {
		for _, blk := range m.Content {
			fmt.Fprintf(&b, "%s: %s\n", m.Role, cut(blk.Text))
		}
	}
	return b.String()
}

// cut keeps the first 12 lines of s.
func cut(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > 12 {
		lines = append(lines[:12], fmt.Sprintf("… (%d more lines)", len(lines)-12))
	}
	return strings.Join(lines, "\n")
}
