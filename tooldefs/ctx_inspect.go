//go:build internal || ant

package tooldefs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/pool"
	"github.com/agentcore/agentcore/runtime/provider"
)

// CtxInspect shows what the current context costs, largest part first:
// each message of the conversation (its role, turn and a short summary),
// each tool definition sent, the list of deferred tool names and the
// system prompt, with their tokens. Tokens are estimated, as the tool
// pool estimates them to decide deferral (JSON characters / 4), not
// counted by a tokenizer. It is for developing agents: finding what
// fills the context. limit keeps the N largest parts; kind keeps only
// messages, tools (definitions and the deferred names) or system.
//
// +tool:name=CtxInspect
// +tool:agentOnly
// +tool:readOnly
// +tool:concurrencySafe
// +tool:searchHint="token cost of the context messages tool definitions"
type CtxInspect struct{}

// CtxInspectInput is the input of CtxInspect.
type CtxInspectInput struct {
	// Show only the N largest parts (the totals still cover everything).
	Limit int `json:"limit,omitempty" jsonschema:"minimum=1"`
	// Show only one kind of part: messages, tools (the definitions sent and the deferred-names list) or system (the system prompt).
	Kind string `json:"kind,omitempty" jsonschema:"enum=messages,enum=tools,enum=system"`
}

// The kinds of a CtxPart.
const (
	CtxMessage  = "message"
	CtxTool     = "tool"
	CtxDeferred = "deferred"
	CtxSystem   = "system"
)

// CtxPart is one part of the context and its estimated tokens.
type CtxPart struct {
	// Kind is CtxMessage, CtxTool, CtxDeferred or CtxSystem.
	Kind string `json:"kind"`
	// Name is a message's role, a tool's name, or what the part is.
	Name string `json:"name"`
	// Index is a message's position in the conversation, from 1.
	Index int `json:"index,omitempty"`
	// Turn is the model request a message belongs to, counted over the
	// whole conversation from 1: a user message is sent in it, an
	// assistant message answers it.
	Turn int `json:"turn,omitempty"`
	// Summary says briefly what the part holds.
	Summary string `json:"summary,omitempty"`
	// Tokens is the estimate (pool.EstimateText of its JSON or text).
	Tokens int `json:"tokens"`
}

// CtxInspectOutput is the context's cost, largest part first.
type CtxInspectOutput struct {
	// Parts are the parts shown (after kind and limit), largest first.
	Parts []CtxPart `json:"parts"`
	// Matching counts the parts of the kind asked for, before limit.
	Matching int `json:"matching"`
	// Messages, Tools, Deferred and System total every part of each
	// kind, whatever the filter; Total is their sum.
	Messages int `json:"messages_tokens"`
	Tools    int `json:"tools_tokens"`
	Deferred int `json:"deferred_tokens"`
	System   int `json:"system_tokens"`
	Total    int `json:"total_tokens"`
	// MessageCount and ToolCount count the messages and definitions.
	MessageCount int `json:"message_count"`
	ToolCount    int `json:"tool_count"`
}

// ctxEstimateNote says how the numbers were made.
const ctxEstimateNote = "tokens are estimates: characters of the JSON sent / 4, the estimate the tool pool uses for deferral, not a tokenizer count; images count by their base64 size, which overstates them"

// Call reads the conversation, the definitions and the system prompt of
// the session the call runs in. It changes nothing.
func (CtxInspect) Call(_ context.Context, in *CtxInspectInput, c *runtime.Call) (CtxInspectOutput, error) {
	h, err := runtime.Need[agent.History](c.Context, "CtxInspect")
	if err != nil {
		return CtxInspectOutput{}, err
	}
	p, err := ctxPool(c.Context)
	if err != nil {
		return CtxInspectOutput{}, err
	}
	parts := ctxParts(h.Messages(), p, pool.LoadedIn(c.Context), h.BaseSystem())
	out := CtxInspectOutput{}
	for _, p := range parts {
		switch p.Kind {
		case CtxMessage:
			out.Messages += p.Tokens
			out.MessageCount++
		case CtxTool:
			out.Tools += p.Tokens
			out.ToolCount++
		case CtxDeferred:
			out.Deferred += p.Tokens
		case CtxSystem:
			out.System += p.Tokens
		}
	}
	out.Total = out.Messages + out.Tools + out.Deferred + out.System
	parts = slices.DeleteFunc(parts, func(p CtxPart) bool { return !ctxKindMatches(in.Kind, p.Kind) })
	slices.SortStableFunc(parts, func(a, b CtxPart) int { return b.Tokens - a.Tokens })
	out.Matching = len(parts)
	if in.Limit > 0 && len(parts) > in.Limit {
		parts = parts[:in.Limit]
	}
	out.Parts = parts
	return out, nil
}

// ctxPool is the pool this turn's tools come from: the one the session
// registered in the call's context (reading it does not reassemble the
// session's pool under a running turn).
func ctxPool(tc *runtime.ToolContext) (*pool.Pool, error) {
	if cat, ok := pool.CatalogFrom(tc); ok {
		if p, ok := cat.(*pool.Pool); ok {
			return p, nil
		}
	}
	return nil, errors.New("CtxInspect needs the session's tool pool (pool.Provide), and the tool context has none")
}

