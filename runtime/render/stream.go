package render

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/provider"
)

// The stream-json events, as Claude Code emits them (its transcript is
// runtime/render/testdata/claude-code.stream.jsonl, and a spec of
// cmd/agentcore compares the keys): a system init line; an assistant
// event per content block, the moment the block is complete (a tool_use
// before its call's result); a user event per tool result, as it is
// yielded; the result. Every event has a uuid and the session_id.

// streamConv is what stream-json tracks of one conversation's turn.
type streamConv struct {
	msgID     string
	text      strings.Builder // the text block streaming now
	textsSent int             // text blocks of this turn already sent
	toolsSent map[string]bool
}

func (j *jsonOut) conv(ev agent.Event) *streamConv {
	c, ok := j.convs[ev.ParentToolUseID]
	if !ok {
		c = &streamConv{}
		j.convs[ev.ParentToolUseID] = c
		c.newTurn(j.opts.NewUUID)
	}
	return c
}

func (c *streamConv) newTurn(uuid func() string) {
	c.msgID = "msg_" + strings.ReplaceAll(uuid(), "-", "")[:24]
	c.text.Reset()
	c.textsSent = 0
	c.toolsSent = map[string]bool{}
}

// MCPServer is an MCP server in the init line.
type MCPServer struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	// Source is where the server came from: "sdk" for an Agent SDK
	// host's in-process server, as Claude Code says (hosts key trust on
	// it); empty, and left out, for a configured one.
	Source string `json:"source,omitempty"`
}

type systemLine struct {
	Type            string `json:"type"`
	Subtype         string `json:"subtype"`
	SessionID       string `json:"session_id,omitempty"`
	Text            string `json:"text,omitempty"`
	ParentToolUseID string `json:"parent_tool_use_id,omitempty"`
	*Init
	UUID string `json:"uuid"`
}

// compactLine is Claude Code's compact_boundary system message: where a
// compaction replaced the history with a summary.
type compactLine struct {
	Type      string          `json:"type"`
	Subtype   string          `json:"subtype"`
	SessionID string          `json:"session_id"`
	UUID      string          `json:"uuid"`
	Metadata  compactMetadata `json:"compact_metadata"`
}

// compactMetadata says what started the compaction and how large the
// conversation was before it, in tokens.
type compactMetadata struct {
	Trigger   string `json:"trigger"`
	PreTokens int64  `json:"pre_tokens"`
}

// assistantMessage is an assistant event's message: Claude Code's API
// message with one content block.
type assistantMessage struct {
	ID                string           `json:"id"`
	Type              string           `json:"type"`
	Role              provider.Role    `json:"role"`
	Model             string           `json:"model"`
	Content           []provider.Block `json:"content"`
	StopReason        *string          `json:"stop_reason"`
	StopSequence      *string          `json:"stop_sequence"`
	Usage             Usage            `json:"usage"`
	ContextManagement *struct{}        `json:"context_management"`
}

type assistantLine struct {
	Type            string           `json:"type"`
	Message         assistantMessage `json:"message"`
	ParentToolUseID *string          `json:"parent_tool_use_id"`
	SessionID       string           `json:"session_id"`
	UUID            string           `json:"uuid"`
}

// streamEventLine is one of the API's stream events
// (--include-partial-messages); message_start's carries ttft_ms, the time
// since the request.
type streamEventLine struct {
	Type            string          `json:"type"`
	Event           json.RawMessage `json:"event"`
	SessionID       string          `json:"session_id"`
	ParentToolUseID *string         `json:"parent_tool_use_id"`
	UUID            string          `json:"uuid"`
	TTFTMs          *int64          `json:"ttft_ms,omitempty"`
}

// statusLine says a request is on its way (--include-partial-messages).
type statusLine struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	Status    string `json:"status"`
	UUID      string `json:"uuid"`
	SessionID string `json:"session_id"`
}

// userBlock is a user event's content block: a tool_result in Claude
// Code's shape (content a string when it is all text, is_error always
// present), or text.
type userBlock struct {
	ToolUseID string `json:"tool_use_id,omitempty"`
	Type      string `json:"type"`
	Content   any    `json:"content,omitempty"`
	IsError   *bool  `json:"is_error,omitempty"`
	Text      string `json:"text,omitempty"`
}

