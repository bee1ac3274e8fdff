package mcp

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/provider"
)

// What agentcore offers the servers it connects to (the client
// capabilities): roots always, elicitation when Options.Elicit is set,
// sampling when Options.Sample is set. The SDK's client answers both the
// classic server-to-client requests and, with servers of protocol
// 2026-07-28, the input requests of multi round-trip calls (SEP-2322)
// with the same handlers.

// Elicitor answers a server's request for input (elicitation/create, form
// or URL mode). req.Server names the server.
type Elicitor func(ctx context.Context, req ask.ElicitRequest) (ask.ElicitAnswer, error)

// SamplingRequest is a server's sampling/createMessage, made a request to
// the session's model: System is the server's system prompt, Messages
// its conversation (text only), MaxTokens its cap.
type SamplingRequest struct {
	// Server names the server asking.
	Server string
	// Request is what goes to the model: no tools.
	Request provider.Request
	// ModelHints are the server's model preferences, in order; agentcore
	// answers with the session's model whatever they say.
	ModelHints []string
}

// SamplingResult is the model's answer to a SamplingRequest.
type SamplingResult struct {
	Text  string
	Model string
	Stop  provider.StopReason
}

// Sampler answers a server's sampling request with a model, after
// whatever approval the caller requires; its error goes back to the
// server as the request's error.
type Sampler func(ctx context.Context, req SamplingRequest) (SamplingResult, error)

// DeclineReasonKey is the _meta key of an elicitation result under which
// agentcore says why it declined without asking anyone.
const DeclineReasonKey = "agentcore/declineReason"

// SetRoots replaces the roots offered to the servers (directories; the
// session's working directories) and sends notifications/roots/list_changed
// to every connected server when they changed; it waits (up to
// RootsRefreshWait) for the servers that listed the roots before to list
// them again. Servers that connect later get the new roots.
func (m *Manager) SetRoots(dirs []string) {
	dirs = cleanDirs(dirs)
	m.rootsMu.Lock()
	if slices.Equal(dirs, m.roots) {
		m.rootsMu.Unlock()
		return
	}
	var added []*sdk.Root
	for _, d := range dirs {
		if !slices.Contains(m.roots, d) {
			added = append(added, rootOf(d))
		}
	}
	var removed []string
	for _, d := range m.roots {
		if !slices.Contains(dirs, d) {
			removed = append(removed, rootOf(d).URI)
		}
	}
	m.roots = dirs
	var waits []<-chan struct{}
	for c, l := range m.clients {
		// Wait for the listing that follows the notification: ask
		// before notifying, so that a server answering at once is not
		// missed.
		if w := l.next(); w != nil {
			waits = append(waits, w)
		}
		c.AddRoots(added...) // notifies when there are any
		c.RemoveRoots(removed...)
	}
	m.rootsMu.Unlock()
	// A server that listed the roots before lists them again on the
	// notification: give it a moment, so that the next call it gets
	// already sees the new roots.
	deadline := time.NewTimer(RootsRefreshWait)
	defer deadline.Stop()
	for _, w := range waits {
		select {
		case <-w:
		case <-deadline.C:
			return
		case <-m.ctx.Done():
			return
		}
	}
}

// RootsRefreshWait bounds how long SetRoots waits for the servers that
// listed the roots before to list them again. A server answers in
// milliseconds; the bound is for one starved of CPU (a node server on a
// loaded machine has taken over 2 s), and only a server that stopped
// listing costs it in full.
const RootsRefreshWait = 5 * time.Second

// rootsListener tells when a server lists the roots (roots/list).
type rootsListener struct {
	mu     sync.Mutex
	listed bool            // the server listed the roots at least once
	wait   []chan struct{} // closed at its next listing
}

// next returns a channel closed when the server lists the roots next,
// or nil when it never listed them (it does not use roots).
func (l *rootsListener) next() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.listed {
		return nil
	}
	ch := make(chan struct{})
	l.wait = append(l.wait, ch)
	return ch
}

