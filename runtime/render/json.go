package render

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/structured"
)

// jsonOut writes the json and stream-json formats, in Claude Code's
// shapes (see stream.go for the events).
type jsonOut struct {
	enc     *json.Encoder
	opts    Options
	started bool

	// convs are the conversations being streamed: the main one ("") and
	// the sub-agents', by the Agent call's id.
	convs map[string]*streamConv
	// apiTime sums the main conversation's requests, from sending to the
	// whole message (duration_api_ms).
	apiTime   time.Duration
	requestAt time.Time
	denials   []PermissionDenial
	// startAt is when the output began (the prompt); firstRequest and
	// firstToken time the run's first request (time_to_request_ms,
	// ttft_ms).
	startAt, firstRequest, firstToken time.Time
	// toolsRan says whether a call of the main conversation's current
	// turn started: an interrupt then ends the run in its tools
	// (terminal_reason aborted_tools), else in the model's response
	// (aborted_streaming).
	toolsRan bool
}

func newJSON(w io.Writer, opts Options) *jsonOut {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if opts.NewUUID == nil {
		opts.NewUUID = runtime.NewUUID
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &jsonOut{enc: enc, opts: opts, convs: map[string]*streamConv{}}
}

// Result is the last line of stream-json and the whole of json, with
// Claude Code's keys (and agentcore's tool_calls, tool_errors, error).
type Result struct {
	Type            string `json:"type"`
	Subtype         string `json:"subtype"`
	IsError         bool   `json:"is_error"`
	DurationMS      int64  `json:"duration_ms"`
	DurationAPIMS   int64  `json:"duration_api_ms"`
	APIErrorStatus  *int   `json:"api_error_status"`
	TTFTMS          int64  `json:"ttft_ms"`
	TTFTStreamMS    int64  `json:"ttft_stream_ms"`
	TimeToRequestMS int64  `json:"time_to_request_ms"`
	NumTurns        int    `json:"num_turns"`
	Result          string `json:"result"`
	// StructuredOutput is the answer --json-schema asked for, once the
	// schema accepted it.
	StructuredOutput  json.RawMessage       `json:"structured_output,omitempty"`
	StopReason        string                `json:"stop_reason"`
	SessionID         string                `json:"session_id,omitempty"`
	TotalCostUSD      float64               `json:"total_cost_usd"`
	Usage             Usage                 `json:"usage"`
	ModelUsage        map[string]ModelUsage `json:"modelUsage"`
	PermissionDenials []PermissionDenial    `json:"permission_denials"`
	TerminalReason    string                `json:"terminal_reason,omitempty"`
	UUID              string                `json:"uuid,omitempty"`
	ToolCalls         int                   `json:"tool_calls"`
	ToolErrors        int                   `json:"tool_errors"`
	Error             string                `json:"error,omitempty"`
	// Errors is Claude Code's list of what went wrong, present (maybe
	// empty) on every error subtype and absent on success: the Agent
	// SDK reads it from any result whose is_error is set.
	Errors []string `json:"errors,omitzero"`
	// DeferredToolUse is the call a PreToolUse hook deferred
	// (stop_reason tool_deferred): resume the session to decide again.
	DeferredToolUse *DeferredToolUse `json:"deferred_tool_use,omitempty"`
}

// DeferredToolUse is Claude Code's deferred_tool_use: the deferred call.
type DeferredToolUse struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// Usage is a run's token counts, cache tokens always present.
type Usage struct {
	InputTokens              int64 `json:"input_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
}

func usageOf(u provider.Usage) Usage {
	return Usage{InputTokens: u.InputTokens, CacheCreationInputTokens: u.CacheCreationInputTokens,
		CacheReadInputTokens: u.CacheReadInputTokens, OutputTokens: u.OutputTokens}
}

// ModelUsage is one model's share of a run (Claude Code's modelUsage).
type ModelUsage struct {
	InputTokens              int64   `json:"inputTokens"`
	OutputTokens             int64   `json:"outputTokens"`
	CacheReadInputTokens     int64   `json:"cacheReadInputTokens"`
	CacheCreationInputTokens int64   `json:"cacheCreationInputTokens"`
	WebSearchRequests        int     `json:"webSearchRequests"`
	CostUSD                  float64 `json:"costUSD"`
}

// PermissionDenial is a call the permission layer refused.
type PermissionDenial struct {
	ToolName  string          `json:"tool_name"`
	ToolUseID string          `json:"tool_use_id"`
	ToolInput json.RawMessage `json:"tool_input"`
}

// ResultOf converts an outcome to the result object; model names the
// model for modelUsage and the price (provider.Cost).
func ResultOf(o *agent.Outcome, session, model string) Result {
	r := Result{Type: "result", DurationMS: o.Duration.Milliseconds(), NumTurns: o.Turns, Result: o.Text,
		StopReason: string(o.Stop), ToolCalls: o.ToolCalls, ToolErrors: o.ToolErrors, SessionID: session,
		Usage: usageOf(o.Usage), PermissionDenials: []PermissionDenial{}, StructuredOutput: o.StructuredOutput}
	switch {
	case o.Stop == agent.StopError && errors.Is(o.Err, structured.ErrMaxRetries):
		r.Subtype, r.IsError, r.TerminalReason = "error_max_structured_output_retries", true, "error"
	case o.Stop == agent.StopEndTurn:
		r.Subtype, r.TerminalReason = "success", "completed"
	case o.Stop == agent.StopDeferred:
		// Claude Code's shape: a success whose result is empty; a call
		// deferred again on resume has no terminal_reason.
		r.Subtype, r.Result = "success", ""
		if !o.DeferredAgain {
			r.TerminalReason = "tool_deferred"
		}
		if d := o.Deferred; d != nil {
			r.DeferredToolUse = &DeferredToolUse{ID: d.ID, Name: d.Name, Input: d.Input}
		}
	case o.Stop == agent.StopMaxTurns:
		r.Subtype, r.IsError, r.TerminalReason = "error_max_turns", true, "max_turns"
	case o.Stop == agent.StopInterrupted:
		// The Agent SDK's TerminalReason has no "interrupted": an
		// interrupt is aborted_streaming, or aborted_tools once a call ran
		// (jsonOut knows which).
		r.Subtype, r.IsError, r.TerminalReason = "error_during_execution", true, "aborted_streaming"
	default:
		r.Subtype, r.IsError, r.TerminalReason = "error_during_execution", true, "error"
	}
	if r.IsError {
		r.Errors = []string{}
	}
	if o.Err != nil {
		r.Error = o.Err.Error()
		r.Errors = append(r.Errors, r.Error)
	}
	r.TotalCostUSD = provider.Cost(model, o.Usage)
	name := strings.TrimPrefix(model, "anthropic:")
	if name == "" {
		name = "unknown"
	}
	r.ModelUsage = map[string]ModelUsage{name: {
		InputTokens: o.Usage.InputTokens, OutputTokens: o.Usage.OutputTokens,
		CacheReadInputTokens: o.Usage.CacheReadInputTokens, CacheCreationInputTokens: o.Usage.CacheCreationInputTokens,
		CostUSD: r.TotalCostUSD,
	}}
	return r
}

// result writes (json) or streams (stream-json) the main run's result.
func (j *jsonOut) result(o *agent.Outcome) {
	r := ResultOf(o, j.opts.Session, j.opts.Init.Model)
	r.DurationAPIMS = j.apiTime.Milliseconds()
	if !j.firstToken.IsZero() {
		r.TTFTMS = j.firstToken.Sub(j.firstRequest).Milliseconds()
		r.TTFTStreamMS = r.TTFTMS
	}
	if !j.firstRequest.IsZero() && !j.startAt.IsZero() {
		r.TimeToRequestMS = j.firstRequest.Sub(j.startAt).Milliseconds()
	}
	if len(j.denials) > 0 {
		r.PermissionDenials = j.denials
	}
	if o.Stop == agent.StopInterrupted && j.toolsRan {
		r.TerminalReason = "aborted_tools"
	}
	r.UUID = j.opts.NewUUID()
	j.enc.Encode(r)
}

// toolResultContent is a tool_result's content as Claude Code writes it:
// a string when it is all text, the blocks otherwise.
func toolResultContent(blocks []runtime.Block) any {
	var text []string
	for _, b := range blocks {
		if b.Type != "text" {
			return blocks
		}
		text = append(text, b.Text)
	}
	return strings.Join(text, "\n")
}