type userLine struct {
	Type    string `json:"type"`
	Message struct {
		Role    provider.Role `json:"role"`
		Content []userBlock   `json:"content"`
	} `json:"message"`
	ParentToolUseID *string `json:"parent_tool_use_id"`
	SessionID       string  `json:"session_id"`
	UUID            string  `json:"uuid"`
	Timestamp       string  `json:"timestamp"`
	ToolUseResult   any     `json:"tool_use_result,omitempty"`
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
	UUID string `json:"uuid"`
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
	for _, list := range []*[]string{&init.Tools, &init.SlashCommands, &init.Agents, &init.Skills, &init.Plugins} {
		if *list == nil {
			*list = []string{}
		}
	}
	if init.MCPServers == nil {
		init.MCPServers = []MCPServer{}
	}
	if init.OutputStyle == "" {
		init.OutputStyle = "default"
	}
	j.enc.Encode(systemLine{Type: "system", Subtype: "init", SessionID: j.opts.Session, Init: &init, UUID: j.opts.NewUUID()})
}

// prompt starts the output: Claude Code does not echo the prompt.
func (j *jsonOut) prompt(string) {
	if j.startAt.IsZero() {
		j.startAt = j.opts.Now()
	}
	j.init()
}

// observe writes ev. Only the main run's EventDone gives the result: a
// sub-agent's ends in its Agent call's tool_result.
func (j *jsonOut) observe(ev agent.Event) {
	main := ev.ParentToolUseID == ""
	switch {
	case ev.Kind == agent.EventRequest && main:
		j.requestAt, j.toolsRan = j.opts.Now(), false
		if j.firstRequest.IsZero() {
			j.firstRequest = j.requestAt
		}
	case (ev.Kind == agent.EventText || ev.Kind == agent.EventToolQueued) && main && j.firstToken.IsZero() && !j.firstRequest.IsZero():
		j.firstToken = j.opts.Now()
	case ev.Kind == agent.EventAssistant && main && !j.requestAt.IsZero():
		j.apiTime += j.opts.Now().Sub(j.requestAt)
		j.requestAt = time.Time{}
	case ev.Kind == agent.EventToolStart && main:
		j.toolsRan = true
	case ev.Kind == agent.EventFallback && main && ev.Fallback != nil:
		j.opts.Init.Model = modelName(ev.Fallback.To) // the result's model too
	case ev.Kind == agent.EventToolResult && main && ev.Call != nil && ev.Call.Rejected():
		j.denials = append(j.denials, PermissionDenial{ToolName: ev.Name, ToolUseID: ev.ID, ToolInput: toolInput(j.rawInput(ev))})
	}
	if j.opts.Format == JSON {
		if ev.Kind == agent.EventDone && ev.Outcome != nil && main {
			j.result(ev.Outcome)
		}
		return
	}
	j.init()
	c := j.conv(ev)
	switch ev.Kind {
	case agent.EventRequest:
		c.newTurn(j.opts.NewUUID)
		if j.opts.PartialMessages && main {
			j.enc.Encode(statusLine{Type: "system", Subtype: "status", Status: "requesting", UUID: j.opts.NewUUID(), SessionID: j.opts.Session})
		}
	case agent.EventStream:
		if j.opts.PartialMessages {
			j.streamEvent(ev, c)
		}
	case agent.EventText:
		c.text.WriteString(ev.Text)
	case agent.EventToolQueued:
		j.flushText(ev, c)
		j.block(ev, c, provider.ToolUse(ev.ID, ev.Name, toolInput(ev.RawInput)), Usage{})
		c.toolsSent[ev.ID] = true
	case agent.EventAssistant:
		j.rest(ev, c)
	case agent.EventToolResult:
		if ev.Call != nil {
			j.toolResult(ev)
		}
	case agent.EventUser:
		j.userText(ev)
	case agent.EventContext:
		j.enc.Encode(systemLine{Type: "system", Subtype: "context", SessionID: j.opts.Session, Text: ev.Text,
			ParentToolUseID: ev.ParentToolUseID, UUID: j.opts.NewUUID()})
	case agent.EventFallback:
		j.fallback(ev)
	case agent.EventRetry:
		j.retry(ev)
	case agent.EventCompact:
		if ev.Compact != nil {
			j.enc.Encode(compactLine{Type: "system", Subtype: "compact_boundary", SessionID: j.opts.Session, UUID: j.opts.NewUUID(),
				Metadata: compactMetadata{Trigger: string(ev.Compact.Trigger), PreTokens: ev.Compact.PreTokens}})
		}
	case agent.EventHook:
		j.enc.Encode(systemLine{Type: "system", Subtype: "hook", SessionID: j.opts.Session, Text: ev.Text,
			ParentToolUseID: ev.ParentToolUseID, UUID: j.opts.NewUUID()})
	case agent.EventDone:
		if ev.Outcome != nil && main {
			j.result(ev.Outcome)
		}
	}
}