func (l *rootsListener) saw() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.listed = true
	for _, ch := range l.wait {
		close(ch)
	}
	l.wait = nil
}

// middleware reports the server's roots/list requests to l once answered.
func (l *rootsListener) middleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		if method == "roots/list" && err == nil {
			l.saw()
		}
		return res, err
	}
}

// Roots returns the directories offered to the servers as roots.
func (m *Manager) Roots() []string {
	m.rootsMu.Lock()
	defer m.rootsMu.Unlock()
	return slices.Clone(m.roots)
}

// cleanDirs makes dirs absolute and clean, without repeats, in order.
func cleanDirs(dirs []string) []string {
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if abs, err := filepath.Abs(d); err == nil {
			d = abs
		}
		d = filepath.Clean(d)
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// rootOf is the root of a directory: a file:// URI named by its base name.
func rootOf(dir string) *sdk.Root {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}
	return &sdk.Root{URI: u.String(), Name: filepath.Base(dir)}
}

// newClient makes the SDK client of one connection of s: its
// capabilities, its handlers, and the current roots. ready is closed once
// c.cs is set.
func (s *server) newClient(c *conn, ready <-chan struct{}) *sdk.Client {
	m := s.m
	caps := &sdk.ClientCapabilities{RootsV2: &sdk.RootCapabilities{ListChanged: true}}
	opts := &sdk.ClientOptions{
		Capabilities:                caps,
		ProgressNotificationHandler: m.onProgress,
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			m.goTracked(func() {
				select {
				case <-ready:
					s.refreshTools(c)
				case <-m.ctx.Done():
				}
			})
		},
		PromptListChangedHandler: func(context.Context, *sdk.PromptListChangedRequest) {
			m.goTracked(func() {
				select {
				case <-ready:
					s.refreshPrompts(c)
				case <-m.ctx.Done():
				}
			})
		},
	}
	if m.opts.Elicit != nil {
		caps.Elicitation = &sdk.ElicitationCapabilities{Form: &sdk.FormElicitationCapabilities{}, URL: &sdk.URLElicitationCapabilities{}}
		opts.ElicitationHandler = s.elicit
	}
	if m.opts.Sample != nil {
		caps.Sampling = &sdk.SamplingCapabilities{}
		opts.CreateMessageHandler = s.sample
	}
	client := sdk.NewClient(&sdk.Implementation{Name: m.opts.ClientName, Version: m.opts.ClientVersion}, opts)
	listener := &rootsListener{}
	client.AddReceivingMiddleware(listener.middleware)
	m.rootsMu.Lock()
	roots := make([]*sdk.Root, len(m.roots))
	for i, d := range m.roots {
		roots[i] = rootOf(d)
	}
	client.AddRoots(roots...) // no session yet: nobody to notify
	m.clients[client] = listener
	m.rootsMu.Unlock()
	c.client = client
	return client
}

// dropClient forgets the client of a closed connection.
func (m *Manager) dropClient(client *sdk.Client) {
	if client == nil {
		return
	}
	m.rootsMu.Lock()
	delete(m.clients, client)
	m.rootsMu.Unlock()
}

// elicit answers elicitation/create through Options.Elicit.
func (s *server) elicit(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	er, err := ElicitRequestOf(s.name, req.Params)
	if err != nil {
		return nil, err
	}
	ans, err := s.m.opts.Elicit(ctx, er)
	if err != nil {
		return nil, err
	}
	res := &sdk.ElicitResult{Action: string(cmp.Or(ans.Action, ask.ElicitCancel))}
	if ans.Action == ask.ElicitAccept && er.Mode == ask.ElicitForm {
		// JSON's types (numbers as float64), which the SDK checks
		// against the requested schema.
		res.Content = map[string]any{}
		if b, err := json.Marshal(ans.Content); err == nil {
			_ = json.Unmarshal(b, &res.Content)
		}
	}
	if ans.Reason != "" {
		res.Meta = sdk.Meta{DeclineReasonKey: ans.Reason}
	}
	return res, nil
}

