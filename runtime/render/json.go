package render

import (
	"encoding/json"
	"io"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/provider"
)

// jsonOut writes the json and stream-json formats.
type jsonOut struct {
	enc     *json.Encoder
	opts    Options
	started bool
}

func newJSON(w io.Writer, opts Options) *jsonOut {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &jsonOut{enc: enc, opts: opts}
}

// Result is the last line of stream-json and the whole of json.
type Result struct {
	Type       string         `json:"type"`
	Subtype    string         `json:"subtype"`
	IsError    bool           `json:"is_error"`
	DurationMS int64          `json:"duration_ms"`
	NumTurns   int            `json:"num_turns"`
	Result     string         `json:"result"`
	StopReason string         `json:"stop_reason"`
	ToolCalls  int            `json:"tool_calls"`
	ToolErrors int            `json:"tool_errors"`
	Error      string         `json:"error,omitempty"`
	SessionID  string         `json:"session_id,omitempty"`
	Usage      provider.Usage `json:"usage"`
}

// ResultOf converts an outcome to the result object.
func ResultOf(o *agent.Outcome, session string) Result {
	r := Result{Type: "result", DurationMS: o.Duration.Milliseconds(), NumTurns: o.Turns, Result: o.Text,
		StopReason: string(o.Stop), ToolCalls: o.ToolCalls, ToolErrors: o.ToolErrors, SessionID: session, Usage: o.Usage}
	switch o.Stop {
	case agent.StopEndTurn:
		r.Subtype = "success"
	case agent.StopMaxTurns:
		r.Subtype, r.IsError = "error_max_turns", true
	case agent.StopInterrupted:
		r.Subtype, r.IsError = "interrupted", true
	default:
		r.Subtype, r.IsError = "error_during_execution", true
	}
	if o.Err != nil {
		r.Error = o.Err.Error()
	}
	return r
}

// messageLine is an assistant or user message. ParentToolUseID is null
// for the main conversation and the Agent call's id for a sub-agent's, as
// in Claude Code's stream-json.
type messageLine struct {
	Type            string           `json:"type"`
	Message         provider.Message `json:"message"`
	ParentToolUseID *string          `json:"parent_tool_use_id"`
	SessionID       string           `json:"session_id,omitempty"`
}

type systemLine struct {
	Type            string `json:"type"`
	Subtype         string `json:"subtype"`
	SessionID       string `json:"session_id,omitempty"`
	Text            string `json:"text,omitempty"`
	ParentToolUseID string `json:"parent_tool_use_id,omitempty"`
	*Init
}

// userMessageLine is a message a tool sent the user (SendUserMessage):
// its own event, so a host shows it as the agent's word to the user.
type userMessageLine struct {
	Type            string  `json:"type"`
	Subtype         string  `json:"subtype"`
	SessionID       string  `json:"session_id,omitempty"`
	ToolUseID       string  `json:"tool_use_id"`
	ParentToolUseID *string `json:"parent_tool_use_id"`
	runtime.UserMessage
}

// parent is stream-json's parent_tool_use_id of ev: nil (null) for the
// main conversation.
func parent(ev agent.Event) *string {
	if ev.ParentToolUseID == "" {
		return nil
	}
	id := ev.ParentToolUseID
	return &id
}

func (j *jsonOut) init() {
	if j.started || j.opts.Format != StreamJSON {
		return
	}
	j.started = true
	init := j.opts.Init
	if init.Tools == nil {
		init.Tools = []string{}
	}
	j.enc.Encode(systemLine{Type: "system", Subtype: "init", SessionID: j.opts.Session, Init: &init})
}

func (j *jsonOut) prompt(text string) {
	if j.opts.Format != StreamJSON {
		return
	}
	j.init()
	j.enc.Encode(messageLine{Type: "user", SessionID: j.opts.Session,
		Message: provider.Message{Role: provider.User, Content: []provider.Block{provider.Text(text)}}})
}

// observe writes ev. Only the main run's EventDone gives the result: a
// sub-agent's ends in its Agent call's tool_result.
func (j *jsonOut) observe(ev agent.Event) {
	if j.opts.Format == JSON {
		if ev.Kind == agent.EventDone && ev.Outcome != nil && ev.ParentToolUseID == "" {
			j.enc.Encode(ResultOf(ev.Outcome, j.opts.Session))
		}
		return
	}
	j.init()
	switch ev.Kind {
	case agent.EventAssistant:
		j.enc.Encode(messageLine{Type: "assistant", Message: *ev.Message, ParentToolUseID: parent(ev), SessionID: j.opts.Session})
	case agent.EventUser:
		j.enc.Encode(messageLine{Type: "user", Message: *ev.Message, ParentToolUseID: parent(ev), SessionID: j.opts.Session})
	case agent.EventToolResult:
		if ev.Call == nil {
			return
		}
		if m, ok := runtime.UserMessageOf(ev.Call.Result); ok {
			if m.Attachments == nil {
				m.Attachments = []runtime.Attachment{}
			}
			j.enc.Encode(userMessageLine{Type: "system", Subtype: "user_message", SessionID: j.opts.Session,
				ToolUseID: ev.Call.ID, ParentToolUseID: parent(ev), UserMessage: m})
		}
	case agent.EventContext:
		j.enc.Encode(systemLine{Type: "system", Subtype: "context", SessionID: j.opts.Session, Text: ev.Text,
			ParentToolUseID: ev.ParentToolUseID})
	case agent.EventHook:
		j.enc.Encode(systemLine{Type: "system", Subtype: "hook", SessionID: j.opts.Session, Text: ev.Text,
			ParentToolUseID: ev.ParentToolUseID})
	case agent.EventDone:
		if ev.Outcome != nil && ev.ParentToolUseID == "" {
			j.enc.Encode(ResultOf(ev.Outcome, j.opts.Session))
		}
	}
}
