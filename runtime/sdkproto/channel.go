// Package sdkproto is the Agent SDK's control protocol, as Claude Code
// speaks it with --input-format stream-json: the host's user messages
// and control requests come in on stdin, one JSON object a line, and
// control responses and agentcore's own control requests (can_use_tool,
// hook_callback, mcp_message) go out on stdout, between the stream-json
// events that runtime/render writes (render.StreamJSON) on the same
// writer (Channel.Writer).
//
// A front end makes a Channel, reads stdin with Read, waits for the
// host's initialize with First, opens its session with Configure's
// options, then Attach-es the session and runs the prompts that come on
// Prompts.
package sdkproto

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/hooks"
	"github.com/agentcore/agentcore/runtime/mcp"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/session"
)

// Channel is the Agent SDK host's side of the conversation: user
// messages and control requests come in on stdin, one JSON object a
// line; control responses and agentcore's own control requests go out
// on Writer between the stream-json events. Every control request gets a
// response: an unsupported one an error response, never silence.
//
// The host's first message is its initialize request, whose hooks and
// in-process MCP servers the session is opened with: first waits for
// it, then attach gives the channel the session. Until then the host's
// answers to agentcore's requests (an in-process server's tools/list)
// are handled at once and everything else waits.
type Channel struct {
	out     *lockedWriter
	sess    *session.Session
	warn    io.Writer
	opts    Options
	prompts chan string

	firstCh chan *Initialize // the host's initialize, or nil: sent once
	ready   chan struct{}    // closed by Attach
	init    *Initialize
	servers map[string]*mcp.HostTransport // the host's in-process MCP servers

	mu      sync.Mutex
	next    int
	pending map[string]chan controlReply
	closed  bool
}

// Options are what a Channel needs of its front end.
type Options struct {
	// SetModel switches the session's model from the next request
	// (set_model); spec "" restores the one it started with.
	SetModel func(spec string) error
	// APIKeySource is the initialize response's account.apiKeySource:
	// the environment variable the credential came from, or "none".
	APIKeySource string
}

// Initialize is the host's initialize request.
type Initialize struct {
	id  string
	raw json.RawMessage
	// Hooks are the host's callbacks by event: matchers with the ids to
	// call back (hook_callback); SDKMCPServers name its in-process MCP
	// servers (createSdkMcpServer).
	Hooks map[string][]struct {
		Matcher         string   `json:"matcher"`
		HookCallbackIDs []string `json:"hookCallbackIds"`
		Timeout         float64  `json:"timeout"`
	} `json:"hooks"`
	SDKMCPServers []string `json:"sdkMcpServers"`
	// Agents are the host's agent types by name (the SDK's agents
	// option): the front end offers them to its Agent tool.
	Agents map[string]Agent `json:"agents"`
}