// ctxKindMatches reports whether a part of kind passes the filter.
func ctxKindMatches(filter, kind string) bool {
	switch filter {
	case "messages":
		return kind == CtxMessage
	case "tools":
		return kind == CtxTool || kind == CtxDeferred
	case "system":
		return kind == CtxSystem
	}
	return true
}

// ctxParts lists the context's parts in the order they are sent: the
// system prompt, the deferred names, the definitions, the messages.
func ctxParts(msgs []provider.Message, p *pool.Pool, loaded pool.Loaded, system string) []CtxPart {
	var parts []CtxPart
	if system != "" {
		parts = append(parts, CtxPart{Kind: CtxSystem, Name: "system prompt", Summary: ctxCut(system), Tokens: pool.EstimateText(system)})
	}
	if d := p.DeferredPrompt(); d != "" {
		names := p.DeferredNames()
		parts = append(parts, CtxPart{Kind: CtxDeferred, Name: "deferred tool names",
			Summary: fmt.Sprintf("%s (%d)", ctxCut(strings.Join(names, ", ")), len(names)), Tokens: pool.EstimateText(d)})
	}
	for _, t := range p.Sent(loaded) {
		parts = append(parts, CtxPart{Kind: CtxTool, Name: t.Name(), Tokens: pool.EstimateTokens(t)})
	}
	names := map[string]string{} // tool_use id → tool name
	turn := 1
	for i, m := range msgs {
		raw, err := json.Marshal(m)
		if err != nil {
			raw = nil
		}
		parts = append(parts, CtxPart{Kind: CtxMessage, Name: string(m.Role), Index: i + 1, Turn: turn,
			Summary: ctxSummary(m, names), Tokens: pool.EstimateText(string(raw))})
		if m.Role == provider.Assistant {
			turn++
		}
	}
	return parts
}

// ctxSummary describes a message's blocks in a line: the start of its
// text, the tools it calls, the results it carries.
func ctxSummary(m provider.Message, names map[string]string) string {
	var bits []string
	for _, b := range m.Content {
		switch b.Type {
		case provider.TextBlock:
			bits = append(bits, strconv.Quote(ctxCut(b.Text)))
		case provider.ToolUseBlock:
			names[b.ID] = b.Name
			bits = append(bits, "tool_use "+b.Name+" "+ctxCut(string(b.Input)))
		case provider.ToolResultBlock:
			name := names[b.ToolUseID]
			if name == "" {
				name = b.ToolUseID
			}
			what := "tool_result " + name
			if b.IsError {
				what += " (error)"
			}
			text := runtime.Result{Content: b.Content}.Text()
			bits = append(bits, what+": "+strconv.Quote(ctxCut(text)))
		default:
			bits = append(bits, string(b.Type))
		}
	}
	return ctxCutTo(strings.Join(bits, "; "), 160)
}

// ctxCut is s on one line, cut to 60 characters.
func ctxCut(s string) string { return ctxCutTo(s, 60) }

func ctxCutTo(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// ResultBlocks gives the model the totals and the parts, one a line.
func (CtxInspect) ResultBlocks(out CtxInspectOutput) []runtime.Block {
	var b strings.Builder
	fmt.Fprintf(&b, "Context: ~%d tokens (%s).\n", out.Total, ctxEstimateNote)
	fmt.Fprintf(&b, "messages ~%d (%d) · tool definitions ~%d (%d) · deferred names ~%d · system prompt ~%d\n",
		out.Messages, out.MessageCount, out.Tools, out.ToolCount, out.Deferred, out.System)
	fmt.Fprintf(&b, "Largest first (%d of %d):\n", len(out.Parts), out.Matching)
	for _, p := range out.Parts {
		fmt.Fprintf(&b, "%7d  %s\n", p.Tokens, p.label())
	}
	return []runtime.Block{runtime.TextBlock(strings.TrimSuffix(b.String(), "\n"))}
}

// label is the part on one line, without its tokens.
func (p CtxPart) label() string {
	switch p.Kind {
	case CtxMessage:
		return fmt.Sprintf("message #%d %s, turn %d: %s", p.Index, p.Name, p.Turn, p.Summary)
	case CtxTool:
		return "tool " + p.Name
	}
	if p.Summary == "" {
		return p.Name
	}
	return p.Name + ": " + p.Summary
}

// RenderUse shows the filter, if any.
func (CtxInspect) RenderUse(in *CtxInspectInput) string {
	var bits []string
	if in.Kind != "" {
		bits = append(bits, in.Kind)
	}
	if in.Limit > 0 {
		bits = append(bits, fmt.Sprintf("top %d", in.Limit))
	}
	return strings.Join(bits, ", ")
}

// RenderResult gives the total and the largest part.
func (CtxInspect) RenderResult(_ *CtxInspectInput, out CtxInspectOutput) string {
	s := fmt.Sprintf("~%d tokens in context (estimated)", out.Total)
	if len(out.Parts) > 0 {
		s += fmt.Sprintf("; largest: %s (~%d)", ctxCutTo(out.Parts[0].label(), 50), out.Parts[0].Tokens)
	}
	return s
}
