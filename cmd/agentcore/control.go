package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/session"
)

// controlChannel is the Agent SDK's side of the conversation
// (--input-format stream-json): user messages and control requests come
// in on stdin, one JSON object a line; control responses and agentcore's
// own control requests (can_use_tool) go out on stdout between the
// stream-json events. Every control request gets a response: an
// unsupported one an error response, never silence.
type controlChannel struct {
	out     *lockedWriter
	sess    *session.Session
	warn    io.Writer
	prompts chan string
	// model is the session's model, which set_model switches;
	// defaultModel is --model, what set_model without a model restores.
	model        *switchable
	defaultModel string

	mu      sync.Mutex
	next    int
	pending map[string]chan controlReply
	closed  bool
}

// controlReply is the host's answer to one of agentcore's requests.
type controlReply struct {
	Subtype  string          `json:"subtype"`
	ID       string          `json:"request_id"`
	Response json.RawMessage `json:"response"`
	Error    string          `json:"error"`
}

// lockedWriter serializes whole writes: json.Encoder writes each value
// in one Write, so events and control messages never interleave.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func newControlChannel(out *lockedWriter, sess *session.Session, warn io.Writer) *controlChannel {
	return &controlChannel{out: out, sess: sess, warn: warn, prompts: make(chan string), pending: map[string]chan controlReply{}}
}

// send writes one message to the host.
func (c *controlChannel) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		fmt.Fprintln(c.warn, "agentcore: a control message did not encode:", err)
		return
	}
	_, _ = c.out.Write(append(b, '\n'))
}

// read takes stdin's lines until it ends, then closes prompts and fails
// the requests still waiting for the host.
func (c *controlChannel) read(ctx context.Context, in io.Reader) {
	defer func() {
		c.mu.Lock()
		c.closed = true
		for id, ch := range c.pending {
			close(ch)
			delete(c.pending, id)
		}
		c.mu.Unlock()
		close(c.prompts)
	}()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var msg struct {
			Type     string          `json:"type"`
			ID       string          `json:"request_id"`
			Request  json.RawMessage `json:"request"`
			Response controlReply    `json:"response"`
			Message  struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			fmt.Fprintf(c.warn, "agentcore: ignored a line of standard input that is not JSON (%v): %.80s\n", err, line)
			continue
		}
		switch msg.Type {
		case "user":
			text := userText(msg.Message.Content)
			select {
			case c.prompts <- text:
			case <-ctx.Done():
				return
			}
		case "control_request":
			c.handle(msg.ID, msg.Request)
		case "control_response":
			c.mu.Lock()
			ch, ok := c.pending[msg.Response.ID]
			delete(c.pending, msg.Response.ID)
			c.mu.Unlock()
			if ok {
				ch <- msg.Response
			}
		case "control_cancel_request", "keep_alive":
		default:
			fmt.Fprintf(c.warn, "agentcore: ignored a message of type %q on standard input\n", msg.Type)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(c.warn, "agentcore: reading standard input:", err)
	}
}