// Agent is one of the host's agent types.
type Agent struct {
	Description     string   `json:"description"`
	Prompt          string   `json:"prompt"`
	Tools           []string `json:"tools"`
	DisallowedTools []string `json:"disallowedTools"`
	Model           string   `json:"model"`
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

// New returns a channel whose messages go to out (stdout) and whose
// warnings (lines it ignored, a malformed request) go to warn.
func New(out, warn io.Writer, o Options) *Channel {
	return &Channel{out: &lockedWriter{w: out}, warn: warn, opts: o, prompts: make(chan string), pending: map[string]chan controlReply{},
		firstCh: make(chan *Initialize, 1), ready: make(chan struct{}), servers: map[string]*mcp.HostTransport{}}
}

// Writer is out, locked: the stream-json events are written through it,
// so that they and the control messages never interleave.
func (c *Channel) Writer() io.Writer { return c.out }

// Prompts are the host's user messages' texts, once the session is
// attached; closed when stdin ends or the context of Read does.
func (c *Channel) Prompts() <-chan string { return c.prompts }

// First waits for the host's first message and returns its initialize
// request, or nil when it sent none (or ctx ended).
func (c *Channel) First(ctx context.Context) *Initialize {
	select {
	case r := <-c.firstCh:
		c.init = r
		return r
	case <-ctx.Done():
		return nil
	}
}

// Configure adds the initialize request's hooks and in-process MCP
// servers to the session's options.
func (c *Channel) Configure(o *session.Options) {
	if c.init == nil {
		return
	}
	known := map[hooks.Event]bool{hooks.PreToolUse: true, hooks.PostToolUse: true, hooks.UserPromptSubmit: true,
		hooks.Stop: true, hooks.SubagentStop: true, hooks.SessionStart: true, hooks.Notification: true}
	cfg := hooks.Config{}
	for ev, ms := range c.init.Hooks {
		if !known[hooks.Event(ev)] {
			fmt.Fprintf(c.warn, "agentcore: the SDK host's %s hooks never run: agentcore has no %s event\n", ev, ev)
			continue
		}
		for _, m := range ms {
			hm := hooks.Matcher{Matcher: m.Matcher}
			for _, id := range m.HookCallbackIDs {
				hm.Hooks = append(hm.Hooks, hooks.Hook{Type: hooks.TypeCallback, Callback: id, Timeout: m.Timeout})
			}
			cfg[hooks.Event(ev)] = append(cfg[hooks.Event(ev)], hm)
		}
	}
	if len(cfg) > 0 {
		o.Hooks = o.Hooks.Merge(cfg)
		o.HookCallback = c.hookCallback
	}
	for _, name := range c.init.SDKMCPServers {
		t := &mcp.HostTransport{Send: func(ctx context.Context, msg json.RawMessage) (json.RawMessage, error) {
			r, err := c.request(ctx, map[string]any{"subtype": "mcp_message", "server_name": name, "message": msg})
			if err != nil {
				return nil, err
			}
			var res struct {
				MCPResponse json.RawMessage `json:"mcp_response"`
			}
			if err := json.Unmarshal(r.Response, &res); err != nil || len(res.MCPResponse) == 0 {
				return nil, fmt.Errorf("the SDK host's answer to mcp_message has no mcp_response")
			}
			return res.MCPResponse, nil
		}}
		c.servers[name] = t
		if o.MCP.Servers == nil {
			o.MCP.Servers = map[string]mcp.ServerConfig{}
		}
		o.MCP.Servers[name] = mcp.ServerConfig{Type: mcp.TransportSDK, InProcess: t, Source: "the SDK host (sdkMcpServers)"}
	}
}

// Attach gives the channel its session: the requests waiting for it run.
func (c *Channel) Attach(sess *session.Session) {
	c.sess = sess
	close(c.ready)
}

// hookCallback asks the host to run one of its hook callbacks.
func (c *Channel) hookCallback(ctx context.Context, id string, input json.RawMessage, toolUseID string) (json.RawMessage, error) {
	req := map[string]any{"subtype": "hook_callback", "callback_id": id, "input": input}
	if toolUseID != "" {
		req["tool_use_id"] = toolUseID
	}
	r, err := c.request(ctx, req)
	if err != nil {
		return nil, err
	}
	return r.Response, nil
}

// send writes one message to the host.
func (c *Channel) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		fmt.Fprintln(c.warn, "agentcore: a control message did not encode:", err)
		return
	}
	_, _ = c.out.Write(append(b, '\n'))
}

