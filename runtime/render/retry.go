package render

import (
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/provider"
)

// retryLine is Claude Code's system message of a retry (the Agent SDK's
// SDKAPIRetryMessage): error_status is null when there was no HTTP
// status (a broken or stalled stream, a network failure).
type retryLine struct {
	Type         string `json:"type"`
	Subtype      string `json:"subtype"`
	Attempt      int    `json:"attempt"`
	MaxRetries   int    `json:"max_retries"`
	RetryDelayMs int64  `json:"retry_delay_ms"`
	ErrorStatus  *int   `json:"error_status"`
	Error        string `json:"error"`
	UUID         string `json:"uuid"`
	SessionID    string `json:"session_id"`
}

// retry writes the main conversation's retry as an api_retry line.
func (j *jsonOut) retry(ev agent.Event) {
	if ev.Retry == nil || ev.ParentToolUseID != "" {
		return
	}
	l := retryLine{Type: "system", Subtype: "api_retry", Attempt: ev.Retry.Attempt, MaxRetries: ev.Retry.MaxRetries,
		RetryDelayMs: ev.Retry.Delay.Milliseconds(), Error: errorCategory(ev.Retry.Kind),
		UUID: j.opts.NewUUID(), SessionID: j.opts.Session}
	if s := ev.Retry.Status; s != 0 {
		l.ErrorStatus = &s
	}
	j.enc.Encode(l)
}

// errorCategory is the SDK's SDKAssistantMessageError for a kind of failure.
func errorCategory(k provider.ErrorKind) string {
	switch k {
	case provider.ErrAuth:
		return "authentication_failed"
	case provider.ErrRateLimit:
		return "rate_limit"
	case provider.ErrOverloaded:
		return "overloaded"
	case provider.ErrInvalidRequest:
		return "invalid_request"
	case provider.ErrNotFound:
		return "model_not_found"
	case provider.ErrServer:
		return "server_error"
	}
	return "unknown"
}
