package render

import (
	"strings"

	"github.com/agentcore/agentcore/runtime/agent"
)

// fallbackLine is Claude Code's system message of a model fallback.
type fallbackLine struct {
	Type          string `json:"type"`
	Subtype       string `json:"subtype"`
	Content       string `json:"content"`
	Level         string `json:"level"`
	Trigger       string `json:"trigger"`
	OriginalModel string `json:"originalModel"`
	FallbackModel string `json:"fallbackModel"`
	SessionID     string `json:"session_id,omitempty"`
	UUID          string `json:"uuid"`
}

// fallback writes the switch to the fallback model (observe makes the
// assistant messages and the result name the fallback model from then on).
func (j *jsonOut) fallback(ev agent.Event) {
	if ev.Fallback == nil || ev.ParentToolUseID != "" {
		return
	}
	j.enc.Encode(fallbackLine{Type: "system", Subtype: "model_fallback", Content: ev.Text, Level: "warning",
		Trigger: ev.Fallback.Trigger, OriginalModel: modelName(ev.Fallback.From), FallbackModel: modelName(ev.Fallback.To),
		SessionID: j.opts.Session, UUID: j.opts.NewUUID()})
}

// modelName is a provider name as the init line gives the model: without
// "anthropic:".
func modelName(name string) string { return strings.TrimPrefix(name, "anthropic:") }