// streamEvent writes one of the API's events. A block's assistant event
// comes before its content_block_stop, as in Claude Code: a tool_use's
// was sent when the block was queued, a text block's is sent here.
func (j *jsonOut) streamEvent(ev agent.Event, c *streamConv) {
	var probe struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(ev.Raw, &probe)
	l := streamEventLine{Type: "stream_event", Event: ev.Raw, SessionID: j.opts.Session, ParentToolUseID: parent(ev), UUID: j.opts.NewUUID()}
	switch probe.Type {
	case "content_block_stop":
		j.flushText(ev, c)
	case "message_start":
		if !j.requestAt.IsZero() && ev.ParentToolUseID == "" {
			ms := j.opts.Now().Sub(j.requestAt).Milliseconds()
			l.TTFTMs = &ms
		}
	}
	j.enc.Encode(l)
}

// rawInput is the input the model sent for ev's call, as far as known.
func (j *jsonOut) rawInput(ev agent.Event) json.RawMessage {
	if ev.Call != nil && len(ev.Call.Raw) > 0 {
		return ev.Call.Raw
	}
	if ev.Call != nil && ev.Call.Input != nil {
		if b, err := json.Marshal(ev.Call.Input); err == nil {
			return b
		}
	}
	return nil
}

// toolInput is raw, or {} when the model sent nothing.
func toolInput(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || !json.Valid(raw) {
		return json.RawMessage(`{}`)
	}
	return raw
}

// flushText sends the text block that was streaming, if any.
func (j *jsonOut) flushText(ev agent.Event, c *streamConv) {
	if c.text.Len() == 0 {
		return
	}
	j.block(ev, c, provider.Text(c.text.String()), Usage{})
	c.text.Reset()
	c.textsSent++
}

// rest sends the blocks of the turn's whole message not sent yet: the
// last text block, and every block of a provider that does not stream.
func (j *jsonOut) rest(ev agent.Event, c *streamConv) {
	if ev.Message == nil {
		return
	}
	c.text.Reset()
	texts := 0
	for _, b := range ev.Message.Content {
		switch b.Type {
		case provider.TextBlock:
			texts++
			if texts <= c.textsSent {
				continue
			}
		case provider.ToolUseBlock:
			if c.toolsSent[b.ID] {
				continue
			}
			b.Input = toolInput(b.Input)
		}
		j.block(ev, c, b, usageOf(ev.Usage))
	}
	c.textsSent = texts
}

func (j *jsonOut) block(ev agent.Event, c *streamConv, b provider.Block, u Usage) {
	j.enc.Encode(assistantLine{Type: "assistant", ParentToolUseID: parent(ev), SessionID: j.opts.Session, UUID: j.opts.NewUUID(),
		Message: assistantMessage{ID: c.msgID, Type: "message", Role: provider.Assistant, Model: j.opts.Init.Model,
			Content: []provider.Block{b}, Usage: u}})
}

func (j *jsonOut) newUser(ev agent.Event) userLine {
	l := userLine{Type: "user", ParentToolUseID: parent(ev), SessionID: j.opts.Session, UUID: j.opts.NewUUID(),
		Timestamp: j.opts.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00")}
	l.Message.Role = provider.User
	return l
}

// toolResult sends a call's result as a user event the moment it is
// yielded, then the message it carries for the user, if any.
func (j *jsonOut) toolResult(ev agent.Event) {
	res := ev.Call.Result
	isErr := res.IsError
	l := j.newUser(ev)
	l.Message.Content = []userBlock{{ToolUseID: ev.ID, Type: "tool_result", Content: toolResultContent(res.Content), IsError: &isErr}}
	l.ToolUseResult = res.Data
	if res.Data == nil || isErr {
		l.ToolUseResult = res.Text()
		if isErr {
			l.ToolUseResult = "Error: " + res.Text()
		}
	}
	j.enc.Encode(l)
	if m, ok := runtime.UserMessageOf(res); ok {
		if m.Attachments == nil {
			m.Attachments = []runtime.Attachment{}
		}
		j.enc.Encode(userMessageLine{Type: "system", Subtype: "user_message", SessionID: j.opts.Session,
			ToolUseID: ev.ID, ParentToolUseID: parent(ev), UserMessage: m, UUID: j.opts.NewUUID()})
	}
}

// userText sends what the loop's user message holds besides the tool
// results (sent one by one already): an interruption notice, say.
func (j *jsonOut) userText(ev agent.Event) {
	if ev.Message == nil {
		return
	}
	l := j.newUser(ev)
	for _, b := range ev.Message.Content {
		if b.Type == provider.TextBlock {
			l.Message.Content = append(l.Message.Content, userBlock{Type: "text", Text: b.Text})
		}
	}
	if len(l.Message.Content) > 0 {
		j.enc.Encode(l)
	}
}
