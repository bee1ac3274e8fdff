package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcore/agentcore/runtime"
)

// Names of the resource tools, as in Claude Code; the shorter forms are
// aliases.
const (
	ListResourcesToolName = "ListMcpResourcesTool"
	ReadResourceToolName  = "ReadMcpResourceTool"
)

// ListResourcesInput is the decoded input of ListMcpResourcesTool.
type ListResourcesInput struct {
	// Server limits the listing to one server; empty lists all.
	Server string `json:"server,omitempty"`
}

// ReadResourceInput is the decoded input of ReadMcpResourceTool.
type ReadResourceInput struct {
	Server string `json:"server"`
	URI    string `json:"uri"`
}

// ResourceEntry is one resource in ListMcpResourcesTool's answer: the MCP
// resource fields plus the server offering it.
type ResourceEntry struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	Description string `json:"description,omitempty"`
	Server      string `json:"server"`
}

// resourceToolBase holds what both resource tools share: read-only,
// concurrency-safe, deferred, cancelled on interrupt.
type resourceToolBase struct{ m *Manager }

func (resourceToolBase) SearchHint() string { return "mcp resources files documents data" }
func (resourceToolBase) IsEnabled() bool    { return true }
func (resourceToolBase) ShouldDefer() bool  { return true }
func (resourceToolBase) AlwaysLoad() bool   { return false }
func (resourceToolBase) InterruptBehavior(any) runtime.InterruptBehavior {
	return runtime.InterruptCancel
}
func (resourceToolBase) Traits() runtime.Traits {
	return runtime.Traits{ReadOnly: runtime.Flag{Value: true}, ConcurrencySafe: runtime.Flag{Value: true}}
}
func (resourceToolBase) ValidateInput(context.Context, any, *runtime.ToolContext) error { return nil }
func (resourceToolBase) CheckPermissions(context.Context, any, *runtime.ToolContext) runtime.PermissionDecision {
	return runtime.PermissionDecision{Behavior: runtime.Passthrough}
}
func (resourceToolBase) PermissionTarget(any) runtime.Target { return runtime.Target{} }
func (resourceToolBase) IsConcurrencySafe(any) bool          { return true }
func (resourceToolBase) IsReadOnly(any) bool                 { return true }
func (resourceToolBase) IsDestructive(any) bool              { return false }
func (resourceToolBase) RenderProgress(_ any, p any) string  { return renderProgress(p) }
func (resourceToolBase) RenderResult(_ any, r runtime.Result) string {
	return summarise(r)
}
func (resourceToolBase) RenderError(_ any, err error) string {
	if err == nil {
		return "Error"
	}
	return "Error: " + clip(err.Error(), 200)
}

// decodeStrict parses raw into v, rejecting unknown keys and wrong types
// with a message naming the parameter.
func decodeStrict(raw json.RawMessage, allowed []string, v any) error {
	in, err := decodeObject(raw, nil)
	if err != nil {
		return err
	}
	for k, val := range in {
		if !slices.Contains(allowed, k) {
			return fmt.Errorf("unknown parameter %q: this tool takes %s", k, joinQuoted(allowed))
		}
		var s string
		if json.Unmarshal(val, &s) != nil {
			return fmt.Errorf("the parameter %q must be a string", k)
		}
	}
	b, _ := json.Marshal(in)
	return json.Unmarshal(b, v)
}

type listResourcesTool struct{ resourceToolBase }