// inbound is one line of standard input.
type inbound struct {
	Type     string          `json:"type"`
	ID       string          `json:"request_id"`
	Request  json.RawMessage `json:"request"`
	Response controlReply    `json:"response"`
	Message  struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// Read takes stdin's lines until it ends, then closes prompts and fails
// the requests still waiting for the host. The host's answers are
// handled as they come; everything else goes through a queue that waits
// for the session.
func (c *Channel) Read(ctx context.Context, in io.Reader) {
	work := make(chan inbound)
	queue := make(chan inbound)
	// An unbounded queue: the reader never waits, so the host's answers
	// reach the requests that wait for them while the session opens.
	go func() {
		defer close(work)
		var q []inbound
		for queue != nil || len(q) > 0 {
			var out chan inbound
			var head inbound
			if len(q) > 0 {
				out, head = work, q[0]
			}
			select {
			case m, ok := <-queue:
				if !ok {
					queue = nil
					continue
				}
				q = append(q, m)
			case out <- head:
				q = q[1:]
			case <-ctx.Done():
				return
			}
		}
	}()
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(c.prompts)
		select {
		case <-c.ready:
		case <-ctx.Done():
			return
		}
		for msg := range work {
			c.dispatch(ctx, msg)
		}
	}()
	defer func() {
		c.mu.Lock()
		c.closed = true
		for id, ch := range c.pending {
			close(ch)
			delete(c.pending, id)
		}
		c.mu.Unlock()
		close(queue)
		<-done
	}()
	first := true
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var msg inbound
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			fmt.Fprintf(c.warn, "agentcore: ignored a line of standard input that is not JSON (%v): %.80s\n", err, line)
			continue
		}
		if first {
			first = false
			var init *Initialize
			var sub struct {
				Subtype string `json:"subtype"`
			}
			if msg.Type == "control_request" && json.Unmarshal(msg.Request, &sub) == nil && sub.Subtype == "initialize" {
				init = &Initialize{id: msg.ID, raw: msg.Request}
				if err := json.Unmarshal(msg.Request, init); err != nil {
					fmt.Fprintf(c.warn, "agentcore: the SDK host's initialize request is malformed (%v); its hooks and MCP servers are ignored\n", err)
				}
			}
			c.firstCh <- init
		}
		if msg.Type == "control_response" {
			c.mu.Lock()
			ch, ok := c.pending[msg.Response.ID]
			delete(c.pending, msg.Response.ID)
			c.mu.Unlock()
			if ok {
				ch <- msg.Response
			}
			continue
		}
		select {
		case queue <- msg:
		case <-ctx.Done():
			return
		}
	}
	if first {
		c.firstCh <- nil
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(c.warn, "agentcore: reading standard input:", err)
	}
}