// userText is a user message's text: a string, or its text blocks.
func userText(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(content, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// handle answers one control request from the host.
func (c *controlChannel) handle(id string, raw json.RawMessage) {
	var req struct {
		Subtype       string          `json:"subtype"`
		Mode          string          `json:"mode"`
		Model         *string         `json:"model"`
		Hooks         json.RawMessage `json:"hooks"`
		SDKMCPServers []string        `json:"sdkMcpServers"`
	}
	_ = json.Unmarshal(raw, &req)
	ok := func(resp any) {
		c.send(map[string]any{"type": "control_response", "response": map[string]any{"subtype": "success", "request_id": id, "response": resp}})
	}
	fail := func(format string, a ...any) {
		c.send(map[string]any{"type": "control_response", "response": map[string]any{"subtype": "error", "request_id": id, "error": fmt.Sprintf(format, a...)}})
	}
	switch req.Subtype {
	case "initialize":
		if len(req.SDKMCPServers) > 0 {
			fail("agentcore does not host in-process SDK MCP servers (%s) yet; give them to agentcore as stdio servers with --mcp-config", strings.Join(req.SDKMCPServers, ", "))
			return
		}
		if len(req.Hooks) > 0 && string(req.Hooks) != "null" && string(req.Hooks) != "{}" {
			fail("agentcore does not call SDK hook callbacks yet; use command hooks in .claude/settings.json")
			return
		}
		source := "none"
		if os.Getenv("ANTHROPIC_API_KEY") != "" {
			source = "ANTHROPIC_API_KEY"
		}
		ok(map[string]any{
			"commands": []any{}, "agents": []any{}, "output_style": "default",
			"available_output_styles": []string{"default"}, "models": []any{},
			"account": map[string]any{"apiKeySource": source}, "pid": os.Getpid(),
			"pending_permission_requests": []any{},
		})
	case "interrupt":
		c.sess.Interrupt()
		ok(map[string]any{})
	case "set_permission_mode":
		mode, err := permission.ParseMode(req.Mode)
		if err != nil {
			fail("set_permission_mode: %v", err)
			return
		}
		c.sess.Engine().SetMode(mode)
		ok(map[string]any{})
	case "set_model":
		spec := c.defaultModel
		if req.Model != nil && *req.Model != "" && *req.Model != "default" {
			spec = *req.Model
		}
		p, _, err := modelSpec(spec)
		if err != nil {
			fail("set_model: %v", err)
			return
		}
		c.model.set(p)
		ok(map[string]any{})
	case "mcp_status":
		servers := []map[string]any{}
		for _, st := range c.sess.MCP().Servers() {
			servers = append(servers, map[string]any{"name": st.Name, "status": st.State.String()})
		}
		ok(map[string]any{"mcpServers": servers})
	case "set_max_thinking_tokens":
		fail("agentcore does not send thinking budgets to the model: set_max_thinking_tokens has no effect here, so it is refused")
	default:
		fail("agentcore does not support the control request %q", req.Subtype)
	}
}

// request sends agentcore's control request to the host and waits for
// its response.
func (c *controlChannel) request(ctx context.Context, req map[string]any) (controlReply, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return controlReply{}, fmt.Errorf("the SDK host closed standard input")
	}
	c.next++
	id := fmt.Sprintf("agentcore-%d", c.next)
	ch := make(chan controlReply, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	c.send(map[string]any{"type": "control_request", "request_id": id, "request": req})
	select {
	case r, ok := <-ch:
		if !ok {
			return controlReply{}, fmt.Errorf("the SDK host closed standard input before answering")
		}
		if r.Subtype == "error" {
			return r, fmt.Errorf("the SDK host answered with an error: %s", r.Error)
		}
		return r, nil
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		return controlReply{}, context.Cause(ctx)
	}
}

// hostAsker asks the SDK host's canUseTool (--permission-prompt-tool
// stdio): allow, with the input the host may have changed, or deny with
// the host's message.
type hostAsker struct{ c *controlChannel }

// Ask is AskHost without the input and the message.
func (a hostAsker) Ask(ctx context.Context, req permission.AskRequest) (permission.Answer, error) {
	r, err := a.AskHost(ctx, req)
	return r.Answer, err
}

// AskHost sends a can_use_tool request.
func (a hostAsker) AskHost(ctx context.Context, req permission.AskRequest) (permission.HostReply, error) {
	input := req.Input
	if len(input) == 0 {
		input = json.RawMessage(`{}`)
	}
	r, err := a.c.request(ctx, map[string]any{"subtype": "can_use_tool", "tool_name": req.Tool, "input": input,
		"tool_use_id": req.ToolUseID, "decision_reason": req.Message})
	if err != nil {
		return permission.HostReply{Answer: permission.AnswerDeny}, err
	}
	var res struct {
		Behavior     string          `json:"behavior"`
		UpdatedInput json.RawMessage `json:"updatedInput"`
		Message      string          `json:"message"`
	}
	if err := json.Unmarshal(r.Response, &res); err != nil {
		return permission.HostReply{Answer: permission.AnswerDeny}, fmt.Errorf("the SDK host's can_use_tool answer is not a permission result: %v", err)
	}
	switch res.Behavior {
	case "allow":
		reply := permission.HostReply{Answer: permission.AnswerAllowOnce}
		if len(res.UpdatedInput) > 0 && string(res.UpdatedInput) != "null" {
			reply.UpdatedInput = res.UpdatedInput
		}
		return reply, nil
	case "deny":
		msg := res.Message
		if msg == "" {
			msg = "The SDK host denied " + req.Tool + "."
		}
		return permission.HostReply{Answer: permission.AnswerDeny, Message: msg}, nil
	}
	return permission.HostReply{Answer: permission.AnswerDeny}, fmt.Errorf("the SDK host answered can_use_tool with behavior %q; want allow or deny", res.Behavior)
}