func (t *listResourcesTool) Name() string      { return ListResourcesToolName }
func (t *listResourcesTool) Aliases() []string { return []string{"ListMcpResources"} }
func (t *listResourcesTool) Description() string {
	return `Lists the resources that connected MCP servers offer. Each entry has the standard MCP resource fields (uri, name, mimeType, description) and a "server" field naming the server it belongs to; read one with ReadMcpResourceTool.

Parameters:
- server (optional): only list this server's resources. Without it, every server's resources are listed.`
}
func (t *listResourcesTool) InputSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"server":{"type":"string","description":"Only list the resources of this MCP server; omit to list every server's resources."}},"additionalProperties":false}`)
}
func (t *listResourcesTool) Decode(raw json.RawMessage) (any, error) {
	var in ListResourcesInput
	if err := decodeStrict(raw, []string{"server"}, &in); err != nil {
		return nil, err
	}
	return in, nil
}
func (t *listResourcesTool) UserFacingName(any) string { return "List MCP resources" }
func (t *listResourcesTool) RenderUse(input any) string {
	if in, ok := input.(ListResourcesInput); ok && in.Server != "" {
		return "server: " + in.Server
	}
	return ""
}
func (t *listResourcesTool) RenderRejected(any) string { return "Rejected: listing MCP resources" }
func (t *listResourcesTool) RenderGrouped(inputs []any) string {
	return fmt.Sprintf("%d resource listings", len(inputs))
}

// Call lists the resources of one server, or of every server that offers
// them.
func (t *listResourcesTool) Call(ctx context.Context, input any, _ *runtime.Call) (runtime.Result, error) {
	in, ok := input.(ListResourcesInput)
	if !ok {
		return runtime.Result{}, fmt.Errorf("%s: input is a %T, want ListResourcesInput", t.Name(), input)
	}
	var targets []*server
	if in.Server != "" {
		s, err := t.m.server(in.Server)
		if err != nil {
			return runtime.ErrorResult(err.Error()), nil
		}
		targets = []*server{s}
	} else {
		for _, s := range t.m.servers {
			s.mu.Lock()
			if s.resources {
				targets = append(targets, s)
			}
			s.mu.Unlock()
		}
	}
	entries := []ResourceEntry{}
	var problems []string
	for _, s := range targets {
		err := s.do(ctx, "resources/list", func(ctx context.Context, cs *sdk.ClientSession) error {
			for r, err := range cs.Resources(ctx, nil) {
				if err != nil {
					return err
				}
				entries = append(entries, ResourceEntry{
					URI: r.URI, Name: r.Name, Title: r.Title, MIMEType: r.MIMEType,
					Description: r.Description, Server: s.name,
				})
			}
			return nil
		})
		if err != nil {
			if ctx.Err() != nil {
				return runtime.Result{}, ctx.Err()
			}
			problems = append(problems, err.Error())
		}
	}
	if len(problems) > 0 && len(entries) == 0 {
		return runtime.ErrorResult(strings.Join(problems, "\n")), nil
	}
	if len(entries) == 0 {
		return runtime.Result{Data: entries, Content: []runtime.Block{runtime.TextBlock(
			"No resources found. MCP servers may still provide tools even if they have no resources.")}}, nil
	}
	b, _ := json.MarshalIndent(entries, "", "  ")
	res := runtime.Result{Data: entries, Content: []runtime.Block{runtime.TextBlock(string(b))}}
	if len(problems) > 0 {
		res.Content = append(res.Content, runtime.TextBlock("Some servers could not be listed:\n"+strings.Join(problems, "\n")))
	}
	return res, nil
}

type readResourceTool struct{ resourceToolBase }

func (t *readResourceTool) Name() string      { return ReadResourceToolName }
func (t *readResourceTool) Aliases() []string { return []string{"ReadMcpResource"} }
func (t *readResourceTool) Description() string {
	return `Reads one resource of an MCP server, identified by the server's name and the resource's URI (as ListMcpResourcesTool lists them). Text comes back as text, images as images.

Parameters:
- server (required): the name of the MCP server to read from
- uri (required): the URI of the resource to read`
}
func (t *readResourceTool) InputSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"server":{"type":"string","description":"The MCP server to read from."},"uri":{"type":"string","description":"The URI of the resource to read."}},"required":["server","uri"],"additionalProperties":false}`)
}
func (t *readResourceTool) Decode(raw json.RawMessage) (any, error) {
	if _, err := decodeObject(raw, []string{"server", "uri"}); err != nil {
		return nil, err
	}
	var in ReadResourceInput
	if err := decodeStrict(raw, []string{"server", "uri"}, &in); err != nil {
		return nil, err
	}
	if in.Server == "" || in.URI == "" {
		return nil, fmt.Errorf(`the parameters "server" and "uri" must not be empty`)
	}
	return in, nil
}
func (t *readResourceTool) UserFacingName(any) string { return "Read MCP resource" }
func (t *readResourceTool) RenderUse(input any) string {
	if in, ok := input.(ReadResourceInput); ok {
		return in.Server + ": " + in.URI
	}
	return ""
}
func (t *readResourceTool) RenderRejected(input any) string {
	return "Rejected: reading " + t.RenderUse(input)
}
func (t *readResourceTool) RenderGrouped(inputs []any) string {
	return fmt.Sprintf("%d resources read", len(inputs))
}

// Call reads the resource: text contents as text blocks, images as image
// blocks, other binary contents described.
func (t *readResourceTool) Call(ctx context.Context, input any, _ *runtime.Call) (runtime.Result, error) {
	in, ok := input.(ReadResourceInput)
	if !ok {
		return runtime.Result{}, fmt.Errorf("%s: input is a %T, want ReadResourceInput", t.Name(), input)
	}
	s, err := t.m.server(in.Server)
	if err != nil {
		return runtime.ErrorResult(err.Error()), nil
	}
	var res *sdk.ReadResourceResult
	err = s.do(ctx, "resources/read of "+in.URI, func(ctx context.Context, cs *sdk.ClientSession) error {
		var err error
		res, err = cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: in.URI})
		return err
	})
	if err != nil {
		if ctx.Err() != nil {
			return runtime.Result{}, ctx.Err()
		}
		return runtime.ErrorResult(err.Error()), nil
	}
	out := runtime.Result{Data: res}
	for _, c := range res.Contents {
		if c != nil {
			out.Content = append(out.Content, resourceBlock(c))
		}
	}
	if len(out.Content) == 0 {
		out.Content = []runtime.Block{runtime.TextBlock("(the resource is empty)")}
	}
	out.Content = capText(out.Content, t.m.opts.MaxOutputChars)
	return out, nil
}

var (
	_ runtime.Tool = (*listResourcesTool)(nil)
	_ runtime.Tool = (*readResourceTool)(nil)
)