// dispatch handles one message of the host once the session is open.
func (c *Channel) dispatch(ctx context.Context, msg inbound) {
	switch msg.Type {
	case "user":
		select {
		case c.prompts <- userText(msg.Message.Content):
		case <-ctx.Done():
		}
	case "control_request":
		c.handle(msg.ID, msg.Request)
	case "control_cancel_request", "keep_alive":
	default:
		fmt.Fprintf(c.warn, "agentcore: ignored a message of type %q on standard input\n", msg.Type)
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
func (c *Channel) handle(id string, raw json.RawMessage) {
	var req struct {
		Subtype    string          `json:"subtype"`
		Mode       string          `json:"mode"`
		Model      *string         `json:"model"`
		ServerName string          `json:"server_name"`
		Message    json.RawMessage `json:"message"`
		// UserMessageID and DryRun are rewind_files'.
		UserMessageID string `json:"user_message_id"`
		DryRun        bool   `json:"dry_run"`
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
		if c.init == nil || c.init.id != id {
			fail("initialize must be the host's first message, and comes once: this one was ignored")
			return
		}
		source := c.opts.APIKeySource
		if source == "" {
			source = "none"
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
		spec := ""
		if req.Model != nil && *req.Model != "default" {
			spec = *req.Model
		}
		if c.opts.SetModel == nil {
			fail("set_model: this front end cannot switch the model")
			return
		}
		if err := c.opts.SetModel(spec); err != nil {
			fail("set_model: %v", err)
			return
		}
		ok(map[string]any{})
	case "mcp_status":
		servers := []map[string]any{}
		for _, st := range c.sess.MCP().Servers() {
			srv := map[string]any{"name": st.Name, "status": st.State.String()}
			if st.Transport == mcp.TransportSDK {
				srv["source"] = "sdk"
			}
			servers = append(servers, srv)
		}
		ok(map[string]any{"mcpServers": servers})
	case "mcp_message":
		// A message an in-process server sent of its own accord.
		t, found := c.servers[req.ServerName]
		if !found {
			fail("mcp_message: no in-process MCP server %q (the initialize request named %v)", req.ServerName, c.sdkServerNames())
			return
		}
		if err := t.Deliver(req.Message); err != nil {
			fail("mcp_message: %v", err)
			return
		}
		ok(map[string]any{"mcp_response": map[string]any{"jsonrpc": "2.0", "result": map[string]any{}, "id": 0}})
	case "rewind_files":
		if c.sess == nil {
			fail("rewind_files: no session is open")
			return
		}
		// agentcore names a checkpoint by its turn: the session's Nth
		// prompt (what /rewind and --rewind-files list).
		n, err := strconv.Atoi(strings.TrimSpace(req.UserMessageID))
		if err != nil || n < 1 {
			fail("rewind_files: user_message_id %q is not a turn number: agentcore names a checkpoint by its turn (1 for the session's first prompt; agentcore --resume ID --rewind-files x lists them)", req.UserMessageID)
			return
		}
		changes, err := c.sess.RewindFiles(n, req.DryRun)
		if err != nil {
			ok(map[string]any{"canRewind": false, "error": err.Error()})
			return
		}
		files := []string{}
		for _, ch := range changes {
			if ch.Skipped == "" {
				files = append(files, ch.Path)
			}
		}
		ok(map[string]any{"canRewind": true, "filesChanged": files})
	case "set_max_thinking_tokens":
		fail("agentcore does not send thinking budgets to the model: set_max_thinking_tokens has no effect here, so it is refused")
	default:
		fail("agentcore does not support the control request %q", req.Subtype)
	}
}

func (c *Channel) sdkServerNames() []string {
	if c.init == nil {
		return nil
	}
	return c.init.SDKMCPServers
}

// request sends agentcore's control request to the host and waits for
// its response.
func (c *Channel) request(ctx context.Context, req map[string]any) (controlReply, error) {
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

// Asker asks the SDK host's canUseTool (--permission-prompt-tool
// stdio) about the calls that need approval.
func (c *Channel) Asker() ask.Asker { return hostAsker{c} }

// hostAsker asks the SDK host's canUseTool: allow, with the input the
// host may have changed, or deny with the host's message.
type hostAsker struct{ c *Channel }

// Ask is AskHost without the input and the message.
func (a hostAsker) Ask(ctx context.Context, req ask.AskRequest) (ask.Answer, error) {
	r, err := a.AskHost(ctx, req)
	return r.Answer, err
}

// AskHost sends a can_use_tool request.
func (a hostAsker) AskHost(ctx context.Context, req ask.AskRequest) (ask.HostReply, error) {
	input := req.Input
	if len(input) == 0 {
		input = json.RawMessage(`{}`)
	}
	r, err := a.c.request(ctx, map[string]any{"subtype": "can_use_tool", "tool_name": req.Tool, "input": input,
		"tool_use_id": req.ToolUseID, "decision_reason": req.Message})
	if err != nil {
		return ask.HostReply{Answer: ask.AnswerDeny}, err
	}
	var res struct {
		Behavior     string          `json:"behavior"`
		UpdatedInput json.RawMessage `json:"updatedInput"`
		Message      string          `json:"message"`
	}
	if err := json.Unmarshal(r.Response, &res); err != nil {
		return ask.HostReply{Answer: ask.AnswerDeny}, fmt.Errorf("the SDK host's can_use_tool answer is not a permission result: %w", err)
	}
	switch res.Behavior {
	case "allow":
		reply := ask.HostReply{Answer: ask.AnswerAllowOnce}
		if len(res.UpdatedInput) > 0 && string(res.UpdatedInput) != "null" {
			reply.UpdatedInput = res.UpdatedInput
		}
		return reply, nil
	case "deny":
		msg := res.Message
		if msg == "" {
			msg = "The SDK host denied " + req.Tool + "."
		}
		return ask.HostReply{Answer: ask.AnswerDeny, Message: msg}, nil
	}
	return ask.HostReply{Answer: ask.AnswerDeny}, fmt.Errorf("the SDK host answered can_use_tool with behavior %q; want allow or deny", res.Behavior)
}