// ElicitRequestOf turns a server's elicitation parameters into the
// permission engine's request: a form's fields from its flat JSON Schema
// (required fields first, then by name: the order of the server's
// properties does not survive decoding), or the URL.
func ElicitRequestOf(server string, p *sdk.ElicitParams) (ask.ElicitRequest, error) {
	if p == nil {
		return ask.ElicitRequest{}, errors.New("elicitation request without parameters")
	}
	req := ask.ElicitRequest{Server: server, Message: p.Message, Mode: ask.ElicitForm}
	if p.Mode == "url" || (p.Mode == "" && p.URL != "") {
		req.Mode, req.URL = ask.ElicitURL, p.URL
		return req, nil
	}
	if p.RequestedSchema == nil {
		return req, nil
	}
	raw, err := json.Marshal(p.RequestedSchema)
	if err != nil {
		return req, fmt.Errorf("elicitation schema: %w", err)
	}
	var schema struct {
		Properties map[string]fieldSchema `json:"properties"`
		Required   []string               `json:"required"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		return req, fmt.Errorf("elicitation schema: %w", err)
	}
	for name, fs := range schema.Properties {
		f, err := fs.field(name, slices.Contains(schema.Required, name))
		if err != nil {
			return req, fmt.Errorf("elicitation schema: property %q: %w", name, err)
		}
		req.Fields = append(req.Fields, f)
	}
	slices.SortFunc(req.Fields, func(a, b ask.FormField) int {
		if a.Required != b.Required {
			if a.Required {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return req, nil
}

// fieldSchema is one property of an elicitation schema: a primitive, an
// enum (with titles as oneOf/const or legacy enumNames), or an array of
// enum values.
type fieldSchema struct {
	Type        string          `json:"type"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Format      string          `json:"format"`
	Default     json.RawMessage `json:"default"`
	Enum        []string        `json:"enum"`
	EnumNames   []string        `json:"enumNames"`
	OneOf       []constTitle    `json:"oneOf"`
	AnyOf       []constTitle    `json:"anyOf"`
	Items       *fieldSchema    `json:"items"`
	Minimum     *float64        `json:"minimum"`
	Maximum     *float64        `json:"maximum"`
	MinLength   *float64        `json:"minLength"`
	MaxLength   *float64        `json:"maxLength"`
	MinItems    *float64        `json:"minItems"`
	MaxItems    *float64        `json:"maxItems"`
}

type constTitle struct {
	Const string `json:"const"`
	Title string `json:"title"`
}

// choices lists the enum values of a schema with their labels.
func (fs *fieldSchema) choices() []ask.Choice {
	var out []ask.Choice
	for i, v := range fs.Enum {
		c := ask.Choice{Value: v}
		if i < len(fs.EnumNames) {
			c.Label = fs.EnumNames[i]
		}
		out = append(out, c)
	}
	for _, o := range append(slices.Clone(fs.OneOf), fs.AnyOf...) {
		out = append(out, ask.Choice{Value: o.Const, Label: o.Title})
	}
	return out
}

func (fs fieldSchema) field(name string, required bool) (ask.FormField, error) {
	f := ask.FormField{Name: name, Title: fs.Title, Description: fs.Description, Required: required, Format: fs.Format}
	switch fs.Type {
	case "string", "":
		f.Kind, f.Min, f.Max = ask.FieldString, fs.MinLength, fs.MaxLength
		if f.Choices = fs.choices(); len(f.Choices) > 0 {
			f.Kind, f.Min, f.Max = ask.FieldChoice, nil, nil
		}
	case "number", "integer":
		f.Kind, f.Min, f.Max = ask.FieldKind(fs.Type), fs.Minimum, fs.Maximum
	case "boolean":
		f.Kind = ask.FieldBoolean
	case "array":
		if fs.Items == nil {
			return f, errors.New("an array without items")
		}
		f.Kind, f.Min, f.Max = ask.FieldMultiChoice, fs.MinItems, fs.MaxItems
		if f.Choices = fs.Items.choices(); len(f.Choices) == 0 {
			return f, errors.New("an array whose items are not enum values")
		}
	default:
		return f, fmt.Errorf("type %q is not one an elicitation form may use", fs.Type)
	}
	if len(fs.Default) > 0 && string(fs.Default) != "null" {
		var d any
		if err := json.Unmarshal(fs.Default, &d); err != nil {
			return f, fmt.Errorf("default: %w", err)
		}
		if list, ok := d.([]any); ok {
			var ss []string
			for _, x := range list {
				ss = append(ss, fmt.Sprint(x))
			}
			d = ss
		}
		f.Default = d
	}
	return f, nil
}

// sample answers sampling/createMessage through Options.Sample.
func (s *server) sample(ctx context.Context, req *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
	sr, err := SamplingRequestOf(s.name, req.Params)
	if err != nil {
		return nil, err
	}
	res, err := s.m.opts.Sample(ctx, sr)
	if err != nil {
		return nil, err
	}
	return &sdk.CreateMessageResult{
		Content:    &sdk.TextContent{Text: res.Text},
		Model:      res.Model,
		Role:       "assistant",
		StopReason: stopReasonOf(res.Stop),
	}, nil
}

// SamplingRequestOf turns a server's sampling parameters into a model
// request. Only text content can be sent: an image or audio message is
// an error that says so.
func SamplingRequestOf(server string, p *sdk.CreateMessageParams) (SamplingRequest, error) {
	if p == nil {
		return SamplingRequest{}, errors.New("sampling request without parameters")
	}
	sr := SamplingRequest{Server: server, Request: provider.Request{System: p.SystemPrompt, MaxTokens: int(p.MaxTokens)}}
	for i, msg := range p.Messages {
		if msg == nil {
			continue
		}
		t, ok := msg.Content.(*sdk.TextContent)
		if !ok {
			return sr, fmt.Errorf("sampling message %d is %T: agentcore samples text messages only", i+1, msg.Content)
		}
		role := provider.User
		if msg.Role == "assistant" {
			role = provider.Assistant
		}
		sr.Request.Messages = append(sr.Request.Messages, provider.Message{Role: role, Content: []provider.Block{provider.Text(t.Text)}})
	}
	if len(sr.Request.Messages) == 0 {
		return sr, errors.New("sampling request without messages")
	}
	if mp := p.ModelPreferences; mp != nil {
		for _, h := range mp.Hints {
			if h != nil && h.Name != "" {
				sr.ModelHints = append(sr.ModelHints, h.Name)
			}
		}
	}
	return sr, nil
}

func stopReasonOf(s provider.StopReason) string {
	switch s {
	case provider.StopMaxTokens:
		return "maxTokens"
	case provider.StopToolUse:
		return "toolUse"
	case "":
		return ""
	}
	return "endTurn"
}

// SamplingRule is the name permission rules use for servers' sampling
// requests: "McpSampling" allows (or denies, or asks for) every server's,
// "McpSampling(name)" those of the server called name in .mcp.json. It is
// no tool the model can call.
const SamplingRule = "McpSampling"

// SamplingGate is what the permission engine checks a sampling request
// against (permission.Engine.Approve, with the server's name as input):
// its rules are SamplingRule's.
var SamplingGate = runtime.Define(runtime.Definition[string]{
	Name:        SamplingRule,
	Description: "An MCP server's request to have the session's model answer a prompt (sampling/createMessage). Not callable.",
	Decode: func(raw json.RawMessage) (string, error) {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	},
	Call: func(context.Context, string, *runtime.Call) (runtime.Result, error) {
		return runtime.Result{}, errors.New(SamplingRule + " is a permission rule's name, not a tool")
	},
	PermissionTarget: func(server string) runtime.Target { return runtime.Target{Value: server} },
	RenderUse:        func(server string) string { return "MCP server " + server },
	Disabled:         true,
})
