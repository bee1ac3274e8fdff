package temporal

import (
	"encoding/json"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/provider"
)

// textContent is a tool_result's content of one text block.
func textContent(s string) []runtime.Block { return []runtime.Block{runtime.TextBlock(s)} }

// streamLine is one stream-json line, in the shapes of `agentcore run
// --output-format stream-json` (Claude Code's): system init, assistant
// and user messages, and the result.
type streamLine struct {
	Type      string            `json:"type"`
	Subtype   string            `json:"subtype,omitempty"`
	SessionID string            `json:"session_id"`
	Message   *provider.Message `json:"message,omitempty"`
	Cwd       string            `json:"cwd,omitempty"`
	Stop      string            `json:"stop_reason,omitempty"`
	Result    string            `json:"result,omitempty"`
	NumTurns  int               `json:"num_turns,omitempty"`
	IsError   bool              `json:"is_error,omitempty"`
	Usage     *provider.Usage   `json:"usage,omitempty"`
	Pending   []Ask             `json:"pending,omitempty"`
}

// events renders the session as stream-json lines: derived from the
// conversation, so a continued run shows the whole session too.
func (s *session) events() []string {
	lines := []streamLine{{Type: "system", Subtype: "init", SessionID: s.id, Cwd: s.snap.Dir}}
	for i := range s.snap.Messages {
		m := s.snap.Messages[i]
		lines = append(lines, streamLine{Type: string(m.Role), SessionID: s.id, Message: &m})
	}
	if len(s.pending) > 0 && !s.answered() {
		lines = append(lines, streamLine{Type: "system", Subtype: "permission_request", SessionID: s.id, Pending: s.pending})
	}
	if s.stop != "" {
		u := s.snap.Usage
		sub := "success"
		if s.stop == "error" {
			sub = "error_during_execution"
		} else if s.stop == "max_turns" {
			sub = "error_max_turns"
		}
		lines = append(lines, streamLine{Type: "result", Subtype: sub, SessionID: s.id, Stop: s.stop,
			Result: s.lastText, NumTurns: s.snap.Turns, IsError: s.stop == "error", Usage: &u})
	}
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		b, err := json.Marshal(l)
		if err != nil {
			continue // every field marshals; never expected
		}
		out = append(out, string(b))
	}
	return out
}
